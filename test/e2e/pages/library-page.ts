import type { Locator, Page } from 'playwright-core';

/** Library → the dataset list, its editing controls, and the infinite-model grid of an open dataset. */
export class LibraryPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('library-page');
  }

  get list(): Locator {
    return this.page.getByTestId('library-list');
  }

  /** The list row of the dataset with this name. */
  row(name: string): Locator {
    return this.page.locator(`tr[data-testid^="library-row-"][data-name="${name}"]`);
  }

  rows(): Locator {
    return this.page.locator('tr[data-testid^="library-row-"]');
  }

  async rowNames(): Promise<string[]> {
    const rows = await this.rows().all();
    return Promise.all(rows.map(async (r) => (await r.getAttribute('data-name')) ?? ''));
  }

  async idOf(name: string): Promise<string> {
    const testId = await this.row(name).getAttribute('data-testid');
    return (testId ?? '').replace('library-row-', '');
  }

  async open(name: string): Promise<void> {
    await this.row(name).locator('[data-testid^="library-open-"]').click();
    await this.page.getByTestId('library-detail').waitFor();
    await this.waitForRows();
  }

  get grid(): Locator {
    return this.page.getByTestId('library-grid');
  }

  private async attr(name: string): Promise<string | null> {
    return this.grid.getAttribute(name);
  }

  /** Polls the grid's data attributes from the test side (the app's CSP forbids evaluated strings). */
  private async until(done: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > end) throw new Error('the library grid did not answer in time');
      await this.page.waitForTimeout(25);
    }
  }

  /** Waits until the grid has answered a block (lastRow known, nothing loading). */
  async waitForRows(): Promise<number> {
    await this.grid.waitFor();
    await this.until(
      async () => (await this.attr('data-last-row')) !== '' && (await this.attr('data-loading')) === 'false',
    );
    return Number(await this.attr('data-last-row'));
  }

  /** Clicks a header and waits for the library's answer to the new sort. */
  async sortBy(colId: string): Promise<void> {
    const before = Number(await this.attr('data-answered'));
    await this.grid.locator(`.ag-header-cell[col-id="${colId}"] .ag-header-cell-label`).click();
    await this.until(
      async () =>
        Number(await this.attr('data-answered')) > before && (await this.attr('data-loading')) === 'false',
    );
    // The grid paints the answered block on its next frames.
    await this.page.waitForTimeout(100);
  }

  async columnValues(colId: string, n: number): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const cell = this.grid.locator(`.ag-row[row-index="${i}"] [col-id="${colId}"]`);
      await cell.waitFor();
      out.push(((await cell.textContent()) ?? '').trim());
    }
    return out;
  }

  async quickFilter(text: string): Promise<number> {
    const before = Number(await this.attr('data-answered'));
    await this.page.getByTestId('library-quick-filter').fill(text);
    await this.until(
      async () =>
        Number(await this.attr('data-answered')) > before && (await this.attr('data-loading')) === 'false',
    );
    return this.waitForRows();
  }

  async rename(name: string): Promise<void> {
    await this.page.getByTestId('library-rename-input').fill(name);
    await this.page.getByTestId('library-rename-save').click();
    await this.row(name).waitFor();
  }

  async setTags(tags: string): Promise<void> {
    await this.page.getByTestId('library-tags-input').fill(tags);
    await this.page.getByTestId('library-tags-save').click();
  }

  tagsOf(id: string): Locator {
    return this.page.getByTestId(`library-tags-${id}`);
  }

  async askDelete(id: string): Promise<Locator> {
    await this.page.getByTestId(`library-delete-${id}`).click();
    const box = this.page.getByTestId(`library-delete-confirm-box-${id}`);
    await box.waitFor();
    return box;
  }

  async confirmDelete(id: string): Promise<void> {
    await this.page.getByTestId(`library-delete-confirm-${id}`).click();
    await this.page.getByTestId(`library-row-${id}`).waitFor({ state: 'detached' });
  }
}
