import { DuckDBInstance } from '@duckdb/node-api';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDecimalText, parseIsoDay } from '@shared/fields';
import { QUERY_KEYS } from '@shared/export/query-sheet-keys';
import { FIRM_FIELDS, SHIPMENT_FIELDS } from '@shared/spec/records';
import {
  createMemorySource,
  exportParquet,
  firmColumns,
  firmFieldType,
  libraryExportSource,
  shipmentColumns,
  type ExportColumn,
  type ExportSource,
} from '../../src/main/export';
import { importFile } from '../../src/main/library';
import { sampleQuery } from '../helpers/export-fixtures';
import { makeFirms } from '../helpers/export-records';
import { useLibrary } from '../helpers/library';
import { useTempDir } from '../helpers/temp-dir';
import { simulatorRecords } from './simulator-records';
import { readParquetCells, type ParquetCells } from './readers/parquet-cells';
import { hasPyarrow, readParquetCellsWithPyarrow } from './readers/pyarrow-cells';
import type { ParquetShape } from './parquet-shape';

const t = useTempDir('portolan-parquet-rt-');
const l = useLibrary('portolan-parquet-rt-lib-');

/** The simulator's data these tests read. */
const SEED = 23;

type Rec = Record<string, string | null>;

/** Values a typed file tends to change, on top of a simulator record. */
function tricky(base: Rec): Rec[] {
  const cases: Partial<Rec>[] = [
    { usdFob: '1,234.50', usdCif: '-1,234,567.5', createdAt: '1714567890', updatedAt: '1714567890.5' },
    { usdFob: '0.10', usdCif: '1e3', createdAt: '1714567890.123456', arrivalDate: '2024-02-29' },
    { usdFob: '007', usdCif: '12345678901234567', arrivalDate: ' 2024-01-05', quantity: '-0' },
    { usdFob: 'N/A', usdCif: '-', arrivalDate: '2023-02-30', createdAt: '-', updatedAt: '' },
    { importerName: '=1+2', productDetails: 'line1\r\nline2 <&> "quoted"', exporterName: '  padded  ' },
    { productDetails: 'literal _x0041_ stays', importerName: 'Bell\u0007 Ltd', grossWeight: '12,345' },
    {
      usdFob: '.5',
      usdCif: '5.',
      fobValue: '+3',
      cifValue: '1.5e3',
      netWeight: 'NaN',
      grossWeight: 'Infinity',
    },
    { usdFob: '-0.00', usdCif: '1,23', fobValue: '12,5', cifValue: ' 12 ', quantity: '12.0', netWeight: '0' },
    { createdAt: '1714567890.1234567', updatedAt: '-1.5', arrivalDate: '0001-01-01' },
    { createdAt: '99999999999.000001', updatedAt: '253402300800', arrivalDate: '9999-12-31' },
    { createdAt: '1.7e9', updatedAt: '0', arrivalDate: '2024-1-5', month: '1e400' },
    { arrivalDate: '2024-01-05T10:00:00', usdFob: '1,234,567,890,123.45', itemNo: '00' },
    { productDetails: 'x'.repeat(70_000), importerName: '深圳市华强电子有限公司 🚢', hsCode: '030110' },
    { importerName: null, usdFob: null, createdAt: null, arrivalDate: null, productDetails: '' },
    { usdFob: '   ', usdCif: '\t', arrivalDate: ' ', createdAt: ' 1714567890.5 ' },
  ];
  return cases.map((c) => ({ ...base, ...c }) as Rec);
}

/** The file's documented rendering of a typed value back to text, written here from the rule alone. */
function render(shape: ParquetShape, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  switch (shape.type) {
    case 'decimal': {
      const n = v as number;
      const d = Number.isInteger(n) ? shape.wholeDecimals! : shape.decimals!;
      // toFixed drops the sign of a negative zero; the rule writes the number as it is ("-0.00").
      const fixed = Object.is(n, -0) ? `-${(0).toFixed(d)}` : n.toFixed(d);
      if (!shape.grouped) return fixed;
      const [whole, frac] = fixed.split('.');
      const sign = whole!.startsWith('-') ? '-' : '';
      const digits = whole!.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      return `${sign}${digits}${frac === undefined ? '' : `.${frac}`}`;
    }
    case 'date':
      return new Date((v as number) * 86_400_000).toISOString().slice(0, 10).padStart(10, '0');
    case 'epoch': {
      const us = v as bigint;
      const abs = us < 0n ? -us : us;
      const frac = String(abs % 1_000_000n)
        .padStart(6, '0')
        .slice(0, shape.decimals!);
      return `${us < 0n ? '-' : ''}${abs / 1_000_000n}${shape.decimals! > 0 ? `.${frac}` : ''}`;
    }
    case 'integer':
      return String(v);
    default:
      return v as string;
  }
}

/** What a text stands for under the shared value rules, as the independent reader returns it. */
function expectedTyped(type: string, text: string | null): unknown {
  if (text === null || text === '') return null;
  switch (type) {
    case 'decimal':
      return parseDecimalText(text);
    case 'date': {
      const d = parseIsoDay(text);
      if (!d) return null;
      // Date.UTC reads years 0–99 as 1900–1999: the year is set on its own.
      const at = new Date(Date.UTC(2000, d.month - 1, d.day));
      at.setUTCFullYear(d.year);
      return at.getTime() / 86_400_000;
    }
    case 'epoch': {
      // Instants of the years 1 to 9999.
      const inRange = (us: bigint): bigint | null =>
        us >= -62135596800000000n && us <= 253402300799999999n ? us : null;
      const m = /^(-?)(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text);
      if (m)
        return inRange(
          (m[1] ? -1n : 1n) * (BigInt(m[2]!) * 1_000_000n + BigInt((m[3] ?? '').padEnd(6, '0'))),
        );
      const s = parseDecimalText(text);
      return s === null || Math.abs(s) >= 253402300800 ? null : inRange(BigInt(Math.round(s * 1e6)));
    }
    case 'integer':
      return /^-?\d{1,18}$/.test(text) ? BigInt(text) : null;
    default:
      return text;
  }
}

function metaOf(cells: ParquetCells): { kind: string; columns: ParquetShape[]; query: [string, string][] } {
  return JSON.parse(cells.metadata['portolan']!) as {
    kind: string;
    columns: ParquetShape[];
    query: [string, string][];
  };
}

/**
 * Every cell the independent reader sees against the source: typed cells hold what their text stands
 * for, and the text comes back from the typed value by the documented rule, or from `_original_text`
 * (which holds nothing the rule gives back). Answers how many cells needed their original text.
 */
function expectCellsEqual(
  cells: ParquetCells,
  columns: readonly ExportColumn[],
  rows: readonly Rec[],
): number {
  const shapes = new Map(metaOf(cells).columns.map((s) => [s.name, s]));
  expect(cells.rows).toHaveLength(rows.length);
  let kept = 0;
  rows.forEach((rec, r) => {
    const row = cells.rows[r]!;
    const originals = (row['_original_text'] ?? {}) as Record<string, string>;
    for (const col of columns) {
      const where = `row ${r + 1} ${col.field}`;
      const source = rec[col.field] ?? null;
      const value = row[col.header];
      if (col.type === 'text') {
        expect(value, where).toBe(source);
        continue;
      }
      const typed = expectedTyped(col.type, source);
      if (col.type === 'epoch' && typeof typed === 'bigint' && typeof value === 'bigint')
        // Seconds beyond microseconds are read through a double: within a microsecond.
        expect(Number(value - typed) ** 2, where).toBeLessThanOrEqual(1);
      else expect(value, where).toEqual(typed);
      const rendered = render(shapes.get(col.header)!, value);
      const original = originals[col.header];
      const text = original ?? rendered;
      expect(text ?? '', where).toBe(source ?? '');
      if (original !== undefined) {
        kept += 1;
        expect(rendered, `${where}: kept although the rule gives it back`).not.toBe(original);
      }
    }
  });
  return kept;
}

const query = { ...sampleQuery, totalReported: null };

describe('Parquet exports: typed, and read back exactly', () => {
  it('simulator shipments and tricky values: real types, every cell equal to the source by an independent reader, DuckDB agreeing', async () => {
    const sim = await simulatorRecords(400, SEED);
    const rows = [...sim, ...tricky(sim[0]!)];
    const columns = shipmentColumns();
    const path = join(t.dir, 'shipments.parquet');
    const result = await exportParquet(createMemorySource({ kind: 'shipments', columns, rows, query }), path);
    expect(result.rowsWritten).toBe(rows.length);

    const cells = await readParquetCells(path);
    const types = Object.fromEntries(
      cells.columns.map((c) => [c.name, `${c.physical ?? ''} ${c.logical}`.trim()]),
    );
    expect(types['usdFob']).toBe('DOUBLE');
    expect(types['quantity']).toBe('DOUBLE');
    expect(types['arrivalDate']).toBe('INT32 DATE');
    expect(types['createdAt']).toBe('INT64 TIMESTAMP(UTC, MICROS)');
    expect(types['importerName']).toMatch(/BYTE_ARRAY (UTF8|STRING)/);
    expect(types['_original_text']).toBe('MAP');
    expect(cells.columns.map((c) => c.name)).toEqual([...SHIPMENT_FIELDS, '_original_text']);

    const kept = expectCellsEqual(cells, columns, rows);
    // The simulator's own values are typed without a copy of their text, but for its fillers
    // ("-", "N/A" in netWeight, about 1 row in 10); the tricky rows need theirs.
    const simCopies = expectCellsEqual({ ...cells, rows: cells.rows.slice(0, sim.length) }, columns, sim);
    const fillers = sim.filter((r) => r['netWeight'] !== '' && parseDecimalText(r['netWeight']) === null);
    expect(fillers.length).toBeGreaterThan(10);
    expect(simCopies).toBe(fillers.length);
    expect(kept).toBeGreaterThan(simCopies);
    const keptTexts = new Set(
      cells.rows
        .slice(sim.length)
        .flatMap((row) => Object.values((row['_original_text'] ?? {}) as Record<string, string>)),
    );
    for (const text of ['N/A', '-', '2023-02-30', '007', '12345678901234567', '1e3', ' 2024-01-05', 'NaN'])
      expect(keptTexts.has(text), text).toBe(true);
    expect(keptTexts.has('1714567890.1234567')).toBe(true);

    // The file says what it holds: the kind, the fields, the query.
    const meta = metaOf(cells);
    expect(meta.kind).toBe('shipments');
    const q = new Map(meta.query);
    expect(JSON.parse(q.get(QUERY_KEYS.filter)!)).toEqual(sampleQuery.filter);
    expect(q.get(QUERY_KEYS.rowsExported)).toBe(String(rows.length));

    // DuckDB, the other reader, sees the same types and values.
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const file = `'${path.replace(/'/g, "''")}'`;
      const described = await (
        await conn.run(`DESCRIBE SELECT * FROM read_parquet(${file})`)
      ).getRowObjectsJson();
      const duckTypes = Object.fromEntries(described.map((d) => [d['column_name'], d['column_type']]));
      expect(duckTypes['usdFob']).toBe('DOUBLE');
      expect(duckTypes['arrivalDate']).toBe('DATE');
      expect(duckTypes['createdAt']).toBe('TIMESTAMP WITH TIME ZONE');
      expect(duckTypes['_original_text']).toBe('MAP(VARCHAR, VARCHAR)');
      const duck = await (
        await conn.run(
          `SELECT usdFob, CAST(epoch_us(createdAt) AS VARCHAR) AS us, CAST(arrivalDate AS VARCHAR) AS day, _original_text['netWeight'] AS nw FROM read_parquet(${file})`,
        )
      ).getRowObjectsJson();
      duck.forEach((d, r) => {
        const row = cells.rows[r]!;
        expect(d['usdFob'], `row ${r + 1}`).toBe(row['usdFob']);
        expect(d['us'], `row ${r + 1}`).toBe(row['createdAt'] === null ? null : String(row['createdAt']));
        const days = row['arrivalDate'] as number | null;
        expect(d['day'], `row ${r + 1}`).toBe(
          days === null ? null : render({ name: '', type: 'date' }, days),
        );
        expect(d['nw'] ?? undefined).toBe(
          (row['_original_text'] as Record<string, string> | undefined)?.['netWeight'],
        );
      });
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  }, 60_000);

  it('Portolan imports its own Parquet export back: every value of every column, the query restored', async () => {
    const sim = await simulatorRecords(300, SEED);
    const rows = [...tricky(sim[0]!), ...sim];
    const path = join(t.dir, 'back.parquet');
    await exportParquet(
      createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows, query }),
      path,
    );
    const r = await importFile(l.lib, path);
    expect(r.format).toBe('parquet');
    expect(r.rows).toBe(rows.length);
    expect(r.filterRestored).toBe(true);
    expect(r.dataset.status).toBe('complete');
    expect(r.dataset.request).toEqual(sampleQuery.filter);
    const back = (await l.lib.getRows(r.dataset.id, { startRow: 0, endRow: 1000 })).rows;
    rows.forEach((rec, i) => {
      for (const f of SHIPMENT_FIELDS) expect(back[i]?.[f], `row ${i + 1} ${f}`).toBe(rec[f] ?? '');
    });
  }, 60_000);

  it('the app’s path: a library dataset exported to Parquet imports back equal, field for field', async () => {
    const sim = await simulatorRecords(500, SEED);
    const records = [...sim, ...tricky(sim[1]!)].map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? ''])),
    );
    const saved = await l.lib.saveShipmentSearch(
      { hs_codes: ['0301'] },
      { total: records.length, shipments: records },
    );
    const { source } = await libraryExportSource(l.lib, saved.id, undefined, '9.9.9');
    const path = join(t.dir, 'library.parquet');
    await exportParquet(source, path);
    expectCellsEqual(await readParquetCells(path), source.columns, records);
    const r = await importFile(l.lib, path);
    expect(r.dataset.status).toBe('complete');
    expect(r.dataset.request).toEqual({ hs_codes: ['0301'] });
    const a = (await l.lib.getRows(saved.id, { startRow: 0, endRow: 1000 })).rows;
    const b = (await l.lib.getRows(r.dataset.id, { startRow: 0, endRow: 1000 })).rows;
    expect(b).toHaveLength(records.length);
    a.forEach((rec, i) => {
      for (const f of SHIPMENT_FIELDS) expect(b[i]?.[f], `row ${i + 1} ${f}`).toBe(rec[f]);
    });
  }, 60_000);

  it.skipIf(!hasPyarrow)(
    'the app’s path read by pyarrow: real types, every cell equal to the source, hyparquet agreeing',
    async () => {
      const sim = await simulatorRecords(2_000, SEED);
      const records = [...tricky(sim[2]!), ...sim].map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? ''])),
      );
      const saved = await l.lib.saveShipmentSearch(
        { hs_codes: ['7208'] },
        { total: records.length, shipments: records },
      );
      // A sorted view: the rows leave in the grid's order, not the stored one.
      const view = { sortModel: [{ colId: 'importerName', sort: 'desc' as const }] };
      const { source } = await libraryExportSource(l.lib, saved.id, view, '9.9.9');
      const path = join(t.dir, 'pyarrow.parquet');
      expect((await exportParquet(source, path)).rowsWritten).toBe(records.length);
      const sorted = (await l.lib.getRows(saved.id, { startRow: 0, endRow: 5_000, ...view })).rows.map((r) =>
        Object.fromEntries(SHIPMENT_FIELDS.map((f) => [f, (r[f] as string | null) ?? null])),
      );
      const cells = await readParquetCellsWithPyarrow(path);
      const types = Object.fromEntries(
        cells.columns.map((c) => [c.name, `${c.physical ?? ''} ${c.logical}`]),
      );
      expect(types['usdFob']).toBe('DOUBLE ');
      expect(types['arrivalDate']).toBe('INT32 Date');
      expect(types['createdAt']).toMatch(/^INT64 Timestamp\(isAdjustedToUTC=true, timeUnit=microseconds/);
      expect(types['importerName']).toBe('BYTE_ARRAY String');
      expect(types['_original_text']).toBe(' MAP');
      expect(expectCellsEqual(cells, source.columns, sorted)).toBeGreaterThan(0);
      // The JavaScript reader sees the very same cells (a row without kept texts: no map there).
      const orNone = (rows: Record<string, unknown>[]) =>
        rows.map((r) => ({ ...r, _original_text: r['_original_text'] ?? undefined }));
      expect(orNone((await readParquetCells(path)).rows)).toEqual(orNone(cells.rows));
    },
    120_000,
  );

  it('the library’s COPY writes the cells the rows read into JavaScript would: extras, missing fields, resolved firms, fillers', async () => {
    const csv = join(t.dir, 'desk.csv');
    await writeFile(
      csv,
      'importerName,usdFob,Remarks,arrivalDate,createdAt\nAcme,"1,234.50",hello,2024-01-05,1714567890.5\nBeta,-,,2023-02-30,\n',
    );
    const imported = await importFile(l.lib, csv);
    const firms = await l.lib.saveRecords(
      { kind: 'firms', request: { hs_codes: ['7208'] } },
      makeFirms(50) as unknown as Record<string, unknown>[],
      { status: 'complete' },
    );
    const views = [
      { id: imported.dataset.id, view: undefined },
      {
        id: imported.dataset.id,
        view: {
          columns: ['importerName', 'importerFirm', 'usdFob', 'extra:Remarks', 'exporterName', 'createdAt'],
        },
      },
      { id: firms.id, view: { sortModel: [{ colId: 'shipment_count', sort: 'asc' as const }] } },
    ];
    for (const { id, view } of views) {
      const { source } = await libraryExportSource(l.lib, id, view, '9.9.9');
      expect(source.copyParquet).toBeDefined();
      const inPlace = join(t.dir, 'in-place.parquet');
      const appended = join(t.dir, 'appended.parquet');
      await exportParquet(source, inPlace, { overwrite: true });
      const rowsRead: ExportSource = { ...source };
      delete rowsRead.copyParquet;
      await exportParquet(rowsRead, appended, { overwrite: true });
      const [a, b] = [await readParquetCells(inPlace), await readParquetCells(appended)];
      expect(a.columns).toEqual(b.columns);
      expect(a.rows).toEqual(b.rows);
      expect(a.rows.length).toBe(source.rowCount);
    }
  }, 60_000);

  it('firms: counts as BIGINT, every value back', async () => {
    const firms = makeFirms(120).map((f, i) => (i === 3 ? { ...f, shipment_count: null } : f));
    expect(firms.some((f) => f['firm_type'] === null)).toBe(true);
    const path = join(t.dir, 'firms.parquet');
    await exportParquet(
      createMemorySource({ kind: 'firms', columns: firmColumns(), rows: firms, query }),
      path,
    );
    const cells = await readParquetCells(path);
    for (const f of FIRM_FIELDS)
      expect(cells.columns.find((c) => c.name === f)?.physical, f).toBe(
        firmFieldType(f) === 'integer' ? 'INT64' : 'BYTE_ARRAY',
      );
    const asText = firms.map((f) =>
      Object.fromEntries(
        Object.entries(f).map(([k, v]) => [k, v === null || v === undefined ? null : String(v)]),
      ),
    );
    expect(expectCellsEqual(cells, firmColumns(), asText)).toBe(0);
    const r = await importFile(l.lib, path);
    const back = (await l.lib.getRows(r.dataset.id, { startRow: 0, endRow: 1000 })).rows;
    firms.forEach((f, i) => {
      for (const k of FIRM_FIELDS)
        expect(back[i]?.[k], `row ${i + 1} ${k}`).toEqual(
          f[k] ?? (firmFieldType(k) === 'integer' ? null : ''),
        );
    });
  });
});
