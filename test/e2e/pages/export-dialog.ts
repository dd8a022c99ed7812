import type { Locator, Page } from 'playwright-core';

export type ExportFormatName = 'xlsx' | 'csv' | 'parquet';

/** The Export… button and its dialog (features/export/export-button.tsx), wherever it is embedded. */
export class ExportDialog {
  constructor(
    readonly page: Page,
    /** The element the button sits in (e.g. the library's detail section). */
    readonly scope: Locator = page.locator('body'),
  ) {}

  get dialog(): Locator {
    return this.page.getByTestId('export-dialog');
  }

  async openDialog(): Promise<void> {
    await this.scope.getByTestId('export-open').click();
    await this.dialog.waitFor();
  }

  async chooseFormat(format: ExportFormatName): Promise<void> {
    await this.page.getByTestId(`export-format-${format}`).check();
  }

  /** "This view" or "Whole dataset", when the dialog offers the choice (it does when the caller has a view). */
  async chooseScope(scope: 'view' | 'dataset'): Promise<void> {
    await this.page.getByTestId(`export-scope-${scope}`).check();
  }

  /** The choice the dialog shows now: view, dataset, or null when it offers none. */
  async chosenScope(): Promise<string | null> {
    const box = this.page.getByTestId('export-scope');
    return (await box.count()) > 0 ? box.getAttribute('data-scope') : null;
  }

  /** What the dialog says it will export: its row count, or null while it has none. */
  async rowsToExport(): Promise<number | null> {
    const text = await this.page.getByTestId('export-row-count').getAttribute('data-rows');
    return text === null || text === '' ? null : Number(text);
  }

  /**
   * Asks main for a target; the name the dialog shows. The browser host writes it under
   * `<dataDir>/exports` and shows the file's name only (its path there means nothing to the analyst).
   */
  async chooseFile(): Promise<string> {
    await this.page.getByTestId('export-choose').click();
    const path = this.page.getByTestId('export-path');
    await path.filter({ hasNotText: 'No file chosen' }).waitFor();
    return (await path.textContent()) ?? '';
  }

  async start(): Promise<void> {
    await this.page.getByTestId('export-start').click();
  }

  /** Which step the dialog shows: form, confirmReplace, running or done. */
  async step(): Promise<string | null> {
    return this.dialog.getAttribute('data-step');
  }

  async waitForStep(step: 'confirmReplace' | 'running' | 'done', timeoutMs = 60_000): Promise<void> {
    await this.page
      .locator(`[data-testid="export-dialog"][data-step="${step}"]`)
      .waitFor({ timeout: timeoutMs });
  }

  /** How it ended: the message in words, and the system's own text shown small under it (or null). */
  async outcome(): Promise<{
    outcome: string | null;
    message: string;
    detail: string | null;
    path: string | null;
  }> {
    const done = this.page.getByTestId('export-done');
    const path = this.page.getByTestId('export-done-path');
    const detail = done.getByTestId('system-detail');
    return {
      outcome: await done.getAttribute('data-outcome'),
      message: (await done.getByTestId('export-message').textContent()) ?? '',
      detail: (await detail.count()) > 0 ? await detail.textContent() : null,
      path: (await path.count()) > 0 ? await path.textContent() : null,
    };
  }

  async confirmReplace(): Promise<void> {
    await this.page.getByTestId('export-replace-yes').click();
  }

  /** Starts the export; the download the browser gets when it has finished: its file name and local path. */
  async startAndDownload(): Promise<{ name: string; path: string }> {
    const [file] = await Promise.all([this.page.waitForEvent('download', { timeout: 60_000 }), this.start()]);
    const path = await file.path();
    if (!path) throw new Error(`the download failed: ${await file.failure()}`);
    return { name: file.suggestedFilename(), path };
  }

  /** Browser host: saves the finished file again through the dialog's Download link; its local path. */
  async download(): Promise<string> {
    const [file] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId('export-download').click(),
    ]);
    const path = await file.path();
    if (!path) throw new Error(`the download failed: ${await file.failure()}`);
    return path;
  }

  async close(): Promise<void> {
    await this.page.getByTestId('export-close').click();
    await this.dialog.waitFor({ state: 'detached' });
  }
}
