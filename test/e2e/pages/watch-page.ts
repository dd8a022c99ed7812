import type { Locator, Page } from 'playwright-core';

/** The Watched queries page: the list of watches, a watch's snapshots, the refresh dialog, what changed. */
export class WatchPage {
  constructor(readonly page: Page) {}

  get dialog(): Locator {
    return this.page.getByTestId('watch-refresh-dialog');
  }

  /** Starts watching a saved preset: checks the cost and leaves the dialog open on it. */
  async watchPreset(name: string): Promise<void> {
    const select = this.page.getByTestId('watch-preset');
    const option = select.locator('option', { hasText: name });
    await option.waitFor({ state: 'attached', timeout: 5000 }).catch(async () => {
      throw new Error(`no preset "${name}" among: ${await select.innerText()}`);
    });
    await select.selectOption((await option.getAttribute('value')) ?? '');
    const start = this.page.getByTestId('watch-preset-start');
    await start.and(this.page.locator(':enabled')).waitFor();
    await start.click();
    await this.costOrError();
  }

  /** After the palette's "Refresh …" entry: the page is shown with the refresh's cost. */
  async refreshStartedElsewhere(): Promise<void> {
    await this.page.getByTestId('watch-refresh').waitFor();
    await this.costOrError();
  }

  /** Waits for the dialog's cost; a refusal fails with its message. */
  private async costOrError(): Promise<void> {
    const cost = this.page.getByTestId('watch-refresh-cost');
    const error = this.page.getByTestId('watch-refresh-error');
    await cost.or(error).first().waitFor();
    if (await error.isVisible()) throw new Error(`refresh refused: ${await error.innerText()}`);
  }

  /** The downloads the open dialog says the refresh costs. */
  async previewedDownloads(): Promise<number> {
    const text = (await this.page.getByTestId('watch-refresh-cost').innerText()).replace(/,/g, '');
    return Number(/costs (?:at least )?(\d+) download/.exec(text)?.[1] ?? NaN);
  }

  /** Confirms with Enter (the dialog's primary action) and waits for it to close. */
  async confirmWithEnter(): Promise<void> {
    await this.page.getByTestId('watch-refresh-confirm').and(this.page.locator(':focus')).waitFor();
    await this.page.keyboard.press('Enter');
    // The dialog's root is a portal wrapper without a box of its own ("hidden" at once): its confirm
    // button is what goes when the snapshot is taken.
    await this.page.getByTestId('watch-refresh-confirm').waitFor({ state: 'detached', timeout: 60_000 });
  }

  /** The snapshots table's cells, newest first, once it lists `count` snapshots. */
  async snapshotRows(count: number): Promise<string[][]> {
    const rows = this.page.getByTestId('watch-snapshot-row');
    await rows.nth(count - 1).waitFor();
    const out: string[][] = [];
    for (const row of await rows.all()) out.push(await row.locator('td').allInnerTexts());
    return out;
  }

  async changesSummary(): Promise<string> {
    const s = this.page.getByTestId('watch-changes-summary');
    await s.waitFor();
    return s.innerText();
  }
}
