import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobProgress } from '@shared/jobs/jobs-contract';
import { SHIPMENT_FIELDS } from '@shared/spec/records';
import type { AppShell } from './pages/app-shell';
import { ExportDialog } from './pages/export-dialog';
import { LibraryPage } from './pages/library-page';
import { SearchWorkbench } from './pages/search-workbench';
import { canFreezeLibrary, freezeLibrary, thawLibrary } from '../helpers/frozen-library';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import { startStack, type Stack } from './support/stack';

const RECORDS = 3_000;
const FETCHED = 2_000;

describe('Export from the library to Excel, through the browser host', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let library: LibraryPage;
  const progress: JobProgress[] = [];
  let stopListening: () => void = () => undefined;
  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    stack = await startStack({ records: RECORDS });
    stopListening = stack.host.events.listen((event, payload) => {
      if (event === 'jobs.progress') progress.push(payload as JobProgress);
    });
    browser = await launchBrowser();
    library = new LibraryPage(browser.page);
    shell = await openConnected(browser, stack);
    // A search lands in the library: that is the dataset exported below.
    await shell.navigate('search');
    const search = new SearchWorkbench(browser.page);
    await search.setSize(FETCHED);
    await search.run();
    expect(await search.shownAndTotal()).toEqual({ shown: FETCHED, total: RECORDS });
  }, 120_000);

  afterAll(async () => {
    stopListening();
    await browser?.close();
    await stack?.close().catch(() => undefined);
  });

  it('opens a dataset → Export → Excel → progress → a file that reads back with every row', async () => {
    await shell.navigate('library');
    await library.row('Shipments · all').waitFor();
    await library.open('Shipments · all');
    const dialog = new ExportDialog(browser.page, browser.page.getByTestId('library-detail'));
    await dialog.openDialog();
    await dialog.chooseFormat('xlsx');
    // An unfiltered grid: the Library's common need, the whole dataset, is what the dialog starts on.
    expect(await dialog.chosenScope()).toBe('dataset');
    expect(await dialog.rowsToExport()).toBe(FETCHED);
    // The browser host names the file only: where it keeps it is no place the analyst can open.
    expect(await dialog.chooseFile()).toBe('Shipments · all.xlsx');
    const chosen = join(stack.dataDir, 'exports', 'Shipments · all.xlsx');
    await browser.screenshot('export-dialog');
    // The finished file goes to the browser by itself, under its name.
    const autoDownload = await dialog.startAndDownload();
    expect(autoDownload.name).toBe('Shipments · all.xlsx');
    await dialog.waitForStep('done');
    const done = await dialog.outcome();
    expect(done.outcome, done.message).toBe('succeeded');
    expect(done.message).toContain(
      `Exported ${FETCHED.toLocaleString('en-US')} rows; your browser downloaded the file as Shipments · all.xlsx`,
    );
    expect(done.message).not.toContain(stack.dataDir);
    expect(done.path).toBeNull();
    expect(await readFile(autoDownload.path)).toEqual(await readFile(chosen));
    await browser.screenshot('export-done');

    // Progress reached the bridge's event stream with rows done against the total.
    const mine = progress.filter((p) => p.label.startsWith('Excel export'));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((p) => p.total === FETCHED && p.unit === 'rows')).toBe(true);

    expect(existsSync(chosen)).toBe(true);
    // The analyst's browser gets the file too, by its handle (the browser host's Download link).
    const downloaded = await dialog.download();
    expect(await readFile(downloaded)).toEqual(await readFile(chosen));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(chosen);
    const sheet = wb.getWorksheet('Shipments');
    expect(sheet?.rowCount).toBe(FETCHED + 1);
    const query = new Map<string, unknown>();
    wb.getWorksheet('Query')?.eachRow((row, n) => {
      if (n > 1) query.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(query.get('rows_exported')).toBe(FETCHED);
    expect(query.get('total_reported')).toBe(RECORDS);
    expect(query.get('profile')).toBe('Sim');
    expect(query.get('app_version')).toBe('0.0.0-e2e');
    // Every stored field was written, not just the columns the grid shows, and no view is claimed.
    const visible = Number(
      await browser.page.getByTestId('library-export-slot').getAttribute('data-view-columns'),
    );
    expect(visible).toBeLessThan(SHIPMENT_FIELDS.length);
    expect(sheet?.getRow(1).cellCount).toBe(SHIPMENT_FIELDS.length);
    expect(query.has('view_columns')).toBe(false);
    await dialog.close();
  });

  it('asks before replacing the file, and replaces it only when told to', async () => {
    const dialog = new ExportDialog(browser.page, browser.page.getByTestId('library-detail'));
    await dialog.openDialog();
    await dialog.chooseFormat('xlsx');
    await dialog.chooseFile();
    await dialog.start();
    await dialog.waitForStep('confirmReplace');
    expect(await browser.page.getByTestId('export-replace-question').textContent()).toMatch(/already exists/);
    await dialog.confirmReplace();
    await dialog.waitForStep('done');
    expect((await dialog.outcome()).outcome).toBe('succeeded');
    // Replaced in place: one file, no temp file left beside it.
    expect(await readdir(join(stack.dataDir, 'exports'))).toEqual(['Shipments · all.xlsx']);
    await dialog.close();
  });

  it.runIf(canFreezeLibrary)(
    'a folder that refuses the file: the failure offers Try again, which writes it once the folder lets it',
    async () => {
      const folder = join(stack.dataDir, 'exports');
      const dialog = new ExportDialog(browser.page, browser.page.getByTestId('library-detail'));
      await dialog.openDialog();
      await dialog.chooseFormat('parquet');
      freezeLibrary(folder);
      try {
        await dialog.start();
        await dialog.waitForStep('done');
        const failed = await dialog.outcome();
        expect(failed.outcome).toBe('failed');
        expect(failed.message).toContain('Portolan may not write to that folder');
        // The browser host has no other folder to offer: the words do not send the analyst to one either.
        expect(failed.message).not.toMatch(/another (folder|place)/);
        expect(failed.message).toMatch(/choose Try again\.$/);
        // What the system said is there for whoever helps, under the words, not in them.
        expect(failed.detail).toMatch(/^The system said: .+/);
        // Try again has the focus: Enter runs it.
        const again = browser.page.getByTestId('export-try-again');
        await expect.poll(() => again.evaluate((b) => b === b.ownerDocument.activeElement)).toBe(true);
        expect(await browser.page.getByTestId('export-another-folder').count()).toBe(0);
        await browser.screenshot('export-failed-try-again');
        thawLibrary(folder);
        await browser.page.keyboard.press('Enter');
        await browser.page
          .locator('[data-testid="export-done"][data-outcome="succeeded"]')
          .waitFor({ timeout: 60_000 });
      } finally {
        thawLibrary(folder);
      }
      expect(existsSync(join(folder, 'Shipments · all.parquet'))).toBe(true);
      await dialog.close();
    },
  );

  it('keyboard: Enter on a format (a radio button) exports, as the Export button does', async () => {
    const dialog = new ExportDialog(browser.page, browser.page.getByTestId('library-detail'));
    await dialog.openDialog();
    const csv = browser.page.getByTestId('export-format-csv');
    await csv.check();
    await csv.focus();
    await browser.page.keyboard.press('Enter');
    await dialog.waitForStep('done');
    const done = await dialog.outcome();
    expect(done.outcome, done.message).toBe('succeeded');
    expect(done.message).toContain('Shipments · all.csv');
    expect(existsSync(join(stack.dataDir, 'exports', 'Shipments · all.csv'))).toBe(true);
    await dialog.close();
  });
});
