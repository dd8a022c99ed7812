import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { describeOverlaps, overlaps, visibleControls } from '../support/layout';
import { ARTIFACTS_DIR } from '../support/paths';

/** The window sizes the dialog is looked at in. */
export const DIALOG_SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

/**
 * Library → a file dropped on the page (or picked with Import a file…) → the import dialog: the
 * mapping of the file's columns onto fields, the locale, what would not import as it is, progress.
 */
export class ImportDialog {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('import-dialog');
  }

  /**
   * Drops a file on the Library page as a file manager would: dragenter, dragover and drop carrying it.
   * The page is built in the browser (this file is compiled without the DOM's names).
   */
  async drop(fileName: string, content: string | Buffer, type = 'text/csv'): Promise<void> {
    const target = this.page.getByTestId('library-page');
    // Bytes (a workbook, text in another encoding) cross into the page as numbers.
    const text = typeof content === 'string' ? content : null;
    const bytes = typeof content === 'string' ? null : [...content];
    const transfer = await this.page.evaluateHandle(
      ({ fileName, text, bytes, type }) => {
        const dom = globalThis as unknown as {
          DataTransfer: new () => { items: { add(f: unknown): void } };
          File: new (parts: unknown[], name: string, opts: { type: string }) => unknown;
          Uint8Array: new (values: number[]) => unknown;
        };
        const dt = new dom.DataTransfer();
        dt.items.add(new dom.File([text ?? new dom.Uint8Array(bytes ?? [])], fileName, { type }));
        return dt;
      },
      { fileName, text, bytes, type },
    );
    for (const event of ['dragenter', 'dragover', 'drop'])
      await target.dispatchEvent(event, { dataTransfer: transfer });
  }

  /** Waits until the mapping is shown and no new preview is on its way. */
  async waitForMapping(): Promise<void> {
    // The dialog's root is a portal wrapper without a box of its own: attached, not "visible".
    await this.page
      .locator('[data-testid="import-dialog"][data-phase="mapping"]')
      .waitFor({ state: 'attached' });
    await this.page.getByTestId('import-mapping').waitFor();
    const form = this.page.getByTestId('import-form');
    const end = Date.now() + 15_000;
    while ((await form.getAttribute('data-checking')) !== 'false') {
      if (Date.now() > end) throw new Error('the import preview did not answer in time');
      await this.page.waitForTimeout(25);
    }
  }

  /** The row of the file's column with this header. */
  column(header: string): Locator {
    return this.page.locator(`[data-testid^="import-column-"][data-header="${header}"]`);
  }

  /** The headers of the columns the mapping lists, in file order. */
  async headers(): Promise<string[]> {
    const rows = this.page.locator('[data-testid^="import-column-"][data-header]');
    return (await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-header')))).map(String);
  }

  async fieldOf(header: string): Promise<string> {
    return (
      (await this.column(header).locator('[data-testid^="import-field-"]').getAttribute('data-field')) ?? ''
    );
  }

  async samplesOf(header: string): Promise<string> {
    return (
      (await this.column(header).locator('[data-testid^="import-samples-"]').textContent()) ?? ''
    ).trim();
  }

  /** Picks the field a column becomes, typing its title into the searchable list as a user does. */
  async mapColumn(header: string, fieldTitle: string): Promise<void> {
    const input = this.column(header).locator('[data-testid^="import-field-"]');
    await input.click();
    await input.fill(fieldTitle);
    await this.page.getByRole('option', { name: fieldTitle, exact: true }).click();
    await this.waitForMapping();
  }

  async setDecimalComma(): Promise<void> {
    await this.page.getByTestId('import-decimal').getByText('1.234,56').click();
    await this.waitForMapping();
  }

  /** The whole-file check's line: its state (checking, done, failed), rows checked and what it says. */
  async wholeFileCheck(): Promise<{ state: string; rows: number; text: string }> {
    const line = this.page.getByTestId('import-check');
    return {
      state: (await line.getAttribute('data-state')) ?? '',
      rows: Number(await line.getAttribute('data-rows-checked')),
      text: ((await this.page.getByTestId('import-check-status').textContent()) ?? '').trim(),
    };
  }

  /** Waits until the whole file has been checked under the plan shown. */
  async waitForWholeFileChecked(timeout = 30_000): Promise<void> {
    await this.page.locator('[data-testid="import-check"][data-state="done"]').waitFor({ timeout });
  }

  async issues(): Promise<string[]> {
    return (await this.page.getByTestId('import-issue').allTextContents()).map((t) => t.trim());
  }

  /**
   * The dialog as it stands, in light and dark at each size: a screenshot to look at
   * (`layout-import-<name>-<w>x<h>-<scheme>.png`), no control over another, the primary action on
   * screen; `check` adds what a test looks for at each. Back to light at 1440×900 after.
   */
  async lookAt(
    name: string,
    check: (size: { width: number; height: number }) => Promise<void> = async () => undefined,
  ): Promise<void> {
    for (const colorScheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme });
      for (const size of DIALOG_SIZES) {
        await this.page.setViewportSize(size);
        await this.page.mouse.move(1, 1);
        await this.page.waitForTimeout(300);
        await this.page.screenshot({
          path: join(ARTIFACTS_DIR, `layout-import-${name}-${size.width}x${size.height}-${colorScheme}.png`),
        });
        expect(describeOverlaps(overlaps(await visibleControls(this.page)))).toBe('');
        const confirm = (await this.page.getByTestId('import-confirm').boundingBox())!;
        expect(confirm.y + confirm.height).toBeLessThanOrEqual(size.height);
        // Nothing lies over it either: not the toast of the import before, which the overlap check
        // (controls against controls) does not count.
        const onTop = await this.page.getByTestId('import-confirm').evaluate((el) => {
          const r = el.getBoundingClientRect();
          const hit = el.ownerDocument.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return hit !== null && el.contains(hit);
        });
        expect(onTop, `something lies over Import at ${size.width}×${size.height}`).toBe(true);
        await check(size);
      }
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
    await this.page.setViewportSize({ width: 1440, height: 900 });
  }

  async confirm(): Promise<void> {
    await this.page.getByTestId('import-confirm').click();
  }
}
