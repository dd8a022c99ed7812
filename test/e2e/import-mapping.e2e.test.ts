import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { AgGrid } from './pages/ag-grid';
import { ExportDialog } from './pages/export-dialog';
import { useImportOnDemo } from './support/import-on-demo';

/** A customs desk's CSV: its own headers, day-first dates, decimal commas, a date that does not exist. */
const DESK_CSV = [
  'Shipment Date,Consignee,Cargo Value,HS,Vessel Ref',
  '31.12.2025,Acme Steel,"1.234,50",720810,MSC Anna/12',
  '05.01.2026,Beta Metals,"900,00",720811,Maersk Bo/3',
  '32.01.2026,Gamma Trading,"12,3,4",720812,MSC Anna/14',
  '06.01.2026,Delta Ltd,"7,5",720813,Ever Given/1',
].join('\n');

/** `df.to_csv()` of pandas: the frame's index in a first column without a name. */
const PANDAS_CSV = [
  ',Importer Name,HS Code,USD FOB,Arrival Date',
  '0,Acme Steel,7208.10.00,"$12.50",45658',
  '1,Beta Metals,7208.11.00,"$900.00",45659',
  '2,Gamma Trading,7208.12.00,"$7.50",45660',
  '',
  'Source: customs declarations, 2025',
  'Note: values FOB, in US dollars',
].join('\n');

/** A long CSV whose trouble sits far below the rows a preview reads: day-first dates, one impossible. */
function longCsv(rows: number): string {
  const lines = ['Shipment Date,Consignee,HS'];
  for (let i = 1; i <= rows; i++) {
    const day = i === 2_500 || i === 19_000 ? '32.01.2026' : '31.12.2025';
    lines.push(`${day},Firm ${i},${i === 12_000 ? '30110' : '720810'}`);
  }
  return lines.join('\n');
}

describe('Import a file from another tool: map its columns, see what would not import, use its extra columns', () => {
  const app = useImportOnDemo();

  it('drops a CSV, maps a column, reads which rows would not import and why, imports with progress', async () => {
    const { browser, shell, library, dialog } = app;
    await shell.navigate('library');
    await library.root.waitFor();
    const page = browser.page;
    const names = await library.rowNames();

    // Picked with Import a file…: Escape closes the mapping without importing, the focus back on the button.
    const importButton = page.getByTestId('library-import-button');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), importButton.click()]);
    await chooser.setFiles({ name: 'customs desk.csv', mimeType: 'text/csv', buffer: Buffer.from(DESK_CSV) });
    await dialog.waitForMapping();
    await page.keyboard.press('Escape');
    await page.getByTestId('import-form').waitFor({ state: 'detached' });
    await importButton.and(page.locator(':focus')).waitFor({ timeout: 5_000 });
    expect(await library.rowNames()).toEqual(names);

    await dialog.drop('customs desk.csv', DESK_CSV);
    await dialog.waitForMapping();

    // Guessed by header and alias: the date, the consignee, the HS code; the rest kept as extras.
    expect(await dialog.fieldOf('Shipment Date')).toBe('arrivalDate');
    expect(await dialog.fieldOf('Consignee')).toBe('importerName');
    expect(await dialog.fieldOf('HS')).toBe('hsCode');
    expect(await dialog.fieldOf('Cargo Value')).toBe('');
    expect(await dialog.fieldOf('Vessel Ref')).toBe('');
    // 31.12.2025 proves day-first: the dates are read so, as they will be stored.
    expect(await dialog.samplesOf('Shipment Date')).toMatch(/^2025-12-31 · 2026-01-05 · 32\.01\.2026/);

    // The analyst says which field "Cargo Value" is, and that its numbers have decimal commas.
    await dialog.mapColumn('Cargo Value', 'USD FOB');
    expect(await dialog.fieldOf('Cargo Value')).toBe('usdFob');
    await dialog.setDecimalComma();
    expect(await dialog.samplesOf('Cargo Value')).toMatch(/^1234\.50 · 900\.00 · 12,3,4 · 7\.5/);

    // What would not import as it is: in the form's words, with the row it is in.
    const issues = await dialog.issues();
    expect(issues).toHaveLength(2);
    expect(issues.find((t) => t.startsWith('Arrival Date:'))).toMatch(
      /^Arrival Date: 1 value is not a date written as yyyy-MM-dd \(first: row 4, "32\.01\.2026"\).*Row 4\.$/,
    );
    expect(issues.find((t) => t.startsWith('USD FOB:'))).toMatch(/not a plain number .*Row 4\.$/);
    expect(issues.join(' ')).not.toMatch(/arrivalDate|usdFob/);
    expect(await browser.page.getByTestId('import-reason').textContent()).toMatch(
      /^1 column is kept as extra column/,
    );
    await dialog.lookAt('dialog', async () => {
      // "Records" is labelled as "Header row" is: the label above its choice, not beside it.
      const kindLabel = browser.page.locator('.mantine-InputWrapper-label', { hasText: /^Records$/ });
      const labelBox = (await kindLabel.boundingBox())!;
      const kindBox = (await browser.page.getByTestId('import-kind').boundingBox())!;
      expect(labelBox.y + labelBox.height).toBeLessThanOrEqual(kindBox.y + 1);
    });

    await browser.page.getByTestId('import-name').fill('Customs desk, January');
    await dialog.confirm();
    // The dataset opens when every row is in; the page says what came in and what did not as it was.
    await browser.page.getByTestId('library-detail').waitFor();
    expect(await browser.page.getByTestId('library-detail-name').textContent()).toBe('Customs desk, January');
    expect(await browser.page.getByTestId('library-import-status').textContent()).toBe(
      'Imported 4 rows from customs desk.csv',
    );
    expect(await browser.page.getByTestId('library-import-warnings').textContent()).toMatch(
      /Arrival Date: 1 value/,
    );
    expect(await library.waitForRows()).toBe(4);
  });

  it('shows the extra column in the grid, filters it in the library, and exports it under its header', async () => {
    const { stack, browser, library } = app;
    const grid = new AgGrid(browser.page, library.grid);
    const extra = 'extra:Vessel Ref';
    await grid.header(extra).scrollIntoViewIfNeeded();
    expect(await library.columnValues(extra, 4)).toEqual([
      'MSC Anna/12',
      'Maersk Bo/3',
      'MSC Anna/14',
      'Ever Given/1',
    ]);

    const popup = await grid.openFilter(extra);
    await grid.chooseCondition(popup, 'Begins with');
    await popup.locator('input.ag-input-field-input').first().fill('msc');
    await popup.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => library.grid.getAttribute('data-last-row')).toBe('2');
    await library.waitForRows();
    expect(await library.columnValues(extra, 2)).toEqual(['MSC Anna/12', 'MSC Anna/14']);
    expect(await library.columnValues('importerName', 2)).toEqual(['Acme Steel', 'Gamma Trading']);
    await browser.screenshot('library-extra-column-filtered');

    // Export the view as CSV and read it back: the extra column under its header, the missing fields empty.
    const exportDialog = new ExportDialog(browser.page, browser.page.getByTestId('library-detail'));
    await exportDialog.openDialog();
    await exportDialog.chooseFormat('csv');
    await exportDialog.chooseScope('view');
    const path = join(stack.dataDir, 'exports', await exportDialog.chooseFile());
    await exportDialog.start();
    await exportDialog.waitForStep('done');
    expect((await exportDialog.outcome()).outcome).toBe('succeeded');
    await exportDialog.close();
    const parsed = Papa.parse<Record<string, string>>((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.meta.fields).toContain('Vessel Ref');
    expect(parsed.data.map((r) => [r.importerName, r.usdFob, r.arrivalDate, r['Vessel Ref']])).toEqual([
      ['Acme Steel', '1234.50', '2025-12-31', 'MSC Anna/12'],
      ['Gamma Trading', '12,3,4', '32.01.2026', 'MSC Anna/14'],
    ]);
    expect(browser.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
  it('checks the whole file before anything is stored: counts over every row, with the rows they are in', async () => {
    const { browser, shell, library, dialog } = app;
    const page = browser.page;
    await shell.navigate('library');
    await library.root.waitFor();
    const names = await library.rowNames();
    await dialog.drop('long desk.csv', longCsv(20_000));
    await dialog.waitForMapping();
    // The preview's rows hold nothing odd; the whole file does.
    await dialog.waitForWholeFileChecked();
    expect(await dialog.wholeFileCheck()).toEqual({
      state: 'done',
      rows: 20_000,
      text: 'Whole file checked: 20,000 rows.',
    });
    expect(await page.getByTestId('import-issues').getAttribute('data-scope')).toBe('file');
    const issues = await dialog.issues();
    expect(issues).toHaveLength(2);
    expect(issues.find((t) => t.startsWith('Arrival Date:'))).toMatch(
      /^Arrival Date: 2 values are not dates written as yyyy-MM-dd \(first: row 2501, "32\.01\.2026"\).*Rows 2501, 19001\.$/,
    );
    expect(issues.find((t) => t.startsWith('HS Code:'))).toMatch(
      /^HS Code: 1 code lost its leading zero in a spreadsheet.*stored with it \(030110\).*Row 12001\.$/,
    );
    await dialog.lookAt('whole-file');

    // Another field for a column: checked again under the new mapping.
    await dialog.mapColumn('HS', 'Vessel Name');
    await dialog.waitForWholeFileChecked();
    expect((await dialog.issues()).map((t) => t.split(':')[0])).toEqual(['Arrival Date']);

    // Closed without importing: nothing stored.
    await page.keyboard.press('Escape');
    await page.getByTestId('import-form').waitFor({ state: 'detached' });
    expect(await library.rowNames()).toEqual(names);
    expect(browser.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it('leaves out the row index a pandas CSV carries, says so, and imports the rows without it', async () => {
    const { browser, shell, library, dialog } = app;
    const page = browser.page;
    await shell.navigate('library');
    await library.root.waitFor();
    await dialog.drop('pandas export.csv', PANDAS_CSV);
    await dialog.waitForMapping();
    const index = dialog.column('Column A').locator('[data-testid^="import-field-"]');
    expect(await index.getAttribute('data-left-out')).toBe('true');
    expect(await index.textContent()).toBe('Leave out (not imported)');
    expect(await dialog.samplesOf('Column A')).toBe('0 · 1 · 2');
    expect(await page.getByTestId('import-notice').allTextContents()).toEqual([
      expect.stringMatching(/^Column A has no name in the header and holds only row numbers/),
    ]);
    expect(await page.getByTestId('import-reason').textContent()).toBe('1 column is left out.');
    // What changes on the way in is listed; the foot of the dialog stays in view under it.
    expect((await dialog.issues()).map((t) => t.split(':')[0])).toEqual([
      'HS Code',
      'USD FOB',
      'Arrival Date',
      '2 lines of text below the table are notes, not shipments (first',
    ]);
    await dialog.lookAt('left-out');

    await dialog.confirm();
    await page.getByTestId('library-detail').waitFor();
    expect(await page.getByTestId('library-import-status').textContent()).toBe(
      'Imported 3 rows from pandas export.csv',
    );
    expect(await library.waitForRows()).toBe(3);
    expect(await library.columnValues('importerName', 3)).toEqual([
      'Acme Steel',
      'Beta Metals',
      'Gamma Trading',
    ]);
    expect(await new AgGrid(page, library.grid).header('extra:Column A').count()).toBe(0);
    expect(browser.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
