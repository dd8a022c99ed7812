import { join } from 'node:path';
import { DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { expect } from 'vitest';
import { previewImport, runImport, type Library } from '../../src/main/library';
import { tempDir as freshTempDir, type TempDir } from '../helpers/temp-dir';
import { FIRM_FIELDS, SHIPMENT_FIELDS } from '@shared/spec/records';

export const tempDir = (): Promise<TempDir> => freshTempDir('portolan-lib-test-');

/** The first 1,000 rows of dataset `id` as the grid reads them, without their row numbers. */
export async function storedRows(lib: Library, id: string): Promise<Record<string, unknown>[]> {
  return (await lib.getRows(id, { startRow: 0, endRow: 1000 })).rows.map(({ _row, ...r }) => r);
}

/** Nothing stored in `lib`: no dataset listed or recorded, no shipment or firm row. */
export async function expectNothingStored(lib: Library): Promise<void> {
  expect(await lib.list()).toEqual([]);
  expect(Number((await lib.reader.one('SELECT count(*) AS n FROM shipment_rows'))?.n)).toBe(0);
  expect(Number((await lib.reader.one('SELECT count(*) AS n FROM firm_rows'))?.n)).toBe(0);
  expect(Number((await lib.reader.one('SELECT count(*) AS n FROM datasets'))?.n)).toBe(0);
}

/** Imports `path` into `lib`, cancelled at its first progress: it ends as Cancelled, and nothing is stored. */
export async function expectImportCancelledAtOnce(lib: Library, path: string): Promise<void> {
  const prepared = await previewImport(path);
  const controller = new AbortController();
  const done = runImport(lib, path, prepared, {
    signal: controller.signal,
    // Cancelled as soon as the first rows are stored: the import is under way.
    onProgress: () => controller.abort(),
  });
  await expect(done).rejects.toMatchObject({ kind: 'Cancelled' });
  await expectNothingStored(lib);
}

/** A full shipment record: every spec field present, overrides applied. */
export function shipment(i: number, overrides: Record<string, string> = {}): Record<string, string> {
  const r: Record<string, string> = {};
  for (const f of SHIPMENT_FIELDS) r[f] = '';
  r.hashId = `h${String(i).padStart(6, '0')}`;
  r.importerName = `Importer ${i % 7}`;
  r.exporterName = `Exporter ${i % 5}`;
  r.arrivalDate = `2024-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`;
  r.fobValue = String((i * 37) % 1000);
  r.hsCode = `7208${i % 10}0`;
  r.productDetails = `steel coil lot ${i}`;
  return { ...r, ...overrides };
}

export function firm(
  i: number,
  overrides: Record<string, string | number | null> = {},
): Record<string, string | number | null> {
  const r: Record<string, string | number | null> = {};
  for (const f of FIRM_FIELDS) r[f] = '';
  r.name = `Firm ${i}`;
  r.country = 'Türkiye';
  r.country_code = 'TR';
  r.firm_type = 1 + (i % 3);
  r.shipment_count = i * 3;
  return { ...r, ...overrides };
}

/**
 * Changes a closed library's file behind the app's back, as another program or a damaged disk would:
 * the library itself offers no way to write its tables but its own.
 */
export async function changeLibraryFile(dir: string, sql: string, params: DuckDBValue[] = []): Promise<void> {
  const instance = await DuckDBInstance.create(join(dir, 'library.duckdb'));
  const conn = await instance.connect();
  try {
    await conn.run(sql, params);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
