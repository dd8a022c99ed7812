import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { fieldTitleOf } from '@shared/fields';
import { SHIPMENT_FIELDS } from '@shared/spec/records';
import { FILTER_FIELDS } from '@shared/spec/filter';
import {
  createMemorySource,
  createMemorySummaryProvider,
  exportXlsx,
  firmColumns,
  shipmentColumns,
  toExportRows,
  type ExportColumnType,
  type ExportProgress,
  type ExportSource,
} from '../../src/main/export';
import { makeFirms, makeShipments } from '../helpers/export-records';
import { sampleQuery } from '../helpers/export-fixtures';
import { useTempDir } from '../helpers/temp-dir';

type Expected =
  | { kind: 'empty' }
  | { kind: 'number'; value: number }
  | { kind: 'date'; ms: number }
  | { kind: 'text'; value: string };

/** What a cell should hold, derived from the source text by the rules the spec implies. */
function expected(text: string, type: ExportColumnType): Expected {
  if (text === '') return { kind: 'empty' };
  // A number whose cell gives the text back exactly: no leading zeros, no "-0", at most 15 digits.
  const plainNumber =
    /^-?(0|[1-9]\d*)(\.\d+)?$/.test(text) &&
    !/^-0(\.0*)?$/.test(text) &&
    text.replace(/\D/g, '').replace(/^0+/, '').length <= 15;
  if ((type === 'decimal' || type === 'integer') && plainNumber)
    return { kind: 'number', value: Number(text) };
  if (type === 'date') {
    const ms = Date.parse(`${text}T00:00:00Z`);
    if (/^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(text))
      return { kind: 'date', ms };
  }
  if (type === 'epoch' && plainNumber) return { kind: 'date', ms: Number(text) * 1000 };
  return { kind: 'text', value: text };
}

function checkCell(cell: ExcelJS.Cell, want: Expected, where: string): void {
  switch (want.kind) {
    case 'empty':
      expect(cell.value, where).toBeNull();
      break;
    case 'number':
      expect(cell.type, where).toBe(ExcelJS.ValueType.Number);
      expect(cell.value, where).toBe(want.value);
      // Thousands separators and the text's own decimals.
      expect(cell.numFmt, where).toMatch(/^#,##0(\.0+)?$/);
      break;
    case 'date':
      expect(cell.type, where).toBe(ExcelJS.ValueType.Date);
      expect(Math.abs((cell.value as Date).getTime() - want.ms), where).toBeLessThanOrEqual(1);
      expect(cell.numFmt, where).toMatch(/yyyy-mm-dd/);
      break;
    case 'text':
      expect(cell.type, where).toBe(ExcelJS.ValueType.String);
      expect(cell.value, where).toBe(want.value);
      break;
  }
}

async function readWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

function queryMap(wb: ExcelJS.Workbook): Map<string, unknown> {
  const ws = wb.getWorksheet('Query');
  expect(ws).toBeDefined();
  const map = new Map<string, unknown>();
  ws?.eachRow((row, n) => {
    if (n > 1) map.set(String(row.getCell(1).value), row.getCell(2).value);
  });
  return map;
}

const t = useTempDir('portolan-export-test-');

describe('exportXlsx', () => {
  it.each(['direct', 'exceljs'] as const)(
    'writes every shipment field with the right cell type, header styled, frozen and filterable (%s rows)',
    async (rowEncoding) => {
      const rows = makeShipments(400);
      const columns = shipmentColumns();
      const source = createMemorySource({
        kind: 'shipments',
        columns,
        rows,
        query: sampleQuery,
        batchSize: 70,
      });
      const progress: ExportProgress[] = [];
      const out = join(t.dir, 'shipments.xlsx');
      const result = await exportXlsx(source, out, { onProgress: (p) => progress.push(p), rowEncoding });

      expect(result.rowsWritten).toBe(400);
      expect(result.bytes).toBe((await readFile(out)).length);
      expect(progress.at(-1)?.phase).toBe('finishing');
      expect(progress.some((p) => p.phase === 'rows' && p.rowsWritten === 400)).toBe(true);

      const wb = await readWorkbook(out);
      expect(wb.worksheets.map((w) => w.name)).toEqual(['Shipments', 'Query']);
      const ws = wb.getWorksheet('Shipments') as ExcelJS.Worksheet;
      expect(ws.rowCount).toBe(401);
      // Headers in the grid's words; the field names go on the Query sheet for a re-import.
      expect(ws.getRow(1).values).toEqual([
        undefined,
        ...SHIPMENT_FIELDS.map((f) => fieldTitleOf('shipments', f)),
      ]);
      expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
      expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(ws.autoFilter).toBe(`A1:${ws.getColumn(columns.length).letter}1`);
      for (let c = 1; c <= columns.length; c++) {
        const width = ws.getColumn(c).width ?? 0;
        expect(width).toBeGreaterThanOrEqual(10);
        expect(width).toBeLessThanOrEqual(60);
      }

      let numbers = 0;
      let dates = 0;
      let fillers = 0;
      rows.forEach((record, r) => {
        columns.forEach((col, c) => {
          const want = expected(record[col.field] ?? '', col.type);
          if (want.kind === 'number') numbers++;
          if (want.kind === 'date') dates++;
          if (want.kind === 'text' && col.type !== 'text') fillers++;
          checkCell(ws.getRow(r + 2).getCell(c + 1), want, `${col.field} row ${r + 2}`);
        });
      });
      // The fixture must actually exercise every branch, or the loop above proves little.
      expect(numbers).toBeGreaterThan(1000);
      expect(dates).toBeGreaterThan(700);
      expect(fillers).toBeGreaterThan(100);
    },
  );

  it('keeps fillers as text and never turns them into 0', async () => {
    const columns = shipmentColumns(['usdFob', 'arrivalDate', 'createdAt']);
    const rows = [
      { usdFob: '-', arrivalDate: 'N/A', createdAt: '' },
      { usdFob: 'N/A', arrivalDate: '-', createdAt: '-' },
      { usdFob: '', arrivalDate: '2024-02-30', createdAt: 'N/A' },
      { usdFob: '0', arrivalDate: '2024-02-29', createdAt: '1700000000.25' },
      { usdFob: '007.50', arrivalDate: '1899-12-31', createdAt: '12345678901234567890' },
      { usdFob: ' ', arrivalDate: 'a\r\nb <&> \u0001', createdAt: '1e3' },
    ];
    const out = join(t.dir, 'fillers.xlsx');
    await exportXlsx(createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery }), out);
    const ws = (await readWorkbook(out)).getWorksheet('Shipments') as ExcelJS.Worksheet;
    const cells = [2, 3, 4, 5, 6, 7].map((r) => [1, 2, 3].map((c) => ws.getRow(r).getCell(c).value));
    expect(cells[0]).toEqual(['-', 'N/A', null]);
    expect(cells[1]).toEqual(['N/A', '-', '-']);
    expect(cells[2]).toEqual([null, '2024-02-30', 'N/A']);
    expect(cells[3]).toEqual([0, new Date(Date.UTC(2024, 1, 29)), new Date(1_700_000_000_250)]);
    // Before Excel's calendar and beyond a double's digits: kept as the original text.
    // A leading zero or an exponent no number gives back: kept as the original text too.
    expect(cells[4]).toEqual(['007.50', '1899-12-31', '12345678901234567890']);
    // Blanks kept, CR LF kept, XML specials escaped; a control character XML cannot hold is dropped
    // (and listed on the Query sheet).
    expect(cells[5]).toEqual([' ', 'a\r\nb <&> ', '1e3']);
  });

  it('writes a Query sheet that gives back the exact filter and says how many rows were exported', async () => {
    const rows = makeShipments(30);
    const out = join(t.dir, 'q.xlsx');
    const exportedAt = new Date('2024-07-02T10:00:00.000Z');
    await exportXlsx(
      createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows, query: sampleQuery }),
      out,
      {
        now: () => exportedAt,
      },
    );
    const q = queryMap(await readWorkbook(out));
    expect(JSON.parse(String(q.get('filter')))).toEqual(sampleQuery.filter);
    for (const field of FILTER_FIELDS) expect(q.has(field), field).toBe(true);
    expect(q.get('importer_countries')).toBe('TR, CN');
    expect(q.get('product_detail')).toBe('pamuk "örme"');
    expect(q.get('end_date')).toBe('2024-06-30');
    expect(q.get('search_type')).toBeNull();
    expect(q.get('profile')).toBe('Türkiye desk');
    expect(q.get('account')).toBe('acme-analytics');
    expect(q.get('kind')).toBe('shipments');
    expect(q.get('fetched_at')).toBe(sampleQuery.fetchedAt);
    expect(q.get('total_reported')).toBe(123_456);
    expect(q.get('rows_exported')).toBe(30);
    expect(q.get('data_sheets')).toBe('Shipments');
    expect(q.has('sheet_split')).toBe(false);
    expect(q.get('app_version')).toBe('0.1.0-test');
    expect(q.get('exported_at')).toBe(exportedAt.toISOString());
  });

  it('continues on further sheets past the rows-per-sheet limit and says so', async () => {
    const rows = makeShipments(2_500, 7);
    const columns = shipmentColumns(['hashId', 'importerName', 'usdCif']);
    rows.forEach((r, i) => (r['hashId'] = `h${i}`));
    const out = join(t.dir, 'split.xlsx');
    await exportXlsx(
      createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery, batchSize: 333 }),
      out,
      {
        rowsPerSheet: 1_000,
      },
    );
    const wb = await readWorkbook(out);
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'Shipments',
      'Shipments (2)',
      'Shipments (3)',
      'Query',
    ]);
    const ids: unknown[] = [];
    for (const name of ['Shipments', 'Shipments (2)', 'Shipments (3)']) {
      const ws = wb.getWorksheet(name) as ExcelJS.Worksheet;
      expect(ws.getRow(1).getCell(1).value).toBe('Hash ID');
      expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      ws.eachRow((row, n) => {
        if (n > 1) ids.push(row.getCell(1).value);
      });
    }
    expect(ids).toEqual(rows.map((r) => r['hashId']));
    expect([1001, 1001, 501]).toEqual(
      ['Shipments', 'Shipments (2)', 'Shipments (3)'].map((n) => wb.getWorksheet(n)?.rowCount),
    );
    const q = queryMap(wb);
    expect(q.get('data_sheets')).toBe('Shipments, Shipments (2), Shipments (3)');
    expect(String(q.get('sheet_split'))).toContain('3 sheets of at most 1,000 rows');
    expect(q.get('rows_exported')).toBe(2_500);
  });

  it('cuts text longer than an Excel cell at the limit, marks the cell and lists it in the Query sheet', async () => {
    const long = '长'.repeat(20_000) + 'x'.repeat(20_000);
    const rows = [{ productDetails: 'short' }, { productDetails: long }];
    const out = join(t.dir, 'long.xlsx');
    await exportXlsx(
      createMemorySource({
        kind: 'shipments',
        columns: shipmentColumns(['productDetails']),
        rows,
        query: sampleQuery,
      }),
      out,
    );
    const wb = await readWorkbook(out);
    const cell = String(wb.getWorksheet('Shipments')?.getRow(3).getCell(1).value);
    expect(cell.length).toBe(32_767);
    expect(cell.startsWith('长'.repeat(20_000) + 'x'.repeat(1000))).toBe(true);
    expect(cell).toMatch(/cut/);
    expect(String(queryMap(wb).get('cut_cells'))).toContain("'Shipments'!A3");
  });

  it('writes firms with whole numbers as numbers and unknown counts as empty cells', async () => {
    const rows = makeFirms(50);
    const out = join(t.dir, 'firms.xlsx');
    await exportXlsx(
      createMemorySource({ kind: 'firms', columns: firmColumns(), rows, query: sampleQuery }),
      out,
    );
    const wb = await readWorkbook(out);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Firms', 'Query']);
    const ws = wb.getWorksheet('Firms') as ExcelJS.Worksheet;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    const countCol = header.indexOf('Shipments') + 1;
    const nameCol = header.indexOf('Name') + 1;
    rows.forEach((r, i) => {
      expect(ws.getRow(i + 2).getCell(countCol).value).toBe(r['shipment_count']);
      expect(ws.getRow(i + 2).getCell(nameCol).value).toBe(r['name']);
    });
    expect(rows.some((r) => r['shipment_count'] === null)).toBe(true);
  });

  it('adds the summary sheets from the provider', async () => {
    const rows = makeShipments(600, 3);
    const out = join(t.dir, 'summary.xlsx');
    await exportXlsx(
      createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows, query: sampleQuery }),
      out,
      {
        summaries: { provider: createMemorySummaryProvider(rows) },
      },
    );
    const wb = await readWorkbook(out);
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'Shipments',
      'Query',
      'Top importers',
      'Top exporters',
      'By HS code',
      'By month',
    ]);
    const counts = new Map<string, number>();
    for (const r of rows)
      counts.set(
        `${r['importerName']}|${r['importerCountry']}`,
        (counts.get(`${r['importerName']}|${r['importerCountry']}`) ?? 0) + 1,
      );
    const top = wb.getWorksheet('Top importers')?.getRow(2);
    expect(top?.getCell(3).value).toBe(Math.max(...counts.values()));
    expect(counts.get(`${top?.getCell(1).value}|${top?.getCell(2).value}`)).toBe(top?.getCell(3).value);
    let monthTotal = 0;
    wb.getWorksheet('By month')?.eachRow((row, n) => {
      if (n > 1) monthTotal += Number(row.getCell(2).value);
    });
    expect(monthTotal).toBe(600);
  });

  it('sizes columns from the first 500 rows however small the source’s batches are', async () => {
    // Short names in the first rows, 40 characters from row 100 on, 200 past row 500: the width is
    // that of the 40-character names (the sample's 90th percentile), not of the first batch alone,
    // and nothing past the sample widens the column.
    const name = (i: number): string => (i < 100 ? 'ab' : i < 500 ? 'n'.repeat(40) : 'w'.repeat(200));
    const rows = Array.from({ length: 700 }, (_, i) => ({ importerName: name(i), usdFob: String(i) }));
    const columns = shipmentColumns(['importerName', 'usdFob']);
    const out = join(t.dir, 'widths.xlsx');
    const source = createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery, batchSize: 7 });
    expect((await exportXlsx(source, out)).rowsWritten).toBe(700);
    const ws = (await readWorkbook(out)).getWorksheet('Shipments') as ExcelJS.Worksheet;
    expect(ws.getColumn(1).width).toBe(42);
    expect(ws.rowCount).toBe(701);
    expect(ws.getRow(701).values).toEqual([undefined, 'w'.repeat(200), 699]);
    expect(ws.getRow(2).values).toEqual([undefined, 'ab', 0]);
  });

  it('writes a header-only sheet for an empty source', async () => {
    const out = join(t.dir, 'empty.xlsx');
    const result = await exportXlsx(
      createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows: [], query: sampleQuery }),
      out,
    );
    expect(result.rowsWritten).toBe(0);
    const wb = await readWorkbook(out);
    expect(wb.getWorksheet('Shipments')?.rowCount).toBe(1);
    expect(queryMap(wb).get('rows_exported')).toBe(0);
  });
});

describe('exportXlsx and the main process', () => {
  it('lets timers run between pieces of rows, so the main process keeps answering during an export', async () => {
    const columns = shipmentColumns();
    // Few enough rows that their XML never fills the zip's 4 MB backlog, whose wait would give timers a turn too.
    const rows = toExportRows(columns, makeShipments(1_000));
    let handedOut = 0;
    const source: ExportSource = {
      kind: 'shipments',
      columns,
      rowCount: rows.length,
      query: sampleQuery,
      // Batches handed over without touching the event loop, as rows already in memory are: any turn a
      // timer gets comes from the writer itself.
      async *batches() {
        for (let i = 0; i < rows.length; i += 50) {
          handedOut = i + 50;
          yield rows.slice(i, i + 50);
        }
      },
    };
    let handedOutWhenTimerRan: number | null = null;
    const exported = exportXlsx(source, join(t.dir, 'answering.xlsx'));
    setTimeout(() => (handedOutWhenTimerRan = handedOut), 0);
    const result = await exported;
    expect(result.rowsWritten).toBe(1_000);
    expect(handedOutWhenTimerRan).not.toBeNull();
    expect(handedOutWhenTimerRan!).toBeLessThan(1_000);
  });
});

describe('exportXlsx file safety', () => {
  function abortingSource(after: number, controller: AbortController, fail?: Error): ExportSource {
    const rows = toExportRows(shipmentColumns(), makeShipments(500));
    return {
      kind: 'shipments',
      columns: shipmentColumns(),
      rowCount: 5_000,
      query: sampleQuery,
      async *batches() {
        for (let i = 0; i < 10; i++) {
          if (i === after) {
            if (fail) throw fail;
            controller.abort();
          }
          yield rows;
        }
      },
    };
  }

  it('leaves no file, not even a temp file, when cancelled mid-way', async () => {
    const controller = new AbortController();
    const out = join(t.dir, 'cancelled.xlsx');
    await expect(
      exportXlsx(abortingSource(2, controller), out, { signal: controller.signal }),
    ).rejects.toMatchObject({ kind: 'Cancelled' });
    expect(await t.files()).toEqual([]);
  });

  it('leaves no file when cancelled before the first row, or with a signal already aborted', async () => {
    const controller = new AbortController();
    await expect(
      exportXlsx(abortingSource(0, controller), join(t.dir, 'early.xlsx'), { signal: controller.signal }),
    ).rejects.toMatchObject({
      kind: 'Cancelled',
    });
    await expect(
      exportXlsx(abortingSource(5, new AbortController()), join(t.dir, 'pre.xlsx'), {
        signal: AbortSignal.abort(),
      }),
    ).rejects.toMatchObject({ kind: 'Cancelled' });
    expect(await t.files()).toEqual([]);
  });

  it('leaves no file when the source fails mid-way, and reports the failure', async () => {
    const out = join(t.dir, 'failed.xlsx');
    await expect(
      exportXlsx(abortingSource(3, new AbortController(), new Error('disk said no')), out),
    ).rejects.toThrow('disk said no');
    expect(await t.files()).toEqual([]);
  });

  it('fails, rather than waiting forever, when the file cannot be written', async () => {
    const source = createMemorySource({
      kind: 'shipments',
      columns: shipmentColumns(),
      rows: makeShipments(3_000),
      query: sampleQuery,
    });
    await expect(exportXlsx(source, join(t.dir, 'missing-folder', 'x.xlsx'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await t.files()).toEqual([]);
  });

  it('never replaces an existing file unless asked to', async () => {
    const out = join(t.dir, 'taken.xlsx');
    await writeFile(out, 'precious');
    const source = createMemorySource({
      kind: 'shipments',
      columns: shipmentColumns(),
      rows: makeShipments(5),
      query: sampleQuery,
    });
    await expect(exportXlsx(source, out)).rejects.toMatchObject({ kind: 'Conflict' });
    expect(await readFile(out, 'utf8')).toBe('precious');
    expect(await t.files()).toEqual(['taken.xlsx']);

    await exportXlsx(source, out, { overwrite: true });
    expect((await readWorkbook(out)).getWorksheet('Shipments')?.rowCount).toBe(6);
    expect(await t.files()).toEqual(['taken.xlsx']);
  });
});
