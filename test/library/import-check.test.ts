import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Events } from '@shared/ipc/contract';
import type { ImportCheckView, ImportPreviewView } from '@shared/library/import-contract';
import { checkImport, previewImport } from '../../src/main/library';
import { useImportHandlers } from './import-handlers';

/**
 * The import dialog's whole-file check, from main's side over the real handlers and the real import
 * worker: files written by exceljs and as CSV text, whose trouble sits far below the rows a preview
 * reads; progress as events, cancel, a newer check replacing an older one, the caps, and the input
 * checked before anything is read.
 */
const main = useImportHandlers('portolan-import-check-');
const { events, call, ok } = main;

/** A file as the Library's import flow holds it: a handle, and its preview. */
async function chosen(path: string): Promise<{ handle: string; preview: ImportPreviewView }> {
  const file = await main.handlers.droppedFiles.adoptImport(path);
  const preview = await ok<ImportPreviewView>('library.previewImport', { file: file.handle });
  return { handle: file.handle, preview };
}

const planOf = (p: ImportPreviewView) => ({
  sheet: p.sheet,
  headerRow: p.headerRow,
  kind: p.kind,
  mapping: p.columns.map((c) => c.field),
  locale: p.locale,
});

function checkEvents(checkId: string): Events['library.importCheck'][] {
  return events
    .filter((e) => e.event === 'library.importCheck')
    .map((e) => e.payload as Events['library.importCheck'])
    .filter((e) => e.checkId === checkId);
}

/** 3,000 rows whose odd values all sit below the preview's first rows. */
async function deskWorkbook(): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Data');
  ws.addRow(['Arrival Date', 'Importer Name', 'HS Code', 'USD FOB']);
  for (let i = 1; i <= 3000; i++) {
    const row = ws.addRow(['2025-01-05', `Firm ${i}`, '720810', 100 + i]);
    if (i === 1000 || i === 2000 || i === 2100) row.getCell(3).value = 30110;
    if (i === 2500) row.getCell(4).value = { formula: `D${i}*2` } as ExcelJS.CellFormulaValue;
    if (i === 2999) row.getCell(1).value = '31/02/2025';
    if (i === 1500) row.getCell(2).value = 'M\ufffdller GmbH';
  }
  const path = join(main.dir, 'desk workbook.xlsx');
  await wb.xlsx.writeFile(path);
  return path;
}

async function bigCsv(rows: number, name = 'big.csv'): Promise<string> {
  const lines = ['importerName;hsCode;usdFob;arrivalDate'];
  for (let i = 1; i <= rows; i++) {
    const date = i % 50_000 === 0 ? '32.13.2025' : '05.01.2025';
    lines.push(`Firm number ${i};720810;${i},50;${date}`);
    if (i === 70_000) lines.push('');
  }
  const path = join(main.dir, name);
  await writeFile(path, lines.join('\n'));
  return path;
}

describe('the whole-file check of an import plan', () => {
  it('counts, over every row of a workbook, what the preview’s first rows do not show, in the dialog’s words', async () => {
    const stored = await ok<unknown[]>('library.list', {});
    const { handle, preview } = await chosen(await deskWorkbook());
    // The preview reads the head only: nothing odd there.
    expect(preview.issues).toEqual([]);
    expect(preview.rowsChecked).toBeLessThan(100);

    const checked = await ok<ImportCheckView>('library.checkImport', {
      file: handle,
      plan: planOf(preview),
      checkId: 'check-workbook-1',
    });
    expect(checked).toMatchObject({ checkId: 'check-workbook-1', done: true, rowsChecked: 3000 });
    expect(checked.rowsTotal).toBe(3000);
    const byField = Object.fromEntries(checked.issues.map((w) => [w.field, w]));
    expect(byField.hsCode).toMatchObject({ count: 3, at: ['row 1001', 'row 2001', 'row 2101'] });
    expect(byField.hsCode!.message).toMatch(
      /^HS Code: 3 codes lost their leading zero in a spreadsheet \(first: row 1001, "30110"\)/,
    );
    expect(byField.usdFob).toMatchObject({ count: 1, at: ['row 2501'] });
    expect(byField.usdFob!.message).toMatch(/^USD FOB: 1 formula cell has no stored result/);
    expect(byField.arrivalDate).toMatchObject({ count: 1, example: '31/02/2025', at: ['row 3000'] });
    expect(byField.arrivalDate!.message).toMatch(/^Arrival Date: 1 value is not a date/);
    expect(byField.importerName).toMatchObject({ count: 1, at: ['row 1501'] });
    expect(byField.importerName!.message).toMatch(
      /^Importer Name: 1 value holds characters that could not be read/,
    );
    // Field titles as the dialog shows them, never the record's names.
    expect(checked.issues.map((w) => w.message).join('\n')).not.toMatch(
      /hsCode|usdFob|arrivalDate|importerName/,
    );
    // Nothing stored (another test of the file may have imported before).
    expect(await ok<unknown[]>('library.list', {})).toEqual(stored);
  }, 60_000);

  it('reports a long CSV’s progress as it reads, with an estimate of its rows, under the analyst’s locale', async () => {
    const { handle, preview } = await chosen(await bigCsv(120_000));
    const plan = planOf(preview);
    expect(plan.mapping).toEqual(['importerName', 'hsCode', 'usdFob', 'arrivalDate']);
    expect(preview.locale.decimal).toBe(',');
    const checked = await ok<ImportCheckView>('library.checkImport', {
      file: handle,
      plan,
      checkId: 'check-csv-1',
    });
    expect(checked).toMatchObject({ done: true, rowsChecked: 120_000, rowsTotal: 120_000, blankRows: 1 });
    // Decimal commas are fine under the confirmed locale; two impossible dates are not.
    expect(checked.issues.map((w) => [w.field, w.count])).toEqual([['arrivalDate', 2]]);
    expect(checked.issues[0]!.at).toEqual(['row 50001', 'row 100002']);

    const seen = checkEvents('check-csv-1');
    expect(seen.length).toBeGreaterThan(0);
    const counts = seen.map((e) => e.rowsChecked);
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
    for (const e of seen) {
      expect(e.done).toBe(false);
      // The last one can come once every row is read, before the result is made.
      expect(e.rowsChecked).toBeLessThanOrEqual(120_000);
      // A CSV says not how many rows it holds: estimated from the share of its bytes read.
      expect(e.totalIsEstimate).toBe(true);
      expect(e.rowsTotal).toBeGreaterThan(100_000);
      expect(e.rowsTotal).toBeLessThan(140_000);
    }

    // The same file read with dots for decimals: every value of USD FOB is odd now.
    const dots = await ok<ImportCheckView>('library.checkImport', {
      file: handle,
      plan: { ...plan, locale: { ...plan.locale, decimal: '.' } },
      checkId: 'check-csv-2',
    });
    expect(dots.issues.find((w) => w.field === 'usdFob')?.count).toBe(120_000);
  }, 90_000);

  it('stops when asked, and a newer check replaces one still under way', async () => {
    const { handle, preview } = await chosen(await bigCsv(400_000, 'long.csv'));
    const plan = planOf(preview);
    const first = call<ImportCheckView>('library.checkImport', { file: handle, plan, checkId: 'check-a' });
    await expect.poll(() => checkEvents('check-a').length, { timeout: 20_000 }).toBeGreaterThan(0);
    const second = call<ImportCheckView>('library.checkImport', { file: handle, plan, checkId: 'check-b' });
    expect(await first).toMatchObject({ ok: false, error: { kind: 'Cancelled' } });
    await expect.poll(() => checkEvents('check-b').length, { timeout: 20_000 }).toBeGreaterThan(0);
    // Another check's id stops nothing; its own does.
    expect(await call('library.cancelImportCheck', { checkId: 'check-a' })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(await call('library.cancelImportCheck', { checkId: 'check-b' })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(await second).toMatchObject({ ok: false, error: { kind: 'Cancelled' } });
    const last = checkEvents('check-b').at(-1)!;
    expect(last.rowsChecked).toBeLessThan(400_000);
  }, 90_000);

  it('refuses a file past the caps as the import would', async () => {
    const path = await deskWorkbook();
    const limits = { maxFileBytes: 1e9, maxJsonBytes: 1e8, maxUncompressedBytes: 1e9, maxCells: 4_000 };
    const prepared = await previewImport(path);
    await expect(checkImport(path, prepared, { limits })).rejects.toThrow(/more than 4,000 cells/);
  });

  it('checks its input in main before reading anything', async () => {
    const { handle, preview } = await chosen(await deskWorkbook());
    const plan = planOf(preview);
    for (const input of [
      { file: handle, plan, checkId: '../../etc' },
      { file: handle, plan },
      { file: '/etc/passwd', plan, checkId: 'check-x' },
      { file: handle, plan: { ...plan, mapping: ['notAField', null, null, null] }, checkId: 'check-x' },
      { file: handle, plan, checkId: 'check-x', extra: true },
    ]) {
      const r = await call('library.checkImport', input);
      expect(r).toMatchObject({ ok: false, error: { kind: 'InvalidInput' } });
    }
    const tooWide = await call('library.checkImport', {
      file: handle,
      plan: { ...plan, mapping: [...plan.mapping, null, null] },
      checkId: 'check-y',
    });
    expect(tooWide).toMatchObject({
      ok: false,
      error: { kind: 'InvalidInput', message: /more columns than the file has/ },
    });
    expect(await call('library.cancelImportCheck', { checkId: '' })).toMatchObject({
      ok: false,
      error: { kind: 'InvalidInput' },
    });
  });

  it('checks and imports without a column the analyst leaves out, and offers that again for the same columns', async () => {
    const path = join(main.dir, 'left-out.csv');
    const lines = ['Arrival Date,Importer Name,Internal ref'];
    for (let i = 1; i <= 500; i++) lines.push(`2025-01-05,Firm ${i},${i === 400 ? '32.01.2026' : 'ref'}`);
    await writeFile(path, lines.join('\n'));
    const first = await chosen(path);
    const plan = planOf(first.preview);
    // Read as a number, the reference column would not import as it is; left out, it is not looked at.
    const asNumber = await ok<ImportCheckView>('library.checkImport', {
      file: first.handle,
      plan: { ...plan, mapping: ['arrivalDate', 'importerName', 'usdFob'] },
      checkId: 'check-as-number',
    });
    expect(asNumber.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/^USD FOB: 1 value .*row 401/),
    ]);
    const leftOut = { ...plan, mapping: ['arrivalDate', 'importerName', null], leftOut: [2] };
    const checked = await ok<ImportCheckView>('library.checkImport', {
      file: first.handle,
      plan: leftOut,
      checkId: 'check-left-out',
    });
    expect(checked).toMatchObject({ rowsChecked: 500, issues: [], done: true });
    const imported = await ok<{ rows: number; dataset: { extraColumns: string[] } }>('library.import', {
      file: first.handle,
      plan: leftOut,
    });
    expect(imported).toMatchObject({ rows: 500, dataset: { extraColumns: [] } });
    const again = await chosen(path);
    expect(again.preview.remembered).toBe(true);
    expect(again.preview.columns.map((c) => [c.field, c.leftOut])).toEqual([
      ['arrivalDate', false],
      ['importerName', false],
      [null, true],
    ]);
  });
});
