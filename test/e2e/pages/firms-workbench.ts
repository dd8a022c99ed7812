import type { Locator, Page } from 'playwright-core';
import { AgGrid } from './ag-grid';

/** Firms → firm search with paging and counting. */
export class FirmsWorkbench {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('firms-page');
  }

  /** The Firms page's service firm search (its third view). */
  async show(): Promise<void> {
    await this.page.getByTestId('firms-tab-search').click();
    await this.page.getByTestId('firms-run').waitFor();
  }

  async search(): Promise<void> {
    if (!(await this.page.getByTestId('firms-run').isVisible())) await this.show();
    await this.page.getByTestId('firms-run').click();
    await this.page
      .locator('[data-testid="firms-summary"], [data-testid="firms-error"]')
      .first()
      .waitFor({ timeout: 60_000 });
  }

  async count(): Promise<number> {
    if (!(await this.page.getByTestId('firms-count').isVisible())) await this.show();
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

  get table(): AgGrid {
    return new AgGrid(this.page, this.page.getByTestId('firms-grid'));
  }

  get summary(): Locator {
    return this.page.getByTestId('firms-summary');
  }

  get pageInput(): Locator {
    return this.page.getByTestId('firms-page-input');
  }

  get pageInputError(): Locator {
    return this.page.getByTestId('firms-page-input-error');
  }

  /** Types a page number into the jump field; `go` presses Go (it may be disabled). */
  async typePage(n: number | string): Promise<void> {
    await this.pageInput.fill(String(n));
  }

  async jumpTo(n: number): Promise<void> {
    await this.typePage(n);
    await this.page.getByTestId('firms-page-go').click();
    await this.waitForPage(n);
  }

  async next(): Promise<void> {
    const { page } = await this.pageInfo();
    await this.page.getByTestId('firms-next').click();
    await this.waitForPage(page + 1);
  }

  async previous(): Promise<void> {
    const { page } = await this.pageInfo();
    await this.page.getByTestId('firms-prev').click();
    await this.waitForPage(page - 1);
  }

  async openShipments(role: 'importer' | 'exporter', rowIndex: number): Promise<void> {
    await this.page.getByTestId(`firm-open-${role}-${rowIndex}`).click();
  }
}
