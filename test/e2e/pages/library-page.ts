import type { Locator, Page } from 'playwright-core';
import { AgGrid } from './ag-grid';

/**
 * Library → the dataset list (one entry per query, its fetches as versions) beside the open dataset:
 * its collapsible header (name, tags, notes, history, export) and its infinite-model grid.
 */
export class LibraryPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('library-page');
  }

  get list(): Locator {
    return this.page.getByTestId('library-list');
  }

  /** The list entry of the dataset with this name. */
  row(name: string): Locator {
    return this.page.locator(`li[data-testid^="library-row-"][data-name="${name}"]`);
  }

  rows(): Locator {
    return this.page.locator('li[data-testid^="library-row-"]');
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

  /** The open dataset's grid worked as a user works it: selection, copy, record view. */
  get table(): AgGrid {
    return new AgGrid(this.page, this.grid);
  }

  /** Opens row `rowIndex` in the record view by double-click and reads its hashId; Escape closes it. */
  async hashOfRow(rowIndex: number, colId = 'importerName'): Promise<string> {
    await this.table.cell(rowIndex, colId).dblclick();
    const view = await this.table.recordView();
    await view.waitFor();
    const groups = await this.table.recordGroups();
    const hash = groups.map((g) => g.fields.hashId).find((h) => h !== undefined) ?? '';
    await this.page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    return hash;
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
    await this.table.sortBy(colId);
  }

  /** Shows or hides a column from the grid's column chooser, and closes the chooser. */
  async setColumnVisible(colId: string, visible: boolean): Promise<void> {
    const chooser = this.page.getByTestId('library-columns');
    if (!(await chooser.isVisible())) await this.page.getByTestId('library-columns-toggle').click();
    await chooser.getByTestId(`library-columns-col-${colId}`).setChecked(visible);
    await this.page.getByTestId('library-columns-toggle').click();
    await chooser.waitFor({ state: 'detached' });
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

  /** The open dataset's Watch button: `ready`, `refused` (with its reason) or `watched`. */
  get watchButton(): Locator {
    return this.page.getByTestId('library-watch');
  }

  /** Watches the open dataset from its header and waits for the Watched page to show it. */
  async watch(): Promise<void> {
    await this.page.locator('[data-testid="library-watch"][data-state="ready"]').click();
    await this.page.getByTestId('watched-page').waitFor();
    await this.page.getByTestId('watch-snapshot-row').first().waitFor();
  }

  /** Opens the header's name, tags and notes when they are folded away. */
  async editHeader(): Promise<void> {
    const toggle = this.page.getByTestId('library-header-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await this.page.getByTestId('library-rename-input').waitFor();
  }

  async rename(name: string): Promise<void> {
    await this.editHeader();
    await this.page.getByTestId('library-rename-input').fill(name);
    await this.page.getByTestId('library-rename-save').click();
    await this.row(name).waitFor();
  }

  async setTags(tags: string): Promise<void> {
    await this.editHeader();
    await this.page.getByTestId('library-tags-input').fill(tags);
    await this.page.getByTestId('library-tags-save').click();
  }

  tagsOf(id: string): Locator {
    return this.page.getByTestId(`library-tags-${id}`);
  }

  async askDelete(id: string): Promise<Locator> {
    await this.page.getByTestId(`library-menu-${id}`).click();
    await this.page.getByTestId(`library-delete-${id}`).click();
    // The dialog's root is a portal wrapper with no box of its own: its buttons show that it is open.
    const box = this.page.getByTestId(`library-delete-confirm-box-${id}`);
    await box.getByTestId(`library-delete-cancel-${id}`).waitFor();
    return box;
  }

  async confirmDelete(id: string): Promise<void> {
    await this.page.getByTestId(`library-delete-confirm-${id}`).click();
    await this.page.getByTestId(`library-row-${id}`).waitFor({ state: 'detached' });
  }
}
