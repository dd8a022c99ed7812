import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { previewImport, runImport } from '../../src/main/library';
import { dateOrderOf } from '../../src/main/library/import/xlsx/number-formats';
import { useLibrary } from '../helpers/library';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-import-date-formats-');
const l = useLibrary('portolan-import-date-formats-lib-');

const day = (y: number, m: number, d: number): Date => new Date(Date.UTC(y, m - 1, d));

/**
 * A colleague's sheet: some arrival dates are real date cells shown as `format`, others were typed or
 * pasted as text ("03/04/2025") that Excel did not take for dates.
 */
async function sheet(
  name: string,
  format: string,
  opts: { where: 'column' | 'sheet' } = { where: 'column' },
): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Arrivals');
  ws.addRow(['Importer Name', 'HS Code', 'Arrival Date', 'Entry Date']);
  ws.addRow(['Acme Steel', '720810', '03/04/2025', day(2025, 4, 2)]);
  ws.addRow(['Beta Metals', '720811', '05/06/2025', day(2025, 6, 4)]);
  if (opts.where === 'column') {
    ws.addRow(['Gamma Trade', '720812', day(2025, 2, 1), null]);
    ws.getCell('C4').numFmt = format;
  }
  ws.getCell('D2').numFmt = format;
  ws.getCell('D3').numFmt = format;
  const path = join(t.dir, name);
  await wb.xlsx.writeFile(path);
  return path;
}

async function arrivals(id: string): Promise<unknown[]> {
  return (await l.lib.getRows(id, { startRow: 0, endRow: 100 })).rows.map((r) => r.arrivalDate);
}

describe('a workbook’s date formats decide the order of dates typed as text', () => {
  it('reads "03/04/2025" as 3 April where the column’s date cells are formatted dd/mm/yyyy, and says why', async () => {
    const path = await sheet('uk desk.xlsx', 'dd/mm/yyyy');
    const prepared = await previewImport(path);
    expect(prepared.view.locale.dates).toBe('dmy');
    expect(prepared.view.localeProof.dateFormat).toBe('dd/mm/yyyy');
    expect(prepared.view.columns.find((c) => c.header === 'Arrival Date')?.samples).toEqual([
      '2025-04-03',
      '2025-06-05',
      '2025-02-01',
    ]);
    const r = await runImport(l.lib, path, prepared);
    expect(await arrivals(r.dataset.id)).toEqual(['2025-04-03', '2025-06-05', '2025-02-01']);
  });

  it('takes the order from date cells elsewhere in the sheet when the column has none', async () => {
    const path = await sheet('uk desk sheet.xlsx', 'd.m.yy', { where: 'sheet' });
    const prepared = await previewImport(path);
    expect(prepared.view.locale.dates).toBe('dmy');
    expect(prepared.view.localeProof.dateFormat).toBe('d.m.yy');
  });

  it('reads them month first where the date cells are formatted mm/dd/yyyy', async () => {
    const path = await sheet('us desk.xlsx', 'mm/dd/yyyy');
    const prepared = await previewImport(path);
    expect(prepared.view.locale.dates).toBe('mdy');
    expect(prepared.view.localeProof.dateFormat).toBe('mm/dd/yyyy');
    expect(prepared.view.columns.find((c) => c.header === 'Arrival Date')?.samples.slice(0, 2)).toEqual([
      '2025-03-04',
      '2025-05-06',
    ]);
  });

  it('leaves the order in question where the cells show the system’s short date, which says nothing of it', async () => {
    // Excel's built-in short date (id 14) is shown in each reader's regional order whatever its code.
    const path = await sheet('system dates.xlsx', 'mm-dd-yy');
    const prepared = await previewImport(path);
    expect(prepared.view.dateOrderMatters).toBe(true);
    expect(prepared.view.localeProof.dates).toBeNull();
    expect(prepared.view.localeProof.dateFormat ?? null).toBeNull();
  });

  it('lets a text date that proves the order win over a cell format', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Arrivals');
    ws.addRow(['Importer Name', 'Arrival Date', 'Entry Date']);
    ws.addRow(['Acme Steel', '12/31/2025', day(2025, 12, 30)]);
    ws.addRow(['Beta Metals', '01/02/2026', day(2026, 1, 1)]);
    ws.getCell('C2').numFmt = 'dd/mm/yyyy';
    ws.getCell('C3').numFmt = 'dd/mm/yyyy';
    const path = join(t.dir, 'proof.xlsx');
    await wb.xlsx.writeFile(path);
    const prepared = await previewImport(path);
    expect(prepared.view.locale.dates).toBe('mdy');
    expect(prepared.view.localeProof.dates).toBe('12/31/2025');
  });
});

describe('the day order a date format shows', () => {
  it.each([
    ['dd/mm/yyyy', 'dmy'],
    ['d.m.yy', 'dmy'],
    ['[$-809]dd/mm/yyyy;@', 'dmy'],
    ['dd/mm/yyyy hh:mm', 'dmy'],
    ['mm/dd/yyyy', 'mdy'],
    ['m/d/yy h:mm AM/PM', 'mdy'],
    // A month by name, a year first, a time alone: nothing said of "03/04/2025".
    ['d-mmm-yy', null],
    ['dd mmmm yyyy', null],
    ['yyyy-mm-dd', null],
    ['hh:mm:ss', null],
    ['dddd', null],
  ])('%s is %s', (code, order) => {
    expect(dateOrderOf(code)).toBe(order);
  });
});
