import type { Locator, Page } from 'playwright-core';

/** Firms → the library's resolved firms, a firm's detail, merge and split, the review queue. */
export class ResolvedFirmsPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('firms-page');
  }

  async tab(name: 'firms' | 'review' | 'search'): Promise<void> {
    await this.page.getByTestId(`firms-tab-${name}`).click();
    await this.page.locator(`[data-testid="firms-page"][data-tab="${name}"]`).waitFor();
  }

  /** Waits until the list has answered (for the list key shown now) and returns its total. */
  async total(): Promise<number> {
    const t = this.page.locator('[data-testid="firms-total"]:not([data-total=""])');
    await t.waitFor({ timeout: 60_000 });
    await this.rows.first().waitFor({ timeout: 60_000 });
    return Number(await t.getAttribute('data-total'));
  }

  /** Waits until the list shows `n` firms. */
  async waitForTotal(n: number): Promise<void> {
    await this.page.locator(`[data-testid="firms-total"][data-total="${n}"]`).waitFor({ timeout: 60_000 });
  }

  get rows(): Locator {
    return this.page.getByTestId('firm-list').locator('.ag-row:has([col-id="name"])');
  }

  row(index: number): Locator {
    return this.page.getByTestId('firm-list').locator(`.ag-row[row-index="${index}"]:has([col-id="name"])`);
  }

  /** The firm of a row: its id, name and counts as the list shows them. */
  async firmAt(
    index: number,
  ): Promise<{ id: string; name: string; spellings: number; asImporter: number; asExporter: number }> {
    const row = this.row(index);
    await row.locator('[col-id="name"]').filter({ hasText: /\S/ }).waitFor();
    const num = async (col: string) =>
      Number(((await row.locator(`[col-id="${col}"]`).textContent()) ?? '').replace(/,/g, ''));
    return {
      id: (await row.getAttribute('row-id')) ?? '',
      name: ((await row.locator('[col-id="name"]').textContent()) ?? '').trim(),
      spellings: await num('spellings'),
      asImporter: await num('asImporter'),
      asExporter: await num('asExporter'),
    };
  }

  async search(text: string): Promise<void> {
    const box = this.page.getByTestId('firms-search');
    if ((await box.inputValue()) === text) return;
    const before = await this.page.getByTestId('firm-list').getAttribute('data-list-key');
    await box.fill(text);
    await this.page.getByTestId('firms-search').press('Enter');
    await this.page
      .locator(`[data-testid="firm-list"]:not([data-list-key="${before}"])`)
      .waitFor({ timeout: 30_000 });
  }

  async mergedOnly(on: boolean): Promise<void> {
    const box = this.page.getByTestId('firms-merged-only');
    if ((await box.isChecked()) === on) return;
    const before = await this.page.getByTestId('firm-list').getAttribute('data-list-key');
    await box.click();
    await this.page
      .locator(`[data-testid="firm-list"]:not([data-list-key="${before}"])`)
      .waitFor({ timeout: 30_000 });
  }

  /** Opens a row's firm and waits for its detail. */
  async open(index: number): Promise<Locator> {
    const { id } = await this.firmAt(index);
    await this.row(index).locator('[col-id="name"]').click();
    return this.waitForDetail(id);
  }

  async waitForDetail(firmId: string): Promise<Locator> {
    const d = this.page.locator(
      `[data-testid="firm-detail"][data-firm-id="${firmId}"][data-loading="false"]`,
    );
    await d.waitFor({ timeout: 60_000 });
    return d;
  }

  get detail(): Locator {
    return this.page.getByTestId('firm-detail');
  }

  async spellings(): Promise<string[]> {
    return this.detail
      .locator('[data-testid^="firm-spelling-name-"]')
      .evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
  }

  async tick(index: number): Promise<void> {
    await this.page
      .getByTestId('firm-list')
      .locator(`.ag-row[row-index="${index}"] input[type="checkbox"]`)
      .first()
      .check();
  }

  /** Ticks the row of a firm by its id (it must be drawn). */
  async tickFirm(firmId: string): Promise<void> {
    await this.page
      .getByTestId('firm-list')
      .locator(`.ag-row[row-id="${firmId}"] input[type="checkbox"]`)
      .first()
      .check();
  }

  /** Confirms the merge or split in its dialog and waits for the change to be said. */
  async confirm(): Promise<string> {
    const dialog = this.page.getByRole('dialog');
    await dialog.waitFor();
    await this.page.getByTestId('firms-confirm-ok').click();
    await dialog.waitFor({ state: 'hidden' });
    const bar = this.page.getByTestId('firms-last-change');
    await bar.waitFor();
    return (await bar.textContent()) ?? '';
  }
}
