import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Library } from '../src/main/library';

/**
 * Bench set-up that the app itself never does (growing a dataset to a million rows inside DuckDB): run
 * on the library's file while no Library has it open. The app writes its tables only through
 * `library.write`.
 */
export async function withLibraryFile<T>(
  dir: string,
  work: (conn: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const instance = await DuckDBInstance.create(join(dir, 'library.duckdb'));
  const conn = await instance.connect();
  try {
    await conn.run('BEGIN TRANSACTION');
    const out = await work(conn);
    await conn.run('COMMIT');
    await conn.run('CHECKPOINT');
    return out;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Distinct records the pooled datasets of `buildPooledLibrary` cycle through. */
export const POOL = 1_000;
/** Rows appended per unit of work while a bench builds its library. */
const APPEND = 10_000;

/**
 * A library in `dir` with one shipment dataset per size, written the way the app writes a search's
 * pages (`library.write`), its rows cycling through a fixed pool of realistic records (the rows'
 * content, not their number, sets an export's work per row). Answers the dataset ids by size.
 */
export async function buildPooledLibrary(
  dir: string,
  sizes: readonly number[],
): Promise<Record<number, string>> {
  const { makeShipments } = await import('../test/helpers/export-records');
  const pool = makeShipments(POOL, 11);
  const lib = await Library.open(dir);
  const ids: Record<number, string> = {};
  try {
    for (const rows of sizes) {
      const id = await lib.write((tx) =>
        tx.createDataset({ kind: 'shipments', request: { hs_codes: ['8471'] }, name: `bench ${rows}` }),
      );
      for (let at = 0; at < rows; at += APPEND) {
        const n = Math.min(APPEND, rows - at);
        const chunk = Array.from({ length: n }, (_, i) => pool[(at + i) % POOL]!);
        await lib.write((tx) => tx.appendRecords('shipments', id, at, chunk));
      }
      await lib.write((tx) => tx.finishDataset(id, { status: 'complete', storedRows: rows }));
      ids[rows] = id;
    }
    await lib.checkpoint();
  } finally {
    await lib.close();
  }
  return ids;
}
