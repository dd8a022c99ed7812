import type { DuckDBValue } from '@duckdb/node-api';
import type { Row, SqlParams } from './db';

/**
 * Read-only SQL on the library's tables, for the modules that compute over them (analysis, export):
 * anything but a single SELECT is refused. Reference data they need (the HS nomenclature) goes to an
 * in-memory catalog, never into the library file.
 */
export interface LibraryReader {
  all(sql: string, params?: SqlParams): Promise<Row[]>;
  one(sql: string, params?: SqlParams): Promise<Row | undefined>;
  /** A query's rows as arrays, in batches of up to 256 rows, on a connection of its own (see `Db.streamRows`). */
  streamRows(sql: string, params: SqlParams, signal?: AbortSignal): AsyncGenerator<DuckDBValue[][]>;
  /** Creates (or replaces) `portolan_ref.<table>` in memory from a SELECT, once per library instance. */
  loadReference(table: string, select: string, params?: SqlParams): Promise<void>;
}
