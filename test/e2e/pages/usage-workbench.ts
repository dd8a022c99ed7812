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

  /** Refreshes and returns current/limit of a metric. */
  async read(account: string, metric: string): Promise<{ current: number; limit: number }> {
    await this.page.getByTestId('usage-refresh').click();
    await this.page.locator('[data-testid="usage-refresh"]:not([disabled])').waitFor();
    const row = this.metric(account, metric);
    await row.waitFor();
    return {
      current: Number(await row.getAttribute('data-current')),
      limit: Number(await row.getAttribute('data-limit')),
    };
  }
}
