import type { Locator, Page } from 'playwright-core';

/** Usage → per-account metrics with their limits. */
export class UsageWorkbench {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('usage-page');
  }

  metric(account: string, metric: string): Locator {
    const slug = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '-');
    return this.page.getByTestId(`usage-${slug(account)}-${slug(metric)}`);
  }

  get refreshButton(): Locator {
    return this.page.getByTestId('usage-refresh');
  }

  /** "Read from the service at …": when the figures shown were read. */
  get readAt(): Locator {
    return this.page.getByTestId('usage-read-at');
  }

  /** Refreshes (a no-op within a minute of the last read) and returns current/limit of a metric. */
  async read(account: string, metric: string): Promise<{ current: number; limit: number }> {
    const idle = this.page.locator('[data-testid="usage-refresh"]:not([disabled])');
    await idle.waitFor();
    // Within a minute of the last read Refresh waits (aria-disabled): the figures shown are main's.
    if ((await this.refreshButton.getAttribute('aria-disabled')) !== 'true') {
      await this.refreshButton.click();
      await idle.waitFor();
    }
    const row = this.metric(account, metric);
    await row.waitFor();
    return {
      current: Number(await row.getAttribute('data-current')),
      limit: Number(await row.getAttribute('data-limit')),
    };
  }
}
