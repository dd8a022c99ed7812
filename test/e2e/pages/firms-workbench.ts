import type { Locator, Page } from 'playwright-core';

/** Firms → firm search with paging and counting. */
export class FirmsWorkbench {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('firms-page');
  }

  async search(): Promise<void> {
    await this.page.getByTestId('firms-run').click();
    await this.page
      .locator('[data-testid="firms-summary"], [data-testid="firms-error"]')
      .first()
      .waitFor({ timeout: 60_000 });
  }

  async count(): Promise<number> {
    await this.page.getByTestId('firms-count').click();
    const r = this.page.getByTestId('firms-count-result');
    await r.waitFor();
    return Number(await r.getAttribute('data-count'));
  }

  async pageInfo(): Promise<{ page: number; pages: number }> {
    const s = this.page.getByTestId('firms-summary');
    return {
      page: Number(await s.getAttribute('data-page')),
      pages: Number(await s.getAttribute('data-pages')),
    };
  }

  async waitForPage(n: number): Promise<void> {
    await this.page.locator(`[data-testid="firms-summary"][data-page="${n}"]`).waitFor();
  }

  async firmName(rowIndex: number): Promise<string> {
    return (
      (await this.page
        .getByTestId('firms-grid')
        .locator(`.ag-row[row-index="${rowIndex}"] [col-id="name"]`)
        .textContent()) ?? ''
    ).trim();
  }

  async openShipments(role: 'importer' | 'exporter', rowIndex: number): Promise<void> {
    await this.page.getByTestId(`firm-open-${role}-${rowIndex}`).click();
  }
}
