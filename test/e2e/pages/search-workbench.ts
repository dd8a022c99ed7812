import type { Locator, Page } from 'playwright-core';
import { AgGrid } from './ag-grid';

/** Search → the filter form, presets, the size chooser and the shipment grid, as a user works them. */
export class SearchWorkbench {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('search-page');
  }

  field(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  fieldError(field: string): Locator {
    return this.page.getByTestId(`filter-${field}-error`);
  }

  async pickCountry(
    field: 'importer_countries' | 'exporter_countries',
    query: string,
    code: string,
  ): Promise<void> {
    const input = this.page.getByTestId(`filter-${field}-input`);
    await input.click();
    await input.fill(query);
    await this.page.getByTestId(`filter-${field}-option-${code}`).click();
  }

  async pickHsByDescription(query: string, code: string): Promise<void> {
    const input = this.page.getByTestId('filter-hs_codes-input');
    await input.click();
    await input.fill(query);
    await this.page.getByTestId(`filter-hs_codes-option-${code}`).click();
  }

  async typeHsCode(code: string): Promise<void> {
    const input = this.page.getByTestId('filter-hs_codes-input');
    await input.fill(code);
    await input.press('Enter');
  }

  async removeTag(field: string, index: number): Promise<void> {
    await this.page.getByTestId(`filter-${field}-remove-${index}`).click();
  }

  async tags(field: string): Promise<string[]> {
    return this.page
      .locator(`[data-testid^="filter-${field}-tag-"]`)
      .evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
  }

  async setDates(start: string, end: string): Promise<void> {
    await this.page.getByTestId('filter-start_date-input').fill(start);
    await this.page.getByTestId('filter-end_date-input').fill(end);
  }

  async clearFilter(): Promise<void> {
    await this.page.getByTestId('filter-reset').click();
  }

  // Presets
  preset(name: string): Locator {
    return this.page.locator(`[data-testid^="preset-"][data-preset-name="${name}"]`);
  }

  async savePreset(name: string): Promise<void> {
    await this.page.getByTestId('preset-name-input').fill(name);
    await this.page.getByTestId('preset-save').click();
    await this.preset(name).waitFor();
  }

  /** Chooses an action from a preset's row menu (rename, duplicate, up, down, delete). */
  async presetAction(name: string, action: 'rename' | 'duplicate' | 'up' | 'down' | 'delete'): Promise<void> {
    const row = this.preset(name);
    await row.getByTestId(/-menu$/).click();
    await row.getByTestId(new RegExp(`^preset-\\d+-${action}$`)).click();
  }

  async loadPreset(name: string): Promise<void> {
    await this.preset(name).locator('[data-testid$="-load"]').click();
  }

  async presetNames(): Promise<string[]> {
    return this.page
      .getByTestId('presets-list')
      .locator('li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-preset-name') ?? ''));
  }

  // Running
  get runButton(): Locator {
    return this.page.getByTestId('search-run');
  }

  get runReason(): Locator {
    return this.page.getByTestId('search-run-reason');
  }

  get costText(): Locator {
    return this.page.getByTestId('search-cost-text');
  }

  async setSize(n: number): Promise<void> {
    await this.page.getByTestId('search-size-input').fill(String(n));
  }

  /** Clicks Search and waits for the result summary or an error. */
  async run(): Promise<void> {
    await this.runButton.click();
    await this.page
      .locator('[data-testid="search-summary"], [data-testid="search-error"]')
      .first()
      .waitFor({ timeout: 60_000 });
  }

  get summary(): Locator {
    return this.page.getByTestId('search-summary');
  }

  async shownAndTotal(): Promise<{ shown: number; total: number }> {
    return {
      shown: Number(await this.summary.getAttribute('data-shown')),
      total: Number(await this.summary.getAttribute('data-total')),
    };
  }

  get grid(): Locator {
    return this.page.getByTestId('shipments-grid');
  }

  /** Clicks a header and waits for the library's answer to the new sort. */
  async sortBy(colId: string): Promise<void> {
    await this.table.sortBy(colId);
  }

  /** Text of a column for the first `n` rows in display order. */
  async columnValues(colId: string, n: number): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const cell = this.grid.locator(`.ag-row[row-index="${i}"] [col-id="${colId}"]`);
      out.push(((await cell.textContent()) ?? '').trim());
    }
    return out;
  }

  /** The shipment grid with header, resize, drag, filter and scrolling helpers. */
  get table(): AgGrid {
    return new AgGrid(this.page, this.grid);
  }

  /**
   * Runs the search and, when the library offers a saved copy of the same question, fetches again
   * anyway, so the grid shows a fresh answer either way. Waits for the grid's rows.
   */
  async runFresh(): Promise<void> {
    const page = this.page.getByTestId('search-page');
    const answers = async () => Number(await page.getAttribute('data-answers'));
    const before = await answers();
    await this.runButton.click();
    // The offer, when it comes, follows a short "Searching…" while the library is asked: keep
    // declining it until the service's own answer has arrived.
    const refetch = this.page.getByTestId('search-saved-offer-refetch');
    const deadline = Date.now() + 60_000;
    while ((await answers()) === before) {
      if (Date.now() > deadline) throw new Error('the search gave no answer within 60 s');
      if (await refetch.isVisible()) await refetch.click();
      await this.page.waitForTimeout(25);
    }
    await this.page.locator('[data-testid="search-summary"], [data-testid="search-error"]').first().waitFor();
    await this.answerRows();
  }

  /**
   * Waits for the first row of the answer the grid shows: a new answer's rows take the place of the
   * last one's in the same grid, each row's id naming its dataset (a grid of kept records has none).
   */
  async answerRows(): Promise<void> {
    const datasetId = await this.grid.first().getAttribute('data-dataset-id');
    const row = datasetId ? `.ag-row[row-index="0"][row-id^="${datasetId}:"]` : '.ag-row[row-index="0"]';
    await this.grid.locator(row).first().waitFor();
  }

  // An answer the library could not store
  get saveFailed(): Locator {
    return this.page.getByTestId('search-save-failed');
  }

  get saveAgainButton(): Locator {
    return this.page.getByTestId('search-save-again');
  }

  get saveFailedError(): Locator {
    return this.page.getByTestId('search-save-failed-error');
  }

  /** Shows the kept records from memory and waits for their first row. */
  async showKeptRecords(): Promise<void> {
    await this.page.getByTestId('search-show-kept').click();
    await this.page.locator('[data-testid="search-save-failed"][data-shown="yes"]').waitFor();
    await this.grid.locator('.ag-row[row-index="0"]').first().waitFor();
  }

  // Column chooser
  get chooser(): Locator {
    return this.page.getByTestId('shipments-columns');
  }

  async openChooser(): Promise<Locator> {
    if (!(await this.chooser.isVisible())) await this.page.getByTestId('shipments-columns-toggle').click();
    await this.chooser.waitFor();
    return this.chooser;
  }

  async closeChooser(): Promise<void> {
    if (await this.chooser.isVisible()) await this.page.getByTestId('shipments-columns-toggle').click();
    await this.chooser.waitFor({ state: 'detached' });
  }

  async setColumnVisible(colId: string, visible: boolean): Promise<void> {
    await (await this.openChooser()).getByTestId(`shipments-columns-col-${colId}`).setChecked(visible);
  }

  async setGroupVisible(groupId: string, visible: boolean): Promise<void> {
    await (
      await this.openChooser()
    )
      .getByTestId(`shipments-columns-${visible ? 'all' : 'none'}-${groupId}`)
      .click();
  }

  async pin(colId: string, side: 'left' | 'right' | ''): Promise<void> {
    await (await this.openChooser()).getByTestId(`shipments-columns-pin-${colId}`).selectOption(side);
  }

  get quickFilter(): Locator {
    return this.page.getByTestId('search-quick-filter');
  }

  async openParties(rowIndex: number): Promise<Locator> {
    await this.page.getByTestId(`shipment-parties-${rowIndex}`).click();
    const panel = this.page.getByTestId('party-panel');
    await panel.waitFor();
    return panel;
  }
}
