import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemorySource,
  exportParquet,
  exportParquetFromQuery,
  firmColumns,
  shipmentColumns,
} from '../../src/main/export';
import { makeFirms, makeShipments } from '../helpers/export-records';
import { abortingAfterFirstBatch, sampleQuery } from '../helpers/export-fixtures';
import { useTempDir } from '../helpers/temp-dir';

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

async function readParquet(
  path: string,
): Promise<{ rows: Record<string, unknown>[]; types: Record<string, string> }> {
  const described = await (
    await conn.run(`DESCRIBE SELECT * FROM read_parquet('${path}')`)
  ).getRowObjectsJson();
  const types = Object.fromEntries(
    described.map((d) => [String(d['column_name']), String(d['column_type'])]),
  );
  const rows = await (await conn.run(`SELECT * FROM read_parquet('${path}')`)).getRowObjectsJson();
  return { rows, types };
}

describe('exportParquet', () => {
  it('keeps every shipment value as its original text', async () => {
    const rows = makeShipments(700, 4);
    const columns = shipmentColumns();
    const out = join(t.dir, 'shipments.parquet');
    const result = await exportParquet(
      createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery, batchSize: 250 }),
      out,
    );
    expect(result.rowsWritten).toBe(700);
    const back = await readParquet(out);
    expect(Object.keys(back.types)).toEqual(columns.map((c) => c.field));
    expect(new Set(Object.values(back.types))).toEqual(new Set(['VARCHAR']));
    expect(back.rows.length).toBe(700);
    rows.forEach((source, r) => {
      for (const c of columns) expect(back.rows[r]?.[c.field], `row ${r} ${c.field}`).toBe(source[c.field]);
    });
    expect(await t.files()).toEqual(['shipments.parquet']);
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
    });
  });

  it('writes a library query straight from DuckDB, in the query order', async () => {
    await conn.run('CREATE OR REPLACE TABLE lib_rows (hashId VARCHAR, importerName VARCHAR, usdCif VARCHAR)');
    const appender = await conn.createAppender('lib_rows');
    const rows = makeShipments(300, 8);
    rows.forEach((r, i) => {
      appender.appendVarchar(`h${String(i).padStart(4, '0')}`);
      appender.appendVarchar(r['importerName'] ?? '');
      appender.appendVarchar(r['usdCif'] ?? '');
      appender.endRow();
    });
    appender.closeSync();
    const out = join(t.dir, "it's.parquet");
    const result = await exportParquetFromQuery(
      conn,
      "SELECT * FROM lib_rows WHERE importerName LIKE '%Ş%' ORDER BY hashId DESC",
      out,
    );
    const expected = rows
      .map((r, i) => ({
        hashId: `h${String(i).padStart(4, '0')}`,
        importerName: r['importerName'],
        usdCif: r['usdCif'],
      }))
      .filter((r) => (r.importerName ?? '').includes('Ş'))
      .reverse();
    expect(expected.length).toBeGreaterThan(10);
    expect(result.rowsWritten).toBe(expected.length);
    expect((await readParquet(out.replace(/'/g, "''"))).rows).toEqual(expected);
  });

  it('leaves no file when cancelled or when the target exists', async () => {
    const controller = new AbortController();
    const source = abortingAfterFirstBatch(makeShipments(200), controller);
    await expect(
      exportParquet(source, join(t.dir, 'c.parquet'), { signal: controller.signal }),
    ).rejects.toMatchObject({ kind: 'Cancelled' });
    expect(await t.files()).toEqual([]);

    await expect(exportParquet(source, join(t.dir, 'missing-folder', 'x.parquet'))).rejects.toThrow();
    await expect(
      exportParquetFromQuery(conn, 'SELECT 1 AS x', join(t.dir, 'missing-folder', 'y.parquet')),
    ).rejects.toThrow();
    expect(await t.files()).toEqual([]);

    const taken = join(t.dir, 'taken.parquet');
    await writeFile(taken, 'keep');
    await expect(exportParquetFromQuery(conn, 'SELECT 1 AS x', taken)).rejects.toMatchObject({
      kind: 'Conflict',
    });
    await exportParquetFromQuery(conn, 'SELECT 1 AS x', taken, { overwrite: true });
    expect((await readParquet(taken)).rows).toEqual([{ x: 1 }]);
    expect(await t.files()).toEqual(['taken.parquet']);
  });
});
