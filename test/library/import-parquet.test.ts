import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { createMemorySource, exportParquet, shipmentColumns } from '../../src/main/export';
import { importFile, previewImport, runImport } from '../../src/main/library';
import { sampleQuery } from '../helpers/export-fixtures';
import { makeShipments } from '../helpers/export-records';
import { useLibrary } from '../helpers/library';
import { expectImportCancelledAtOnce, expectNothingStored, storedRows } from './helpers';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-import-parquet-');
const l = useLibrary('portolan-import-parquet-lib-');

const rowsOf = (id: string) => storedRows(l.lib, id);

const libraryIsEmpty = () => expectNothingStored(l.lib);

/** Writes `select` to a Parquet file with DuckDB, as another tool (pandas, Spark, DuckDB) would. */
async function otherToolsParquet(name: string, select: string): Promise<string> {
  const path = join(t.dir, name);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    await conn.run(`COPY (${select}) TO '${path.replace(/'/g, "''")}' (FORMAT parquet)`);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
  return path;
}

const FOREIGN = `
  SELECT * FROM (VALUES
    ('Acme Steel Ltd', 720810::BIGINT, 12500.5::DOUBLE, 1234.50::DECIMAL(18,2), DATE '2025-01-05',
     TIMESTAMP '2025-01-05 10:00:00.123456', TIMESTAMPTZ '2025-01-06 00:00:01+00', 3::INTEGER, true,
     ['steel', 'coil'], 0.1::FLOAT, 'urgent'),
    ('Beta Metals', 30110::BIGINT, 0.1::DOUBLE + 0.2::DOUBLE, -0.05::DECIMAL(18,2), DATE '2025-01-06',
     TIMESTAMP '1969-12-31 23:59:59.5', NULL, NULL, false, [], 2.5::FLOAT, NULL),
    ('Gamma', NULL, 'nan'::DOUBLE, NULL, NULL, NULL, NULL, -7::INTEGER, NULL, NULL, NULL, '')
  ) AS t("Importer Name", "HS Code", "USD FOB", "Value", "Date", "createdAt", "Updated", "Qty", "Urgent",
         "Tags", "Ratio", "Remarks")`;

describe('Parquet files other tools wrote', () => {
  it('previews the columns by name with values read by their types, before anything is stored', async () => {
    const path = await otherToolsParquet('desk export.parquet', FOREIGN);
    const preview = await previewImport(path);
    expect(preview.view.format).toBe('parquet');
    expect(preview.view.headerRow).toBe(1);
    expect(preview.view.kind).toBe('shipments');
    expect(preview.view.fromPortolan).toBe(false);
    const columns = Object.fromEntries(preview.view.columns.map((c) => [c.header, c]));
    expect(Object.fromEntries(preview.view.columns.map((c) => [c.header, c.field]))).toEqual({
      'Importer Name': 'importerName',
      'HS Code': 'hsCode',
      'USD FOB': 'usdFob',
      Value: null,
      Date: 'arrivalDate',
      createdAt: 'createdAt',
      Updated: null,
      Qty: 'quantity',
      Urgent: null,
      Tags: null,
      Ratio: null,
      Remarks: null,
    });
    // Samples as they will be stored: numbers as their shortest text, decimals with their digits,
    // days as yyyy-MM-dd, an instant in an epoch field as Unix seconds to the microsecond.
    expect(columns['USD FOB']?.samples).toEqual(['12500.5', '0.30000000000000004', 'nan']);
    expect(columns['Date']?.samples).toEqual(['2025-01-05', '2025-01-06', '']);
    expect(columns['createdAt']?.samples).toEqual(['1736071200.123456', '-0.500000', '']);
    expect(columns['Value']?.samples).toEqual(['1234.50', '-0.05', '']);
    expect(columns['Updated']?.samples).toEqual(['2025-01-06 00:00:01', '', '']);
    expect(columns['Tags']?.samples).toEqual(['["steel","coil"]', '[]', '']);
    expect(columns['Urgent']?.samples).toEqual(['TRUE', 'FALSE', '']);
    expect(columns['Ratio']?.samples).toEqual(['0.1', '2.5', '']);
    await libraryIsEmpty();
  });

  it('imports every row: mapped fields as text, the other columns as extras, odd values and lost HS zeros reported', async () => {
    const path = await otherToolsParquet('desk export.parquet', FOREIGN);
    const r = await importFile(l.lib, path);
    expect(r.format).toBe('parquet');
    expect(r.rows).toBe(3);
    expect(r.filterRestored).toBe(false);
    expect(r.dataset.extraColumns).toEqual(['Value', 'Updated', 'Urgent', 'Tags', 'Ratio', 'Remarks']);
    expect(r.dataset.missingFields).toContain('exporterName');
    const rows = await rowsOf(r.dataset.id);
    expect(
      rows.map((x) => [
        x['importerName'],
        x['hsCode'],
        x['usdFob'],
        x['arrivalDate'],
        x['createdAt'],
        x['quantity'],
      ]),
    ).toEqual([
      ['Acme Steel Ltd', '720810', '12500.5', '2025-01-05', '1736071200.123456', '3'],
      ['Beta Metals', '030110', '0.30000000000000004', '2025-01-06', '-0.500000', ''],
      ['Gamma', '', 'nan', '', '', '-7'],
    ]);
    expect(rows[0]?.['exporterName']).toBeNull();
    expect(rows[0]?.['Tags']).toBe('["steel","coil"]');
    expect(rows[0]?.['Value']).toBe('1234.50');
    expect(rows[1]?.['Remarks']).toBeUndefined();
    const messages = r.warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(
      /HS Code: 1 code lost its leading zero in a spreadsheet \(first: row 2, "30110"\)/,
    );
  });

  it('refuses a file that is not Parquet, and one over the cell cap, in the analyst’s words', async () => {
    const fake = join(t.dir, 'report.parquet');
    await writeFile(fake, 'importerName,usdFob\nAcme,12\n');
    await expect(importFile(l.lib, fake)).rejects.toThrow(
      /Cannot import report\.parquet: it is not a readable Parquet file.*The library was not changed\./,
    );
    const big = await otherToolsParquet(
      'big.parquet',
      `SELECT 'Firm ' || i AS importerName, i AS usdFob FROM range(5000) t(i)`,
    );
    const limits = { maxFileBytes: 1e9, maxJsonBytes: 1e8, maxUncompressedBytes: 1e9, maxCells: 6_000 };
    await expect(previewImport(big, { limits })).rejects.toThrow(/more than 6,000 cells.*not changed/);
    await libraryIsEmpty();
  });
});

describe('Parquet import: progress and cancel', () => {
  async function portolanExport(rows: number): Promise<string> {
    const path = join(t.dir, 'long.parquet');
    const columns = shipmentColumns();
    await exportParquet(
      createMemorySource({ kind: 'shipments', columns, rows: makeShipments(rows, 3), query: sampleQuery }),
      path,
    );
    return path;
  }

  // Writes and reads thousands of rows: on a loaded 2-core machine it outlasts the default timeout.
  it('reports progress against the file’s row count', async () => {
    const path = await portolanExport(9_000);
    const seen: { rowsStored: number; rowsTotal: number | null }[] = [];
    const prepared = await previewImport(path);
    expect(prepared.view.fromPortolan).toBe(true);
    const r = await runImport(l.lib, path, prepared, { onProgress: (p) => seen.push(p) });
    expect(r.rows).toBe(9_000);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((p) => p.rowsTotal === 9_000)).toBe(true);
    expect(seen.at(-1)?.rowsStored).toBe(9_000);
    expect(seen.map((p) => p.rowsStored)).toEqual([...seen.map((p) => p.rowsStored)].sort((a, b) => a - b));
  }, 60_000);

  it('stops on cancel while DuckDB reads, leaves the library as it was, and the next import runs', async () => {
    const path = await portolanExport(20_000);
    await expectImportCancelledAtOnce(l.lib, path);
    // Cancelling a preview too, at once.
    const early = new AbortController();
    const preview = previewImport(path, { signal: early.signal });
    early.abort();
    await expect(preview).rejects.toThrow();
    // The process and the worker pool are fine: the same file imports whole.
    const r = await importFile(l.lib, path);
    expect(r.rows).toBe(20_000);
  }, 60_000);
});
