import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useImportOnDemo } from './support/import-on-demo';

/**
 * A German customs broker's CSV as Excel saves it there: Windows-1252, semicolons, numbers grouped with
 * dots, day-first dates, a title block above the table, a totals row below it, an HS code that lost its
 * leading zero, and a description pasted in whole.
 */
const BROKER_CSV = Buffer.from(
  [
    'Zollagentur Nord - Einfuhren Januar 2026;;;;;;;',
    'Erstellt am 03.02.2026;;;;;;;',
    ';;;;;;;',
    'Consignee;Shipper;HS Code;Value (USD);Qty;Arrival Date;Origin Country;Product Description',
    `Müller Fisch GmbH;Ålesund Seafood AS;30490;25.000;1.200;31.12.2025;Norway;"${'Frozen fillets of Atlantic cod, skinless, boneless, interleaved, IQF; '.repeat(30)}"`,
    'Brötchen & Co KG;Acme Steel;720810;1.234;12;05.01.2026;China;Hot-rolled coil',
    'Total;;;26.234;1.212;;;',
    '',
  ].join('\r\n'),
  'latin1',
);

/** A workbook whose first sheet is a cover page, its table on the second under a two-row header. */
async function brokerWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Cover').addRow(['Monthly entries']);
  const ws = wb.addWorksheet('Entries');
  ws.addRow(['Importer', null, 'Exporter', null, 'Goods', null, null]);
  ws.addRow(['Name', 'Country', 'Name', 'Country', 'HS Code', 'USD FOB', 'Arrival Date']);
  ws.addRow([
    'Nordic Foods',
    'SE',
    'Ålesund Seafood AS',
    'NO',
    30490,
    1200.5,
    new Date(Date.UTC(2026, 0, 5)),
  ]);
  ws.addRow(['Acme Steel', 'US', 'Posco', 'KR', 720810, 99, new Date(Date.UTC(2026, 0, 6))]);
  ws.getCell('G3').numFmt = 'dd.mm.yyyy';
  ws.getCell('G4').numFmt = 'dd.mm.yyyy';
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('Import files other tools saved: the dialog maps them, says what it changed, and imports them', () => {
  const app = useImportOnDemo();

  /** The dialog at each size and scheme; a long description stays in its cell, the table no wider than the form. */
  async function lookAt(name: string): Promise<void> {
    const { browser, dialog } = app;
    await dialog.lookAt(name, async () => {
      const form = (await browser.page.getByTestId('import-form').boundingBox())!;
      const table = (await browser.page.getByTestId('import-mapping').boundingBox())!;
      expect(table.x + table.width).toBeLessThanOrEqual(form.x + form.width + 1);
    });
  }

  it('reads a European broker’s CSV: its encoding, separators, title block, totals and lost HS zero', async () => {
    const { browser, shell, library, dialog } = app;
    await shell.navigate('library');
    await library.root.waitFor();
    const page = browser.page;
    await dialog.drop('zollagentur januar.csv', BROKER_CSV);
    await dialog.waitForMapping();

    expect(await dialog.fieldOf('Consignee')).toBe('importerName');
    expect(await dialog.fieldOf('Shipper')).toBe('exporterName');
    expect(await dialog.fieldOf('HS Code')).toBe('hsCode');
    expect(await dialog.fieldOf('Value (USD)')).toBe('usdFob');
    expect(await dialog.fieldOf('Qty')).toBe('quantity');
    expect(await dialog.fieldOf('Arrival Date')).toBe('arrivalDate');
    expect(await dialog.fieldOf('Origin Country')).toBe('countryOfOrigin');
    // As they will be stored: accents read, thousands grouped with dots, the HS code's zero back.
    expect(await dialog.samplesOf('Consignee')).toBe('Müller Fisch GmbH · Brötchen & Co KG');
    expect(await dialog.samplesOf('HS Code')).toBe('030490 · 720810');
    expect(await dialog.samplesOf('Value (USD)')).toBe('25000 · 1234');
    expect(await dialog.samplesOf('Arrival Date')).toBe('2025-12-31 · 2026-01-05');
    expect(await page.getByTestId('import-decimal').locator('input:checked').getAttribute('value')).toBe(',');
    expect(await page.getByTestId('import-notice').allTextContents()).toEqual([
      expect.stringMatching(/^The file is not UTF-8 text\. It was read as Windows-1252/),
    ]);
    const issues = await dialog.issues();
    expect(issues).toEqual([
      expect.stringMatching(/^1 row holds the file's totals, not a shipment \(first: row 7, "Total"\)/),
      // Its origin countries written by name: stored as the ISO codes the field holds.
      expect.stringMatching(
        /^Country of Origin: 2 values are country names or three-letter codes, not the two-letter ISO codes the field holds \(first: row 5, "Norway"\)\. They are stored as their codes \(NO\)/,
      ),
      expect.stringMatching(
        /^HS Code: 1 code lost its leading zero in a spreadsheet \(first: row 5, "30490"\)\. It is stored with it \(030490\)/,
      ),
    ]);
    await lookAt('european-csv');

    // Enter imports (the focus in the form, not on a list).
    await page.getByTestId('import-name').fill('Zollagentur Januar');
    await page.getByTestId('import-name').press('Enter');
    await page.getByTestId('library-detail').waitFor();
    expect(await page.getByTestId('library-detail-name').textContent()).toBe('Zollagentur Januar');
    expect(await page.getByTestId('library-import-status').textContent()).toBe(
      'Imported 2 rows from zollagentur januar.csv',
    );
    expect(await library.waitForRows()).toBe(2);
  });

  it('lists no empty unnamed columns of a CSV whose lines end with separators, and imports none', async () => {
    const { browser, library, dialog } = app;
    const page = browser.page;
    await dialog.drop(
      'desk export.csv',
      [
        'Importer Name;HS Code;Value (USD);Remarks;;;',
        'Acme Steel;720810;10;urgent;;;',
        'Beta Metals;720811;20;;;;',
        '',
      ].join('\r\n'),
    );
    await dialog.waitForMapping();
    expect(await dialog.headers()).toEqual(['Importer Name', 'HS Code', 'Value (USD)', 'Remarks']);
    expect(await page.getByTestId('import-form').textContent()).toContain('1 column is kept as extra column');
    await lookAt('trailing-separators-csv');
    await page.getByTestId('import-name').fill('Desk export');
    await page.getByTestId('import-name').press('Enter');
    // The dataset imported before is shown until this one is stored.
    await page.getByTestId('library-detail-name').filter({ hasText: 'Desk export' }).waitFor();
    expect(await page.getByTestId('library-import-status').textContent()).toBe(
      'Imported 2 rows from desk export.csv',
    );
    expect(await library.waitForRows()).toBe(2);
  });

  it('lists an unnamed column once the whole-file check finds values in it past the preview’s rows', async () => {
    const { browser, dialog } = app;
    const page = browser.page;
    const lines = ['Importer Name,HS Code,Value (USD),'];
    for (let i = 1; i <= 300; i++) lines.push(`Importer ${i},720810,${i},`);
    lines[300] = 'Importer 300,720810,300,checked by customs';
    await dialog.drop('late remarks.csv', `${lines.join('\r\n')}\r\n`);
    await dialog.waitForMapping();
    await dialog.waitForWholeFileChecked();
    expect(await dialog.headers()).toEqual(['Importer Name', 'HS Code', 'Value (USD)', 'Column D']);
    expect(await dialog.samplesOf('Column D')).toBe(
      'None in the first rows; 1 value further down, the first in row 301: “checked by customs”',
    );
    expect(await page.getByTestId('import-form').textContent()).toContain('1 column is kept as extra column');
    await lookAt('late-unnamed-column-csv');
    await page.getByTestId('import-name').fill('Late remarks');
    await page.getByTestId('import-name').press('Enter');
    await page.getByTestId('library-detail-name').filter({ hasText: 'Late remarks' }).waitFor();
    expect(await page.getByTestId('library-import-warnings').textContent()).toContain(
      'Column D: a column with no name in the header row and nothing in the rows the preview showed holds 1 value further down (first: row 301, "checked by customs")',
    );
  });

  it('reads dates typed as text in the order the sheet’s date cells show, and says so', async () => {
    const { browser, dialog } = app;
    const page = browser.page;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Arrivals');
    ws.addRow(['Importer Name', 'HS Code', 'Arrival Date']);
    ws.addRow(['Acme Steel', '720810', '03/04/2025']);
    ws.addRow(['Beta Metals', '720811', new Date(Date.UTC(2025, 5, 4))]);
    ws.getCell('C3').numFmt = 'dd/mm/yyyy';
    await dialog.drop(
      'uk desk.xlsx',
      Buffer.from(await wb.xlsx.writeBuffer()),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    await dialog.waitForMapping();
    expect(await dialog.samplesOf('Arrival Date')).toBe('2025-04-03 · 2025-06-04');
    const dates = page.getByTestId('import-locale');
    expect(await page.getByTestId('import-dates').locator('input:checked').getAttribute('value')).toBe('dmy');
    expect(await dates.textContent()).toContain('Its date cells show “dd/mm/yyyy”');
    await lookAt('date-cells-order-xlsx');
    await page.keyboard.press('Escape');
    await page.getByTestId('import-form').waitFor({ state: 'detached' });
  });

  it('finds a workbook’s table on its second sheet under a two-row header; Escape closes it unchanged', async () => {
    const { browser, library, dialog } = app;
    const page = browser.page;
    const names = await library.rowNames();
    await dialog.drop(
      'broker entries.xlsx',
      await brokerWorkbook(),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    await dialog.waitForMapping();
    expect(await dialog.fieldOf('Importer Name')).toBe('importerName');
    expect(await dialog.fieldOf('Importer Country')).toBe('importerCountry');
    expect(await dialog.fieldOf('Exporter Name')).toBe('exporterName');
    expect(await dialog.fieldOf('HS Code')).toBe('hsCode');
    expect(await dialog.samplesOf('HS Code')).toBe('030490 · 720810');
    expect(await dialog.samplesOf('Arrival Date')).toBe('2026-01-05 · 2026-01-06');
    await lookAt('two-row-header-xlsx');
    await page.keyboard.press('Escape');
    await page.getByTestId('import-form').waitFor({ state: 'detached' });
    expect(await library.rowNames()).toEqual(names);
  });
});
