import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemorySource,
  exportParquet,
  firmColumns,
  shipmentColumns,
  type ExportColumn,
} from '../../src/main/export';
import { makeFirms, makeShipments } from '../helpers/export-records';
import { abortingAfterFirstBatch, sampleQuery } from '../helpers/export-fixtures';
import { useTempDir } from '../helpers/temp-dir';
import type { ParquetShape } from './parquet-shape';

const t = useTempDir('portolan-export-test-');
let db: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
});
afterAll(() => {
  conn.closeSync();
  db.closeSync();
});

const lit = (path: string): string => `'${path.replace(/'/g, "''")}'`;

async function readParquet(
  path: string,
  select = '*',
): Promise<{ rows: Record<string, unknown>[]; types: Record<string, string> }> {
  const described = await (
    await conn.run(`DESCRIBE SELECT * FROM read_parquet(${lit(path)})`)
  ).getRowObjectsJson();
  const types = Object.fromEntries(
    described.map((d) => [String(d['column_name']), String(d['column_type'])]),
  );
  const rows = await (await conn.run(`SELECT ${select} FROM read_parquet(${lit(path)})`)).getRowObjectsJson();
  return { rows, types };
}

async function shapesOf(path: string): Promise<Map<string, ParquetShape>> {
  const kv = await (
    await conn.run(
      `SELECT decode(value) AS v FROM parquet_kv_metadata(${lit(path)}) WHERE decode(key) = 'portolan'`,
    )
  ).getRowObjectsJson();
  const meta = JSON.parse(String(kv[0]?.['v'])) as { columns: ParquetShape[] };
  return new Map(meta.columns.map((c) => [c.name, c]));
}

describe('exportParquet', () => {
  it('types every shipment field by the field model and keeps text fields as sent', async () => {
    const rows = makeShipments(700, 4);
    const columns = shipmentColumns();
    const out = join(t.dir, 'shipments.parquet');
    const result = await exportParquet(
      createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery, batchSize: 250 }),
      out,
    );
    expect(result.rowsWritten).toBe(700);
    const back = await readParquet(out);
    expect(Object.keys(back.types)).toEqual([...columns.map((c) => c.field), '_original_text']);
    const expected: Record<string, string> = {
      text: 'VARCHAR',
      decimal: 'DOUBLE',
      date: 'DATE',
      epoch: 'TIMESTAMP WITH TIME ZONE',
    };
    for (const c of columns) expect(back.types[c.field], c.field).toBe(expected[c.type]);
    expect(back.types['_original_text']).toBe('MAP(VARCHAR, VARCHAR)');
    expect(back.rows.length).toBe(700);
    rows.forEach((source, r) => {
      for (const c of columns.filter((k) => k.type === 'text'))
        expect(back.rows[r]?.[c.field], `row ${r} ${c.field}`).toBe(source[c.field]);
    });
    expect(await t.files()).toEqual(['shipments.parquet']);
  });

  it('gives each typed column its shape, so values need no copy of their text', async () => {
    const columns: ExportColumn[] = [
      { field: 'usdFob', header: 'USD FOB', type: 'decimal' },
      { field: 'quantity', header: 'quantity', type: 'decimal' },
      { field: 'createdAt', header: 'createdAt', type: 'epoch' },
    ];
    const rows = [
      { usdFob: '1,234.50', quantity: '12', createdAt: '1714567890.123' },
      { usdFob: '999.00', quantity: '12.500', createdAt: '1714567891.000' },
      { usdFob: '-12,345,678.00', quantity: '3', createdAt: '-1.500' },
      { usdFob: '1234.50', quantity: '0.125', createdAt: '1714567890' },
    ];
    const out = join(t.dir, 'shapes.parquet');
    await exportParquet(createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery }), out);
    const shapes = await shapesOf(out);
    expect(shapes.get('USD FOB')).toMatchObject({
      type: 'decimal',
      decimals: 2,
      wholeDecimals: 2,
      grouped: true,
    });
    expect(shapes.get('quantity')).toMatchObject({
      type: 'decimal',
      decimals: 3,
      wholeDecimals: 0,
      grouped: false,
    });
    expect(shapes.get('createdAt')).toMatchObject({ type: 'epoch', decimals: 3 });
    const back = await readParquet(
      out,
      `"USD FOB" AS fob, quantity, CAST(epoch_us(createdAt) AS VARCHAR) AS us, _original_text AS kept`,
    );
    expect(back.rows).toEqual([
      { fob: 1234.5, quantity: 12, us: '1714567890123000', kept: null },
      { fob: 999, quantity: 12.5, us: '1714567891000000', kept: null },
      { fob: -12345678, quantity: 3, us: '-1500000', kept: null },
      // The odd ones out keep their text under the column's name in the file.
      {
        fob: 1234.5,
        quantity: 0.125,
        us: '1714567890000000',
        kept: [
          { key: 'USD FOB', value: '1234.50' },
          { key: 'createdAt', value: '1714567890' },
        ],
      },
    ]);
  });

  it('types firm counts as integers and keeps unknown counts as NULL', async () => {
    const rows = makeFirms(60);
    const out = join(t.dir, 'firms.parquet');
    await exportParquet(
      createMemorySource({ kind: 'firms', columns: firmColumns(), rows, query: sampleQuery }),
      out,
    );
    const back = await readParquet(out);
    expect(back.types['shipment_count']).toBe('BIGINT');
    expect(back.types['name']).toBe('VARCHAR');
    rows.forEach((r, i) => {
      const v = r['shipment_count'];
      // getRowObjectsJson writes BIGINT as text.
      expect(back.rows[i]?.['shipment_count']).toBe(v === null ? null : String(v));
      expect(back.rows[i]?.['name']).toBe(r['name']);
      expect(back.rows[i]?.['_original_text']).toBe(null);
    });
  });

  it('leaves no file when cancelled or when the target exists', async () => {
    const controller = new AbortController();
    const source = abortingAfterFirstBatch(makeShipments(200), controller);
    await expect(
      exportParquet(source, join(t.dir, 'c.parquet'), { signal: controller.signal }),
    ).rejects.toMatchObject({ kind: 'Cancelled' });
    expect(await t.files()).toEqual([]);

    const one = () =>
      createMemorySource({
        kind: 'firms',
        columns: firmColumns(['shipment_count']),
        rows: [{ shipment_count: 1 }],
        query: sampleQuery,
      });
    await expect(exportParquet(source, join(t.dir, 'missing-folder', 'x.parquet'))).rejects.toThrow();
    await expect(exportParquet(one(), join(t.dir, 'missing-folder', 'y.parquet'))).rejects.toThrow();
    expect(await t.files()).toEqual([]);

    const taken = join(t.dir, 'taken.parquet');
    await writeFile(taken, 'keep');
    await expect(exportParquet(one(), taken)).rejects.toMatchObject({
      kind: 'Conflict',
    });
    await exportParquet(one(), taken, { overwrite: true });
    expect((await readParquet(taken)).rows).toEqual([{ shipment_count: '1', _original_text: null }]);
    expect(await t.files()).toEqual(['taken.parquet']);
  });
});
