import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { checkImport, previewImport, runImport } from '../../src/main/library';
import { useLibrary } from '../helpers/library';
import { storedRows } from './helpers';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-import-empty-cols-');
const l = useLibrary('portolan-import-empty-cols-lib-');

const rowsOf = (id: string) => storedRows(l.lib, id);

/** The rows stored with extra values: their number and the extra values. */
async function extrasOf(id: string): Promise<[number, unknown][]> {
  const rows = await l.lib.reader.all(
    `SELECT row_no, "_extra" AS x FROM shipment_rows WHERE dataset_id = $1 AND "_extra" IS NOT NULL ORDER BY row_no`,
    [id],
  );
  return rows.map((r) => [Number(r.row_no), JSON.parse(String(r.x))]);
}

/** The columns the import dialog lists, by header. */
function listed(view: { columns: { header: string; empty?: boolean }[] }): string[] {
  return view.columns.filter((c) => !c.empty).map((c) => c.header);
}

/**
 * Written as UTF-8 (read by DuckDB's CSV reader) and as Windows-1252 (read row by row), so that both
 * readers of a CSV are held to the same result.
 */
const ENCODINGS = [
  ['utf-8', (s: string) => Buffer.from(s, 'utf8')],
  ['windows-1252', (s: string) => Buffer.from(s, 'latin1')],
] as const;

describe('columns with no name and no value', () => {
  it.each(ENCODINGS)(
    'a CSV (%s) whose lines end with separators imports no empty columns; a named empty column stays',
    async (_encoding, encode) => {
      const path = join(t.dir, `trailing-${_encoding}.csv`);
      await writeFile(
        path,
        encode(
          [
            'Importer Name;HS Code;Value (USD);Remarks;;;',
            'Acme Société;720810;10;;;;',
            'Beta Metals;720811;20;;;;',
            'Gamma Trade;720812;30;;;;',
            '',
          ].join('\r\n'),
        ),
      );
      const prepared = await previewImport(path);
      expect(prepared.view.columns.map((c) => c.header)).toEqual([
        'Importer Name',
        'HS Code',
        'Value (USD)',
        'Remarks',
        'Column E',
        'Column F',
        'Column G',
      ]);
      expect(listed(prepared.view)).toEqual(['Importer Name', 'HS Code', 'Value (USD)', 'Remarks']);
      const r = await runImport(l.lib, path, prepared);
      expect(r.rows).toBe(3);
      expect(r.dataset.extraColumns).toEqual(['Remarks']);
      expect((await rowsOf(r.dataset.id)).map((row) => row.importerName)).toEqual([
        'Acme Société',
        'Beta Metals',
        'Gamma Trade',
      ]);
      expect(await extrasOf(r.dataset.id)).toEqual([]);
    },
  );

  it('a sheet with a blank column in the middle and blank columns after the table imports neither', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Entries');
    ws.addRow(['Importer Name', 'HS Code', null, 'Value (USD)', 'Remarks']);
    ws.addRow(['Acme Steel', '720810', null, 10, 'urgent']);
    ws.addRow(['Beta Metals', '720811', null, 20, null]);
    // Blank columns beyond the table: cells formatted but holding nothing, and empty text.
    for (let r = 1; r <= 3; r++) {
      ws.getCell(r, 6).value = '';
      ws.getCell(r, 7).border = { left: { style: 'thin' } };
      ws.getCell(r, 8).value = '';
    }
    const path = join(t.dir, 'entries.xlsx');
    await wb.xlsx.writeFile(path);
    const prepared = await previewImport(path);
    expect(listed(prepared.view)).toEqual(['Importer Name', 'HS Code', 'Value (USD)', 'Remarks']);
    const r = await runImport(l.lib, path, prepared);
    expect(r.rows).toBe(2);
    expect(r.dataset.extraColumns).toEqual(['Remarks']);
    expect(await extrasOf(r.dataset.id)).toEqual([[0, { Remarks: 'urgent' }]]);
  });

  it('a column with no name past Z is named by its letters as a spreadsheet names it ("Column AA")', async () => {
    const named = ['Importer Name', 'HS Code', ...Array.from({ length: 24 }, (_, i) => `Note ${i + 3}`)];
    const path = join(t.dir, 'wide.csv');
    await writeFile(
      path,
      [
        [...named, '', ''].join(','),
        ['Acme', '720810', ...named.slice(2).map(() => 'x'), 'late', 'later'].join(','),
        '',
      ].join('\r\n'),
    );
    const prepared = await previewImport(path);
    expect(prepared.view.columns.map((c) => c.header).slice(24)).toEqual([
      'Note 25',
      'Note 26',
      'Column AA',
      'Column AB',
    ]);
  });

  it('a column whose header cell says "Column G" is named so by the file, and is listed and kept though empty', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Entries');
    // A colleague's template names its spare columns by their letters; nothing was entered under them.
    ws.addRow(['Importer Name', 'HS Code', 'Value (USD)', 'Remarks', null, 'Column F', 'Column G']);
    ws.addRow(['Acme Steel', '720810', 10, 'urgent', null, null, null]);
    ws.addRow(['Beta Metals', '720811', 20, null, null, null, null]);
    const path = join(t.dir, 'template.xlsx');
    await wb.xlsx.writeFile(path);
    const prepared = await previewImport(path);
    expect(listed(prepared.view)).toEqual([
      'Importer Name',
      'HS Code',
      'Value (USD)',
      'Remarks',
      'Column F',
      'Column G',
    ]);
    const r = await runImport(l.lib, path, prepared);
    expect(r.dataset.extraColumns).toEqual(['Remarks', 'Column F', 'Column G']);
  });

  it.each(ENCODINGS)(
    'a CSV (%s) whose header says "Column D" over an empty column lists and keeps it',
    async (_encoding, encode) => {
      const path = join(t.dir, `named-${_encoding}.csv`);
      await writeFile(
        path,
        encode(
          'Importer Name,HS Code,Value (USD),Column D,\r\nAcme Société,720810,10,,\r\nBeta,720811,20,,\r\n',
        ),
      );
      const prepared = await previewImport(path);
      expect(listed(prepared.view)).toEqual(['Importer Name', 'HS Code', 'Value (USD)', 'Column D']);
      const r = await runImport(l.lib, path, prepared);
      expect(r.dataset.extraColumns).toEqual(['Column D']);
    },
  );

  it.each(ENCODINGS)(
    'an unnamed column (%s) whose only value is in the last row, past the preview’s rows, is imported',
    async (_encoding, encode) => {
      const path = join(t.dir, `late-${_encoding}.csv`);
      const lines = ['Importer Name,HS Code,Value (USD),,'];
      for (let i = 1; i <= 300; i++) lines.push(`Importer ${i},720810,${i},,`);
      lines[300] = 'Importer 300,720810,300,,checked é';
      // A column with no name but a value in the preview's rows is listed: nothing to say of it.
      lines[1] = 'Importer 1,720810,1,seen,';
      await writeFile(path, encode(`${lines.join('\n')}\n`));
      const prepared = await previewImport(path);
      // The preview's rows hold nothing under it: not listed, but not left out of the import either.
      expect(listed(prepared.view)).toEqual(['Importer Name', 'HS Code', 'Value (USD)', 'Column D']);
      expect(prepared.plan.leftOut ?? []).toEqual([]);
      // The whole-file check the dialog runs finds it, so the dialog lists it before the import.
      const checked = await checkImport(path, prepared);
      expect(checked.unnamedFound).toEqual([
        { index: 3, header: 'Column D', count: 1, at: 'row 2', example: 'seen' },
        { index: 4, header: 'Column E', count: 1, at: 'row 301', example: 'checked é' },
      ]);
      const r = await runImport(l.lib, path, prepared);
      expect(r.rows).toBe(300);
      expect(r.dataset.extraColumns).toEqual(['Column D', 'Column E']);
      expect(await extrasOf(r.dataset.id)).toEqual([
        [0, { 'Column D': 'seen' }],
        [299, { 'Column E': 'checked é' }],
      ]);
      // And the import, which may run before the check ends, says what it kept that was not listed.
      expect(r.warnings.map((w) => w.message)).toEqual([
        'Column E: a column with no name in the header row and nothing in the rows the preview showed holds 1 value further down (first: row 301, "checked é"). It is kept in the extra column Column E',
      ]);
    },
  );

  it('a sheet’s unnamed column with values only past the preview’s rows is found by the check and said by the import', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Entries');
    ws.addRow(['Importer Name', 'HS Code', 'Value (USD)']);
    for (let i = 1; i <= 120; i++) ws.addRow([`Importer ${i}`, '720810', i]);
    ws.getCell('D100').value = 'urgent';
    ws.getCell('D110').value = 'call back';
    const path = join(t.dir, 'late.xlsx');
    await wb.xlsx.writeFile(path);
    const prepared = await previewImport(path);
    expect(listed(prepared.view)).toEqual(['Importer Name', 'HS Code', 'Value (USD)']);
    expect((await checkImport(path, prepared)).unnamedFound).toEqual([
      { index: 3, header: 'Column D', count: 2, at: 'row 100', example: 'urgent' },
    ]);
    const r = await runImport(l.lib, path, prepared);
    expect(r.dataset.extraColumns).toEqual(['Column D']);
    expect(r.warnings).toEqual([
      expect.objectContaining({
        field: 'Column D',
        count: 2,
        firstAt: 'sheet Entries, row 100',
        message:
          'Column D: a column with no name in the header row and nothing in the rows the preview showed holds 2 values further down (first: sheet Entries, row 100, "urgent"). They are kept in the extra column Column D',
      }),
    ]);
  });
});
