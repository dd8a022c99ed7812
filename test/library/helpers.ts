import { join } from 'node:path';
import { DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { afterEach, beforeEach } from 'vitest';
import { Library } from '../../src/main/library';
import { tempDir as freshTempDir, type TempDir } from '../helpers/temp-dir';
import { FIRM_FIELDS, SHIPMENT_FIELDS } from '@shared/spec/records';

export const tempDir = (): Promise<TempDir> => freshTempDir('portolan-lib-test-');

/** A fresh folder and a library opened in it (in its `folder`, if named), for each test of the calling file. */
export interface TempLibrary {
  /** The test's folder, removed after it. */
  readonly dir: string;
  /** The open library; a test that closes it to open it again sets the new one, which is closed after it. */
  lib: Library;
}

/**
 * Each test of the calling file gets a fresh folder with a library open in it (in `folder` below it,
 * where the test writes its files beside the library's); after the test the library is closed and the
 * folder removed.
 */
export function useTempLibrary(folder?: string): TempLibrary {
  let dir: string | undefined;
  let lib: Library | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    lib = await Library.open(folder === undefined ? dir : join(dir, folder));
  });
  afterEach(async () => {
    await lib?.close();
    await cleanup?.();
    dir = lib = cleanup = undefined;
  });
  const open = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useTempLibrary: read outside a test');
    return value;
  };
  return {
    get dir() {
      return open(dir);
    },
    get lib() {
      return open(lib);
    },
    set lib(next: Library) {
      lib = next;
    },
  };
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
