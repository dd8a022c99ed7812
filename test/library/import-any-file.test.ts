import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { previewImport, runImport } from '../../src/main/library';
import { importFile, REREAD_STEP, type ImportProgress } from '../../src/main/library/import';
import { useLibrary } from '../helpers/library';
import { expectImportCancelledAtOnce, expectNothingStored, storedRows } from './helpers';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-import-any-');
const l = useLibrary('portolan-import-any-lib-');

const rowsOf = (id: string) => storedRows(l.lib, id);

const libraryIsEmpty = () => expectNothingStored(l.lib);

/** A workbook as another tool writes it: an empty first sheet, a "Data" sheet with a title row. */
async function foreignWorkbook(): Promise<string> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Sheet1');
  const ws = wb.addWorksheet('Data');
  ws.addRow(['Steel imports, Q1 2025 (prepared by the trade desk)']);
  ws.addRow([]);
  ws.addRow(['Date', 'Importer Name', 'HS Code', 'USD FOB', 'Remarks', 'Quantity']);
  ws.addRow([new Date(Date.UTC(2025, 0, 5)), 'Acme Steel Ltd', '720810', 12500.5, 'urgent', 3]);
  ws.addRow([new Date(Date.UTC(2025, 0, 6)), 'Beta Metals', 30110, 900, '', { formula: 'F4*2' }]);
  ws.getCell('D4').numFmt = '#,##0.00';
  ws.getCell('A4').numFmt = 'dd.mm.yyyy';
  ws.getCell('A5').numFmt = 'dd.mm.yyyy';
  const path = join(t.dir, 'desk report.xlsx');
  await wb.xlsx.writeFile(path);
  return path;
}

describe('files other tools wrote', () => {
  it('finds the sheet with data and the header under a title row, and maps people’s words to fields', async () => {
    const preview = await previewImport(await foreignWorkbook());
    expect(preview.view.sheets.map((s) => s.name)).toEqual(['Sheet1', 'Data']);
    expect(preview.view.sheet).toBe(1);
    expect(preview.view.headerRow).toBe(3);
    expect(preview.view.kind).toBe('shipments');
    expect(preview.view.columns.map((c) => [c.header, c.field])).toEqual([
      ['Date', 'arrivalDate'],
      ['Importer Name', 'importerName'],
      ['HS Code', 'hsCode'],
      ['USD FOB', 'usdFob'],
      ['Remarks', null],
      ['Quantity', 'quantity'],
    ]);
    // Samples as they will be stored: a date cell as yyyy-MM-dd, a formatted number with its decimals.
    const samples = Object.fromEntries(preview.view.columns.map((c) => [c.header, c.samples]));
    expect(samples['Date']).toEqual(['2025-01-05', '2025-01-06']);
    expect(samples['USD FOB']).toEqual(['12500.50', '900']);
    expect(samples['Remarks']).toEqual(['urgent', '']);
  });

  it('keeps unmapped columns as extra columns, leaves unmapped fields missing, and reports odd cells', async () => {
    const r = await importFile(l.lib, await foreignWorkbook());
    expect(r.rows).toBe(2);
    expect(r.dataset.extraColumns).toEqual(['Remarks']);
    expect(r.dataset.missingFields).toContain('exporterName');
    expect(r.dataset.missingFields).not.toContain('importerName');
    const [first, second] = await rowsOf(r.dataset.id);
    expect(first).toMatchObject({
      arrivalDate: '2025-01-05',
      importerName: 'Acme Steel Ltd',
      usdFob: '12500.50',
      quantity: '3',
    });
    // Missing, not empty: the field was not in the file.
    expect(first?.exporterName).toBeNull();
    expect(first?.fobValue).toBeNull();
    // The extra column is kept under its header.
    const extra = await l.lib.reader.one(
      `SELECT "_extra" AS x FROM shipment_rows WHERE dataset_id = $1 AND row_no = 0`,
      [r.dataset.id],
    );
    expect(JSON.parse(String(extra?.x))).toEqual({ Remarks: 'urgent' });
    // A formula without a stored result is never stored as object text; it is empty and reported.
    expect(second?.quantity).toBe('');
    expect(JSON.stringify(await rowsOf(r.dataset.id))).not.toContain('[object Object]');
    const messages = r.warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/Quantity: 1 formula cell has no stored result \(first: sheet Data, row 5\)/);
    // An HS code that came as a number with an odd count of digits lost its leading zero: stored with it.
    expect(second?.hsCode).toBe('030110');
    expect(messages).toMatch(
      /HS Code: 1 code lost its leading zero in a spreadsheet \(first: sheet Data, row 5, "30110"\)\. It is stored with it \(030110\)/,
    );
    expect(r.dataset.status).toBe('partial');
  });

  it('skips blank lines in a CSV and maps a header of fewer than five known columns', async () => {
    const path = join(t.dir, 'few.csv');
    await writeFile(path, 'Importer,HS Code,Value USD\r\nAcme,720810,"1,234.50"\r\n\r\nBeta,720851,99\r\n');
    const r = await importFile(l.lib, path);
    expect(r.rows).toBe(2);
    expect((await rowsOf(r.dataset.id)).map((x) => [x.importerName, x.hsCode, x.usdFob])).toEqual([
      ['Acme', '720810', '1,234.50'],
      ['Beta', '720851', '99'],
    ]);
  });

  it('finds a CSV’s header under a title block of other widths, and still refuses a cut row below it', async () => {
    const title = [
      '"Trade report, steel imports Q1 2025"',
      'Prepared by,trade desk',
      '',
      'Source: customs declarations',
    ];
    const header = 'Importer,HS Code,Value USD';
    const path = join(t.dir, 'report.csv');
    await writeFile(path, [...title, header, 'Acme,720810,12.5', 'Beta,720851,99', ''].join('\r\n'));
    const prepared = await previewImport(path);
    expect(prepared.view.headerRow).toBe(5);
    expect(prepared.plan.mapping).toEqual(['importerName', 'hsCode', 'usdFob']);
    const r = await runImport(l.lib, path, prepared);
    expect((await rowsOf(r.dataset.id)).map((x) => [x.importerName, x.hsCode, x.usdFob])).toEqual([
      ['Acme', '720810', '12.5'],
      ['Beta', '720851', '99'],
    ]);

    // A title line chosen as the header in the dialog is said to be one.
    await expect(previewImport(path, { choices: { headerRow: 2 } })).rejects.toThrow(
      /row 4 has 1 cell but row 2, chosen as the header row, has 2; choose the row that holds the column names/,
    );

    // Below the header every row is held to its width: in the preview's head, and past it on import.
    const cutInHead = join(t.dir, 'cut-head.csv');
    await writeFile(cutInHead, [...title, header, 'Acme,720810,12.5', 'Beta,720851', ''].join('\r\n'));
    await expect(previewImport(cutInHead)).rejects.toThrow(/row 7 has 2 cells but the header has 3/);
    const rows = Array.from({ length: 500 }, (_, i) => `Firm ${i},720810,${i}`);
    rows[400] = 'Firm 400,720810,4,00';
    const cutLater = join(t.dir, 'cut-later.csv');
    await writeFile(cutLater, [...title, header, ...rows, ''].join('\r\n'));
    const before = (await l.lib.list()).length;
    await expect(runImport(l.lib, cutLater, await previewImport(cutLater))).rejects.toThrow(
      /row 406 has 4 cells but the header has 3/,
    );
    expect(await l.lib.list()).toHaveLength(before);
  });

  it('leaves out the rows of a file’s totals and says so, but keeps a record named "Total"', async () => {
    const path = join(t.dir, 'with-totals.csv');
    await writeFile(
      path,
      [
        'Importer,HS Code,Value USD,Country',
        'Acme,720810,12.5,DE',
        // Records, whatever their names: an HS code, a country beside the numbers.
        'TOTAL,720851,7,FR',
        'Total,,3,FR',
        'Subtotal,,"22.50",',
        'Beta,720851,"1,000",IT',
        'Grand total:,,"$1,022.50",',
        '',
      ].join('\r\n'),
    );
    // The preview counts the totals rows among the rows it read, and lists them.
    const prepared = await previewImport(path);
    expect(prepared.view.rowsChecked).toBe(6);
    expect(prepared.view.issues.map((w) => w.at)).toEqual([['row 5', 'row 7']]);
    const r = await importFile(l.lib, path);
    expect((await rowsOf(r.dataset.id)).map((x) => [x.importerName, x.usdFob])).toEqual([
      ['Acme', '12.5'],
      ['TOTAL', '7'],
      ['Total', '3'],
      ['Beta', '1,000'],
    ]);
    const totals = r.warnings.find((w) => /totals/.test(w.message));
    expect(totals).toMatchObject({ field: 'importerName', count: 2, firstAt: 'row 5', example: 'Subtotal' });
    expect(totals?.message).toBe(
      '2 rows hold the file\'s totals, not shipments (first: row 5, "Subtotal"). They are left out, so their sums are not counted twice in totals and summaries',
    );

    // A line per importer, numbers only: "TOTAL" is a firm whose numbers are not the sums above it.
    const summary = join(t.dir, 'per-importer.csv');
    await writeFile(
      summary,
      'Importer,Shipments,Value USD,Weight kg\r\nAcme,3,1200,500\r\nTOTAL,5,"2,400",900\r\nBeta,1,50,20\r\nTotal,9,"3,650",1420\r\n',
    );
    const s = await importFile(l.lib, summary);
    expect((await rowsOf(s.dataset.id)).map((x) => x.importerName)).toEqual(['Acme', 'TOTAL', 'Beta']);
    expect(s.warnings.map((w) => w.message).join('\n')).toMatch(
      /1 row holds the file's totals, not a shipment \(first: row 5, "Total"\)/,
    );

    // A workbook's totals row of formulas, its label in the second column.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Report');
    ws.addRow(['Importer', 'HS Code', 'USD FOB']);
    ws.addRow(['Acme', '720810', 5]);
    ws.addRow(['Beta', '720851', 6]);
    ws.addRow([null, 'Total', { formula: 'SUM(C2:C3)', result: 11 }]);
    const xlsx = join(t.dir, 'with-totals.xlsx');
    await wb.xlsx.writeFile(xlsx);
    const w = await importFile(l.lib, xlsx);
    expect((await rowsOf(w.dataset.id)).map((x) => x.importerName)).toEqual(['Acme', 'Beta']);
    expect(w.warnings.map((x) => x.message).join('\n')).toMatch(
      /1 row holds the file's totals, not a shipment \(first: sheet Report, row 4, "Total"\)\. It is left out/,
    );
  });

  it('leaves out the notes under a table ("Source: …") and says so, but keeps a line of text the table goes on after', async () => {
    const path = join(t.dir, 'with-notes.csv');
    await writeFile(
      path,
      [
        'Importer,HS Code,Value USD',
        'Acme,720810,12.5',
        '',
        // Alone in the first column, but the table goes on below it: a record.
        'Beta Metals,,',
        'Gamma,720851,7',
        '',
        'Source: customs declarations, 2025',
        '',
        '"Note: values in US dollars, FOB"',
      ].join('\r\n'),
    );
    // The preview read the whole file, so it knows the notes end it.
    const prepared = await previewImport(path);
    expect(prepared.view.rowsChecked).toBe(5);
    expect(prepared.view.issues.map((w) => w.message)).toEqual([
      '2 lines of text below the table are notes, not shipments (first: row 7, "Source: customs declarations, 2025"). They are left out',
    ]);
    const r = await importFile(l.lib, path);
    expect((await rowsOf(r.dataset.id)).map((x) => x.importerName)).toEqual(['Acme', 'Beta Metals', 'Gamma']);
    expect(r.warnings.map((w) => w.message)).toEqual(prepared.view.issues.map((w) => w.message));

    // A line of another width is a note only where the file ends with it: the table going on below
    // it means the file is cut or holds an unquoted separator, as before.
    const goesOn = join(t.dir, 'goes-on.csv');
    await writeFile(
      goesOn,
      'Importer,HS Code,Value USD\nAcme,720810,12.5\n\nSee below, please\nGamma,720851,7\n',
    );
    await expect(previewImport(goesOn)).rejects.toThrow(/row 4 has 2 cells but the header has 3/);
    const long = ['Importer,HS Code,Value USD', ...Array.from({ length: 100 }, (_, i) => `Firm ${i},7208,1`)];
    long.splice(80, 0, '', 'See below, please');
    const longPath = join(t.dir, 'goes-on-long.csv');
    await writeFile(longPath, long.join('\n'));
    const longPrepared = await previewImport(longPath);
    await expect(runImport(l.lib, longPath, longPrepared)).rejects.toThrow(
      /row 82 has 2 cells but the header has 3/,
    );

    // A workbook's note under its table, past the rows a preview reads: found by the import.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Report');
    ws.addRow(['Importer', 'HS Code', 'USD FOB']);
    for (let i = 1; i <= 80; i++) ws.addRow([`Firm ${i}`, '720810', i]);
    ws.addRow([]);
    ws.addRow(['Prepared by the trade desk']);
    const xlsx = join(t.dir, 'with-notes.xlsx');
    await wb.xlsx.writeFile(xlsx);
    const head = await previewImport(xlsx);
    expect(head.view.issues).toEqual([]);
    const w = await importFile(l.lib, xlsx);
    expect(w.rows).toBe(80);
    expect(w.warnings.map((x) => x.message)).toEqual([
      '1 line of text below the table is a note, not a shipment (first: sheet Report, row 83, "Prepared by the trade desk"). It is left out',
    ]);
  });

  it('reads JSON Lines (.jsonl, .ndjson, or a .json written so) and names a bad line by its number', async () => {
    const lines =
      [
        { importerName: 'Acme', hsCode: '720810', usdFob: '5' },
        { importerName: 'Beta', hsCode: '720851', usdFob: '6', remarks: 'late' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n\n';
    for (const name of ['lines.jsonl', 'lines.ndjson', 'lines.json']) {
      const path = join(t.dir, name);
      await writeFile(path, lines);
      const r = await importFile(l.lib, path);
      expect((await rowsOf(r.dataset.id)).map((x) => [x.importerName, x.hsCode, x.usdFob])).toEqual([
        ['Acme', '720810', '5'],
        ['Beta', '720851', '6'],
      ]);
      expect(r.dataset.extraColumns).toEqual(['remarks']);
    }
    const bad = join(t.dir, 'bad.jsonl');
    await writeFile(bad, '{"importerName":"Acme"}\n{"importerName": "Be\n');
    await expect(previewImport(bad)).rejects.toThrow(
      /Cannot import bad\.jsonl: line 2 is not valid JSON; in a JSON Lines file every line holds one record/,
    );
    const notRecord = join(t.dir, 'numbers.jsonl');
    await writeFile(notRecord, '{"importerName":"Acme"}\n[1, 2]\n');
    await expect(previewImport(notRecord)).rejects.toThrow(/line 2 is not a JSON object \(a record\)/);
  });

  it('reads a macro-enabled workbook (.xlsm) as a workbook, its macros never read', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Data');
    ws.addRow(['Importer', 'HS Code', 'USD FOB']);
    ws.addRow(['Acme', '720810', 5]);
    // Saved as Excel saves a macro-enabled workbook: its own content type and a VBA project part.
    const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
    const types = await zip.file('[Content_Types].xml')!.async('string');
    zip.file(
      '[Content_Types].xml',
      types.replace(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
        'application/vnd.ms-excel.sheet.macroEnabled.main+xml',
      ),
    );
    zip.file('xl/vbaProject.bin', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
    const path = join(t.dir, 'desk.xlsm');
    await writeFile(path, await zip.generateAsync({ type: 'nodebuffer' }));
    const r = await importFile(l.lib, path);
    expect((await rowsOf(r.dataset.id)).map((x) => [x.importerName, x.hsCode, x.usdFob])).toEqual([
      ['Acme', '720810', '5'],
    ]);
    const damaged = join(t.dir, 'damaged.xlsm');
    await writeFile(damaged, 'not a zip');
    await expect(previewImport(damaged)).rejects.toThrow(/it is not a readable \.xlsm workbook/);
  });

  it('reads days with midnight after them (pandas, databases) as days; of another time the day is kept, and said', async () => {
    const path = join(t.dir, 'pandas.csv');
    await writeFile(
      path,
      [
        ',importer_name,hs_code,arrival_date',
        '0,Acme,720810,2025-01-05 00:00:00',
        '1,Beta,720851,2025-01-06T00:00:00.000Z',
        '2,Gamma,720851,2025-01-07 14:30:00',
        '',
      ].join('\n'),
    );
    const r = await importFile(l.lib, path);
    expect((await rowsOf(r.dataset.id)).map((x) => x.arrivalDate)).toEqual([
      '2025-01-05',
      '2025-01-06',
      '2025-01-07',
    ]);
    expect(r.warnings.map((w) => w.message)).toEqual([
      'Arrival Date: 1 value has a time of day after the date (first: row 4, "2025-01-07 14:30:00"). The day is kept (2025-01-07) and the time left out, as Arrival Date holds days',
    ]);
  });

  it('reads the day order of timestamps at midnight as it reads plain days', async () => {
    for (const [name, days] of [
      ['slashes.csv', ['13/01/2025 00:00:00', '05/01/2025 00:00:00']],
      ['dots.csv', ['31.12.2025 00:00', '05.01.2025 00:00']],
    ] as const) {
      const path = join(t.dir, name);
      await writeFile(
        path,
        ['Importer,HS Code,Arrival Date', `Acme,720810,${days[0]}`, `Beta,720851,${days[1]}`, ''].join(
          '\r\n',
        ),
      );
      const prepared = await previewImport(path);
      expect(prepared.plan.locale.dates, name).toBe('dmy');
      const r = await runImport(l.lib, path, prepared);
      expect(
        (await rowsOf(r.dataset.id)).map((x) => x.arrivalDate),
        name,
      ).toEqual(name === 'dots.csv' ? ['2025-12-31', '2025-01-05'] : ['2025-01-13', '2025-01-05']);
      expect(r.warnings, name).toEqual([]);
    }
  });

  it('reads amounts with a currency sign, and days as .NET, US Excel and ERP systems write them', async () => {
    // Excel's "Save as CSV" of currency-formatted cells, .NET's and US Excel's date-times at midnight.
    const us = join(t.dir, 'us-desk.csv');
    await writeFile(
      us,
      [
        'Importer,USD FOB,Arrival Date',
        'Acme,"$1,500.00",1/13/2025 12:00:00 AM',
        'Beta,$900.00,1/5/2025 12:00:00 AM',
        'Gamma,USD 75,1/6/2025 9:30:00 AM',
      ].join('\r\n'),
    );
    const prepared = await previewImport(us);
    expect(prepared.view.locale).toEqual({ decimal: '.', dates: 'mdy' });
    expect(prepared.view.localeProof.dates).toBe('1/13/2025 12:00:00 AM');
    const r = await runImport(l.lib, us, prepared);
    expect((await rowsOf(r.dataset.id)).map((x) => [x.usdFob, x.arrivalDate])).toEqual([
      ['1,500.00', '2025-01-13'],
      ['900.00', '2025-01-05'],
      // Of another time of day the day is kept, and the time said to be left out.
      ['75', '2025-01-06'],
    ]);
    const messages = r.warnings.map((w) => w.message);
    expect(messages).toContain(
      'Arrival Date: 1 value has a time of day after the date (first: row 4, "1/6/2025 9:30:00 AM"). The day is kept (2025-01-06) and the time left out, as Arrival Date holds days',
    );
    expect(messages).toContain(
      'USD FOB: 3 values are written with a currency sign (first: row 2, "$1,500.00"). They are stored as numbers without it ("1,500.00")',
    );
    // Sorted and filtered as numbers: the typed column reads the amount.
    const sorted = await l.lib.getRows(r.dataset.id, {
      startRow: 0,
      endRow: 3,
      sortModel: [{ colId: 'usdFob', sort: 'desc' }],
    });
    expect(sorted.rows.map((x) => x.importerName)).toEqual(['Acme', 'Beta', 'Gamma']);

    // A European amount with its sign after it, and days as ERP systems export them.
    const erp = join(t.dir, 'erp.csv');
    await writeFile(
      erp,
      [
        'Importer;USD FOB;Arrival Date',
        'Acme;1.500,00 €;20250105',
        'Beta;"12,50 USD";45658',
        'Gamma;7;2025-01-07',
      ].join('\n'),
    );
    const e = await previewImport(erp);
    expect(e.view.locale.decimal).toBe(',');
    expect(e.view.columns.map((c) => c.samples)).toEqual([
      ['Acme', 'Beta', 'Gamma'],
      ['1500.00', '12.50', '7'],
      ['2025-01-05', '2025-01-01', '2025-01-07'],
    ]);
    expect(e.view.issues.map((w) => w.message)).toEqual([
      'USD FOB: 2 values are written with a currency sign (first: row 2, "1.500,00 €"). They are stored as numbers without it ("1.500,00"). The signs differ (€, $): check that USD FOB holds one currency',
      'Arrival Date: 1 value is a spreadsheet day number (first: row 3, "45658"), as a date column formatted as a number saves it. It is read as the day it counts (2025-01-01)',
    ]);
  });

  it('reads dates with the month written by name, whatever the file’s day order', async () => {
    const path = join(t.dir, 'us-export.csv');
    await writeFile(
      path,
      'Importer,HS Code,Arrival Date\r\nAcme,720810,5-Jan-25\r\nBeta,720851,"Jan 6, 2025"\r\nGamma,720851,31/12/2025\r\n',
    );
    const r = await importFile(l.lib, path);
    expect((await rowsOf(r.dataset.id)).map((x) => x.arrivalDate)).toEqual([
      '2025-01-05',
      '2025-01-06',
      '2025-12-31',
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('reads a header of two rows, columns grouped under a heading, and stores no row of it', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Report');
    ws.addRow(['Customs report, steel']);
    ws.addRow(['Importer', 'Value', null, 'Arrival Date']);
    ws.addRow([' ', 'USD FOB', 'Quantity', null]);
    ws.addRow(['Acme', 1234.5, 12, new Date(Date.UTC(2025, 0, 5))]);
    ws.addRow(['Beta', 99, 3, new Date(Date.UTC(2025, 0, 6))]);
    const path = join(t.dir, 'grouped.xlsx');
    await wb.xlsx.writeFile(path);
    const prepared = await previewImport(path);
    expect(prepared.view.headerRow).toBe(3);
    expect(prepared.headers).toEqual(['Importer', 'USD FOB', 'Quantity', 'Arrival Date']);
    expect(prepared.plan.mapping).toEqual(['importerName', 'usdFob', 'quantity', 'arrivalDate']);
    // Chosen in the dialog (the preview asked again with the row it showed), it reads the same.
    const again = await previewImport(path, { choices: { sheet: prepared.plan.sheet, headerRow: 3 } });
    expect(again.headers).toEqual(prepared.headers);
    expect(again.plan.mapping).toEqual(prepared.plan.mapping);
    const r = await runImport(l.lib, path, prepared);
    expect(
      (await rowsOf(r.dataset.id)).map((x) => [x.importerName, x.usdFob, x.quantity, x.arrivalDate]),
    ).toEqual([
      ['Acme', '1234.5', '12', '2025-01-05'],
      ['Beta', '99', '3', '2025-01-06'],
    ]);

    // A heading over the empty cells to its right names each column under it with its sub-heading.
    const parties = new ExcelJS.Workbook();
    const ps = parties.addWorksheet('Report');
    ps.addRow(['Arrival Date', 'Importer', null, 'HS Code', 'Value', null]);
    ps.addRow([null, 'Name', 'Country', null, 'USD FOB', 'Quantity']);
    ps.addRow([new Date(Date.UTC(2025, 0, 5)), 'Acme', 'Germany', '720810', 1234.5, 12]);
    const grouped2 = join(t.dir, 'parties.xlsx');
    await parties.xlsx.writeFile(grouped2);
    const p3 = await previewImport(grouped2);
    expect(p3.headers).toEqual([
      'Arrival Date',
      'Importer Name',
      'Importer Country',
      'HS Code',
      'USD FOB',
      'Quantity',
    ]);
    expect(p3.plan.mapping).toEqual([
      'arrivalDate',
      'importerName',
      'importerCountry',
      'hsCode',
      'usdFob',
      'quantity',
    ]);

    // A first record of text only is a record, not a second header row.
    const firms = join(t.dir, 'firms.csv');
    await writeFile(firms, 'Importer,Exporter,,Country\r\nAcme,Beta,urgent,Germany\r\n');
    const p2 = await previewImport(firms);
    expect(p2.view.headerRow).toBe(1);
    expect((await runImport(l.lib, firms, p2)).rows).toBe(1);
  });

  it('maps the headers of customs data in Spanish, French, German and Turkish by themselves', async () => {
    const files: [string, string, (string | null)[]][] = [
      [
        'aduana.csv',
        'Fecha;Importador;Exportador;Partida Arancelaria;Descripción de la mercancía;País de Origen;Cantidad;Unidad;Peso Bruto;Valor FOB USD\r\n' +
          '05/01/2025;Acme SA;Beta Ltd;720810;Acero;China;12;TON;12000;5400,50\r\n',
        [
          'arrivalDate',
          'importerName',
          'exporterName',
          'hsCode',
          'productDetails',
          'countryOfOrigin',
          'quantity',
          'quantityUnit',
          'grossWeight',
          'usdFob',
        ],
      ],
      [
        'douane.csv',
        "Date d'arrivée,Importateur,Exportateur,Code SH,Quantité,Poids net,Valeur FOB USD,Pays d'origine\r\n" +
          '2025-01-05,Acme SARL,Beta Ltd,720810,12,11000,5400.50,Chine\r\n',
        [
          'arrivalDate',
          'importerName',
          'exporterName',
          'hsCode',
          'quantity',
          'netWeight',
          'usdFob',
          'countryOfOrigin',
        ],
      ],
      [
        'zoll.csv',
        'Datum;Importeur;Exporteur;Warennummer;Warenbeschreibung;Menge;Ursprungsland\r\n' +
          '05.01.2025;Acme GmbH;Beta Ltd;72081000;Stahl;12;China\r\n',
        [
          'arrivalDate',
          'importerName',
          'exporterName',
          'hsCode',
          'productDetails',
          'quantity',
          'countryOfOrigin',
        ],
      ],
      [
        'gumruk.csv',
        'Tarih;İthalatçı Firma;İhracatçı Firma;GTİP;Miktar;Menşe Ülke\r\n' +
          '05.01.2025;Acme AŞ;Beta Ltd;720810000000;12;Çin\r\n',
        ['arrivalDate', 'importerName', 'exporterName', 'hsCode', 'quantity', 'countryOfOrigin'],
      ],
      [
        'empresas.csv',
        'Empresa,País,Teléfono\r\nAcme SA,España,+34 91 000 0000\r\n',
        ['name', 'country', 'tel'],
      ],
    ];
    for (const [name, text, mapping] of files) {
      const path = join(t.dir, name);
      await writeFile(path, text);
      const prepared = await previewImport(path);
      expect(prepared.plan.mapping, name).toEqual(mapping);
    }
  });

  it('says how to import a spreadsheet of another program', async () => {
    for (const [name, what] of [
      ['sheet.ods', 'OpenDocument .ods spreadsheets'],
      ['sheet.numbers', 'Apple Numbers spreadsheets'],
      ['sheet.xlsb', 'Excel binary .xlsb workbooks'],
    ]) {
      const path = join(t.dir, name!);
      await writeFile(path, 'x');
      await expect(previewImport(path)).rejects.toThrow(
        new RegExp(
          `${what!.replace('.', '\\.')}.* are not supported .*save it as an Excel Workbook \\(\\.xlsx\\) and import that`,
        ),
      );
    }
  });

  it('reads what an .xls name holds: text as a table, an .xlsx as a workbook, a web page’s table; an old workbook is refused with what to do', async () => {
    // Trade databases' "Excel" downloads: tab-separated text, here UTF-16 as Excel's "Unicode Text" saves it.
    const text = join(t.dir, 'trade map.xls');
    const table = 'Importer\tHS Code\tValue USD\r\nAcme\t720810\t12.5\r\nBeta\t720851\t7\r\n';
    await writeFile(text, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(table, 'utf16le')]));
    const r = await importFile(l.lib, text);
    expect((await rowsOf(r.dataset.id)).map((x) => [x.importerName, x.hsCode, x.usdFob])).toEqual([
      ['Acme', '720810', '12.5'],
      ['Beta', '720851', '7'],
    ]);
    // An .xlsx saved under an .xls name.
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Data').addRows([
      ['Importer', 'HS Code'],
      ['Gamma', '720810'],
    ]);
    const renamed = join(t.dir, 'renamed.xls');
    await wb.xlsx.writeFile(renamed);
    const x = await previewImport(renamed);
    expect(x.view.format).toBe('xlsx');
    expect(x.view.columns.map((c) => c.samples[0])).toEqual(['Gamma', '720810']);
    // A web portal's export: an HTML table under an .xls name, in Windows-1252 as it declares.
    const portal = join(t.dir, 'portal.xls');
    await writeFile(
      portal,
      Buffer.from(
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><body>' +
          '<table><tr><td>Menu</td></tr></table>' +
          '<table border=1><tr><th colspan=2>Parties</th><th>Goods</th></tr>' +
          '<tr><th>Importer</th><th>Country</th><th>HS Code</th><th>Value USD</th></tr>' +
          '<tr><td>Soci\xe9t\xe9 G\xe9n\xe9rale &amp; Fils</td><td>France</td><td>720810</td><td>1,234.50</td></tr>' +
          '<tr><td>Beta<br>Metals</td><td>Italy</td><td>720851</td><td>7</td></tr>' +
          '</table></body></html>',
        'latin1',
      ),
    );
    const h = await previewImport(portal);
    expect(h.view.format).toBe('html');
    expect(h.view.sheets.map((sh) => [sh.name, sh.rows])).toEqual([
      ['Table 1', 1],
      ['Table 2', 4],
    ]);
    expect(h.view.sheet).toBe(1);
    const imported = await runImport(l.lib, portal, h);
    expect((await rowsOf(imported.dataset.id)).map((x) => [x.importerName, x.hsCode, x.usdFob])).toEqual([
      ['Société Générale & Fils', '720810', '1,234.50'],
      ['Beta Metals', '720851', '7'],
    ]);
    for (const [name, bytes, problem] of [
      [
        'old.xls',
        Buffer.from('d0cf11e0a1b11ae10000000000000000', 'hex'),
        /old Excel \.xls workbooks \(Excel 97–2003\) are not supported .*save it as an Excel Workbook \(\.xlsx\) and import that/,
      ],
      [
        'xml2003.xls',
        Buffer.from('<?xml version="1.0"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">'),
        /this \.xls file is an Excel 2003 XML spreadsheet under an Excel name/,
      ],
      ['empty-page.html', Buffer.from('<html><body><p>No data</p></body></html>'), /the page holds no table/],
    ] as const) {
      const path = join(t.dir, name);
      await writeFile(path, bytes);
      await expect(previewImport(path)).rejects.toThrow(problem);
    }
  });

  it('reads a tab-separated .tsv or .txt table as a CSV, its delimiter found in the data', async () => {
    const text = 'IMPORTER_NAME\tHS_CODE\tVALUE_USD\r\nAcme, Inc.\t720810\t1234.50\r\nBeta\t720851\t99\r\n';
    for (const name of ['trade-db.tsv', 'trade-db.txt']) {
      const path = join(t.dir, name);
      await writeFile(path, text);
      const r = await importFile(l.lib, path);
      expect(r.rows).toBe(2);
      // The comma inside a name stays in the name: the tab is the delimiter.
      expect((await rowsOf(r.dataset.id)).map((x) => [x.importerName, x.hsCode, x.usdFob])).toEqual([
        ['Acme, Inc.', '720810', '1234.50'],
        ['Beta', '720851', '99'],
      ]);
    }
  });

  it('stores HS codes written with dots or spaces as their digits, and says so', async () => {
    const path = join(t.dir, 'tariff.csv');
    const lines = ['Importer,HS Code,USD FOB', 'Acme,7208.10.00,5', 'Beta,0301 11,6', 'Gamma,720851,7'];
    // Many plain rows first: the file goes to DuckDB's reader, which must hand the dotted rows over.
    for (let i = 0; i < 3000; i++) lines.push(`Firm ${i},720810,${i}`);
    lines.push('Delta,8471.30.0100,8', 'Echo,72.08,9', 'Foxtrot,7208.1,1');
    await writeFile(path, lines.join('\r\n'));
    const r = await importFile(l.lib, path);
    const codes = new Map(
      (await l.lib.getRows(r.dataset.id, { startRow: 0, endRow: 4000 })).rows.map((x) => [
        x.importerName,
        x.hsCode,
      ]),
    );
    expect([...['Acme', 'Beta', 'Gamma', 'Delta'].map((n) => codes.get(n))]).toEqual([
      '72081000',
      '030111',
      '720851',
      '8471300100',
    ]);
    // Not the shape of a tariff code: kept as written.
    expect([codes.get('Echo'), codes.get('Foxtrot')]).toEqual(['72.08', '7208.1']);
    const messages = r.warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(
      /HS Code: 3 codes are written with dots or spaces \(first: row 2, "7208\.10\.00"\)\. They are stored as digits \(72081000\)/,
    );
  });

  it('imports under the plan the analyst changed: a column mapped elsewhere, another left extra', async () => {
    const path = join(t.dir, 'plan.csv');
    await writeFile(path, 'Buyer,Notes\r\nAcme,fragile\r\n');
    const prepared = await previewImport(path);
    expect(prepared.plan.mapping).toEqual(['importerName', null]);
    const plan = { ...prepared.plan, mapping: ['exporterName', 'productDetails'] };
    const r = await runImport(l.lib, path, prepared, { plan });
    expect((await rowsOf(r.dataset.id))[0]).toMatchObject({
      exporterName: 'Acme',
      productDetails: 'fragile',
      importerName: null,
    });
  });

  it('leaves out the row index pandas writes, says so, and imports it when the analyst asks', async () => {
    const path = join(t.dir, 'pandas.csv');
    // df.to_csv() of a filtered frame: an unnamed first column of the rows' index, growing with gaps.
    await writeFile(
      path,
      ',Importer,HS Code,Value USD\n3,Acme,720810,12.5\n7,Beta,720851,99\n12,Gamma,7208,1\n',
    );
    const prepared = await previewImport(path);
    expect(prepared.view.columns.map((c) => [c.header, c.field, c.leftOut])).toEqual([
      ['Column A', null, true],
      ['Importer', 'importerName', false],
      ['HS Code', 'hsCode', false],
      ['Value USD', 'usdFob', false],
    ]);
    // The dialog still shows what is left out, in the rows the other columns show.
    expect(prepared.view.columns[0]!.samples).toEqual(['3', '7', '12']);
    expect(prepared.view.notices.join('\n')).toMatch(
      /Column A has no name in the header and holds only row numbers \(the index pandas and other tools write\), so it is left out\. To import it, choose a field or "Extra column" under "Imported as"\./,
    );
    expect(prepared.plan.leftOut).toEqual([0]);
    const r = await runImport(l.lib, path, prepared);
    expect(r.rows).toBe(3);
    expect(r.dataset.extraColumns).toEqual([]);
    expect((await rowsOf(r.dataset.id)).map((row) => [row.importerName, row._extra ?? null])).toEqual([
      ['Acme', null],
      ['Beta', null],
      ['Gamma', null],
    ]);
    // Kept as an extra column when the analyst chooses so.
    const kept = await runImport(l.lib, path, prepared, { plan: { ...prepared.plan, leftOut: [] } });
    expect(kept.dataset.extraColumns).toEqual(['Column A']);

    // Notes under the table are written in the index's column: still notes, and the index still found.
    const noted = join(t.dir, 'pandas-noted.csv');
    await writeFile(
      noted,
      ',Importer,HS Code,Value USD\n0,Acme,720810,12.5\n1,Beta,720851,99\n\nSource: customs declarations, 2025\nNote: FOB values\n',
    );
    const n = await previewImport(noted);
    expect(n.plan.leftOut).toEqual([0]);
    const r2 = await runImport(l.lib, noted, n);
    expect(r2.rows).toBe(2);
    expect(r2.warnings.map((w) => w.message)).toEqual([
      '2 lines of text below the table are notes, not shipments (first: row 5, "Source: customs declarations, 2025"). They are left out',
    ]);
  });

  it('takes for a row index only an unnamed column of growing whole numbers', async () => {
    const leftOutOf = async (name: string, text: string) => {
      const path = join(t.dir, name);
      await writeFile(path, text);
      const { view } = await previewImport(path);
      return { leftOut: view.columns.filter((c) => c.leftOut).map((c) => c.header), notices: view.notices };
    };
    // Read back by pandas and written again: "Unnamed: 0".
    expect(
      (await leftOutOf('unnamed.csv', 'Unnamed: 0,Importer,HS Code\n0,Acme,7208\n1,Beta,7208\n')).leftOut,
    ).toEqual(['Unnamed: 0']);
    // A named serial number, numbers that do not grow, text, or a single row: kept as they are.
    for (const [name, text] of [
      ['serial.csv', 'No.,Importer,HS Code\n1,Acme,7208\n2,Beta,7208\n'],
      ['unsorted.csv', ',Importer,HS Code\n2,Acme,7208\n1,Beta,7208\n'],
      ['codes.csv', ',Importer,HS Code\nA1,Acme,7208\nA2,Beta,7208\n'],
      ['one-row.csv', ',Importer,HS Code\n0,Acme,7208\n'],
    ]) {
      const r = await leftOutOf(name!, text!);
      expect(r.leftOut, name).toEqual([]);
      expect(r.notices.join(''), name).not.toMatch(/row numbers/);
    }
  });

  it('reads a workbook pandas wrote with its index: the index left out, a totals row under it found', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow([null, 'Importer', 'HS Code', 'Value USD']);
    ws.addRow([0, 'Acme', '720810', 10]);
    ws.addRow([1, 'Beta', '720851', 5]);
    ws.addRow([2, 'Total', null, 15]);
    const path = join(t.dir, 'pandas.xlsx');
    await wb.xlsx.writeFile(path);
    const prepared = await previewImport(path);
    expect(prepared.plan.leftOut).toEqual([0]);
    const r = await runImport(l.lib, path, prepared);
    expect(r.rows).toBe(2);
    expect(r.dataset.extraColumns).toEqual([]);
    expect(r.warnings.map((w) => w.message).join('\n')).toMatch(/1 row holds the file's totals/);
  });

  it('checks and stores nothing of a column the analyst leaves out, and remembers it with the mapping', async () => {
    const path = join(t.dir, 'left-out.csv');
    await writeFile(path, 'Importer,Value USD,Internal code\r\nAcme,12.5,x\ufffdy\r\nBeta,99,z\r\n');
    const prepared = await previewImport(path);
    const plan = { ...prepared.plan, mapping: ['importerName', 'usdFob', null], leftOut: [2] };
    const view = await previewImport(path, { choices: { ...plan } });
    expect(view.view.columns[2]).toMatchObject({ field: null, leftOut: true, samples: ['x\ufffdy', 'z'] });
    expect(view.view.issues).toEqual([]);
    const r = await runImport(l.lib, path, prepared, { plan });
    expect(r.dataset.extraColumns).toEqual([]);
    expect(r.warnings).toEqual([]);
    const again = await previewImport(path, {
      remembered: (key) =>
        key === prepared.shapeKey
          ? { kind: 'shipments', mapping: plan.mapping, leftOut: [2], locale: plan.locale }
          : null,
    });
    expect(again.view.remembered).toBe(true);
    expect(again.plan.leftOut).toEqual([2]);
  });

  it('offers a mapping confirmed for files with the same columns', async () => {
    const path = join(t.dir, 'same.csv');
    await writeFile(path, 'Buyer,Notes\r\nAcme,fragile\r\n');
    const first = await previewImport(path);
    const remembered = {
      kind: 'shipments' as const,
      mapping: ['exporterName', 'productDetails'],
      locale: first.plan.locale,
    };
    const again = await previewImport(path, {
      remembered: (key) => (key === first.shapeKey ? remembered : null),
    });
    expect(again.view.remembered).toBe(true);
    expect(again.view.columns.map((c) => c.field)).toEqual(['exporterName', 'productDetails']);
  });
});

describe('large files and caps', () => {
  it('refuses a workbook that expands past the limit, before reading its data, and keeps the library as it was', async () => {
    const path = await foreignWorkbook();
    const limits = { maxFileBytes: 1e9, maxJsonBytes: 1e8, maxUncompressedBytes: 2_000, maxCells: 1e6 };
    await expect(previewImport(path, { limits })).rejects.toThrow(
      /expands to more data than Portolan imports at once.*not changed/,
    );
    await libraryIsEmpty();
  });

  it('refuses a sheet with more cells than the limit, mid-way, and stores nothing', async () => {
    const path = join(t.dir, 'many.csv');
    const lines = ['importerName,hsCode,usdFob'];
    for (let i = 0; i < 5000; i++) lines.push(`Firm ${i},720810,${i}`);
    await writeFile(path, lines.join('\n'));
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Data');
    for (const line of lines) ws.addRow(line.split(','));
    const xlsx = join(t.dir, 'many.xlsx');
    await wb.xlsx.writeFile(xlsx);
    const limits = { maxFileBytes: 1e9, maxJsonBytes: 1e8, maxUncompressedBytes: 1e9, maxCells: 6_000 };
    const prepared = await previewImport(xlsx, { limits });
    await expect(runImport(l.lib, xlsx, prepared, { limits })).rejects.toThrow(
      /more than 6,000 cells.*not changed/,
    );
    await libraryIsEmpty();
  });

  it('stops at once on cancel and leaves the library as it was', async () => {
    const path = join(t.dir, 'long.csv');
    const lines = ['importerName,hsCode,usdFob'];
    for (let i = 0; i < 60_000; i++) lines.push(`Firm ${i},720810,${i}`);
    await writeFile(path, lines.join('\n'));
    await expectImportCancelledAtOnce(l.lib, path);
  });

  it('reports progress as rows are stored, part by part on the row path', async () => {
    const path = join(t.dir, 'progress.csv');
    const lines = ['importerName,hsCode,usdFob'];
    for (let i = 0; i < 5_000; i++) lines.push(`Firm ${i},720810,${i}`);
    // A blank row: DuckDB's one-query copy declines the file and the row path stores it in parts. On a
    // busy machine the copy may report rows before it declines (the count then goes back to 0 with the
    // reason), so only the row path's part is counted here.
    lines.splice(2_500, 0, ',,');
    await writeFile(path, lines.join('\n'));
    const seen: ImportProgress[] = [];
    const r = await runImport(l.lib, path, await previewImport(path), { onProgress: (p) => seen.push(p) });
    expect(r.rows).toBe(5_000);
    const reread = seen.findIndex((p) => p.step !== null);
    expect(seen[reread]).toMatchObject({ rowsStored: 0, step: REREAD_STEP });
    const rowPath = seen.slice(reread).map((p) => p.rowsStored);
    expect(rowPath.filter((n) => n > 0).length).toBeGreaterThan(1);
    expect(rowPath.at(-1)).toBe(5_000);
    expect([...rowPath].sort((a, b) => a - b)).toEqual(rowPath);
  });

  it('reports progress while DuckDB copies a plain CSV into the library in one query', async () => {
    const path = join(t.dir, 'progress-native.csv');
    const lines = ['importerName,hsCode,usdFob,arrivalDate,remarks'];
    for (let i = 0; i < 200_000; i++)
      lines.push(`Firm ${i},720810,${i}.25,2025-01-${String(1 + (i % 28)).padStart(2, '0')},note ${i}`);
    await writeFile(path, lines.join('\n') + '\n');
    const seen: number[] = [];
    const r = await runImport(l.lib, path, await previewImport(path), {
      onProgress: (p) => seen.push(p.rowsStored),
    });
    expect(r.rows).toBe(200_000);
    expect(seen.some((n) => n > 0 && n < 200_000)).toBe(true);
    expect(seen.at(-1)).toBe(200_000);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('says why the rows stored go back to 0 when a plain CSV is read again row by row', async () => {
    const path = join(t.dir, 'progress-reread.csv');
    const lines = ['importerName,hsCode,usdFob,arrivalDate,remarks'];
    for (let i = 0; i < 200_000; i++)
      lines.push(`Firm ${i},720810,${i}.25,2025-01-${String(1 + (i % 28)).padStart(2, '0')},note ${i}`);
    // The last row's HS code lost its leading zero: DuckDB's one-query insert is rolled back, and the
    // row path reads the file again to say so.
    lines.push('Firm last,30110,1,2025-01-05,note');
    await writeFile(path, lines.join('\n') + '\n');
    const seen: ImportProgress[] = [];
    const r = await runImport(l.lib, path, await previewImport(path), { onProgress: (p) => seen.push(p) });
    expect(r.rows).toBe(200_001);
    expect(r.warnings.length).toBeGreaterThan(0);
    // DuckDB's copy got under way, the count went back to 0 with the reason, then climbed to the end.
    const reread = seen.findIndex((p) => p.step !== null);
    expect(reread).toBeGreaterThan(0);
    expect(seen.slice(0, reread).some((p) => p.rowsStored > 0)).toBe(true);
    expect(seen.slice(0, reread).every((p) => p.step === null && p.rowsTotal === 200_001)).toBe(true);
    expect(seen[reread]).toEqual({ rowsStored: 0, rowsTotal: 200_001, step: REREAD_STEP });
    const after = seen.slice(reread).map((p) => p.rowsStored);
    expect([...after].sort((a, b) => a - b)).toEqual(after);
    expect(seen.slice(reread).every((p) => p.step === REREAD_STEP)).toBe(true);
    expect(seen.at(-1)?.rowsStored).toBe(200_001);
    // The count only ever went down where the reason was given.
    for (let i = 1; i < seen.length; i++)
      if (seen[i]!.rowsStored < seen[i - 1]!.rowsStored) expect(i).toBe(reread);
    // Two reads of 200,000 rows: about 20 s on a busy machine, past the default timeout.
  }, 60_000);

  it('stops DuckDB in that one query on cancel: no row is reported stored after it, the library is as it was', async () => {
    const path = join(t.dir, 'cancel-native.csv');
    const lines = ['importerName,hsCode,usdFob,arrivalDate,remarks'];
    for (let i = 0; i < 200_000; i++)
      lines.push(`Firm ${i},720810,${i}.25,2025-01-${String(1 + (i % 28)).padStart(2, '0')},note ${i}`);
    await writeFile(path, lines.join('\n') + '\n');
    const controller = new AbortController();
    const after: number[] = [];
    const run = runImport(l.lib, path, await previewImport(path), {
      signal: controller.signal,
      onProgress: (p) => {
        if (controller.signal.aborted) after.push(p.rowsStored);
        // Cancelled while DuckDB copies: some rows counted, not all.
        else if (p.rowsStored > 0 && p.rowsStored < 200_000) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ kind: 'Cancelled' });
    // Left to finish, the copy would have reported all 200,000 rows stored before the cancel was seen.
    expect(after.filter((n) => n === 200_000)).toEqual([]);
    expect(await l.lib.list({})).toEqual([]);
  }, 60_000);
});

describe('the import preview: the analyst’s mapping and what would not import as it is', () => {
  /** A CSV another tool wrote: day-first dates, decimal commas, a count that is not a number. */
  async function deskCsv(): Promise<string> {
    const path = join(t.dir, 'desk.csv');
    await writeFile(
      path,
      [
        'Arrival;Consignee;Value USD;Qty;Remarks',
        '31.12.2025;Acme Steel;1.234,50;3;MSC Anna',
        '05.01.2026;Beta Metals;900,00;12 pcs;Maersk Bo',
        '',
        '06.01.2026;Gamma;7,5;4;MSC Anna',
        '32.01.2026;Delta;12,3,4;4 boxes;Ever Given',
      ].join('\n'),
    );
    return path;
  }

  it('lists, in the form’s words, the values that would not import as they are and the rows they are in', async () => {
    const p = await previewImport(await deskCsv());
    expect(p.view.columns.map((c) => c.field)).toEqual([
      'arrivalDate',
      'importerName',
      'usdFob',
      'quantity',
      null,
    ]);
    expect(p.view.locale).toEqual({ decimal: ',', dates: 'dmy' });
    expect(p.view.localeProof.dates).toBe('31.12.2025');
    expect(p.view.rowsChecked).toBe(4);
    expect(p.view.blankRows).toBe(1);
    const byField = Object.fromEntries(p.view.issues.map((w) => [w.field, w]));
    expect(byField.arrivalDate).toMatchObject({ count: 1, at: ['row 6'], example: '32.01.2026' });
    expect(byField.arrivalDate!.message).toMatch(
      /^Arrival Date: 1 value is not a date written as yyyy-MM-dd/,
    );
    expect(byField.usdFob).toMatchObject({ count: 1, at: ['row 6'], example: '12,3,4' });
    expect(byField.usdFob!.message).toMatch(/^USD FOB: /);
    expect(byField.quantity).toMatchObject({ count: 2, at: ['row 3', 'row 6'] });
    // Counts with their unit: stored as numbers, the unit in Quantity Unit, and said so.
    expect(byField.quantity!.message).toMatch(/^Quantity: 2 values are written with their unit/);
    expect(p.view.issues.map((w) => w.message).join('\n')).not.toMatch(/arrivalDate|usdFob|quantity/);
  });

  it('previews the analyst’s mapping and locale: another field, a column kept as extra, month-first dates', async () => {
    const path = await deskCsv();
    const p = await previewImport(path, {
      choices: {
        kind: 'shipments',
        mapping: ['arrivalDate', 'importerName', null, 'quantity', 'vesselName'],
        locale: { decimal: '.', dates: 'mdy' },
      },
    });
    expect(p.plan.mapping).toEqual(['arrivalDate', 'importerName', null, 'quantity', 'vesselName']);
    expect(p.view.locale).toEqual({ decimal: '.', dates: 'mdy' });
    const samples = Object.fromEntries(p.view.columns.map((c) => [c.header, c.samples]));
    // 31.12.2025 read month first is no date: kept as written, and said.
    expect(samples['Arrival']).toEqual(['31.12.2025', '2026-05-01', '2026-06-01', '32.01.2026']);
    expect(samples['Value USD']).toEqual(['1.234,50', '900,00', '7,5', '12,3,4']);
    expect(samples['Remarks']![0]).toBe('MSC Anna');
    expect(p.view.issues.find((w) => w.field === 'arrivalDate')).toMatchObject({
      count: 2,
      at: ['row 2', 'row 6'],
    });
    // A mapping of another length than the file's columns is not the analyst's: the automatic one is shown.
    const wrong = await previewImport(path, { choices: { mapping: ['arrivalDate'] } });
    expect(wrong.plan.mapping[2]).toBe('usdFob');
  });
});
