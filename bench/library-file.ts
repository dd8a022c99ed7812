import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

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
