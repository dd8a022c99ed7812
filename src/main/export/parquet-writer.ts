import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { cancelledError, throwIfAborted, writeAtomically } from './atomic-file';
import { toText } from './cell-values';
import type { ExportColumn, ExportOptions, ExportResult, ExportSource } from './types';

const ROWS_PER_TURN = 1_000;

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** Integer columns (firm counts) are typed; everything else keeps the service's original text. */
function sqlType(column: ExportColumn): 'BIGINT' | 'VARCHAR' {
  return column.type === 'integer' ? 'BIGINT' : 'VARCHAR';
}

function toBigInt(v: unknown): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d{1,18}$/.test(v.trim())) return BigInt(v.trim());
  return null;
}

/** Runs a statement and interrupts DuckDB if the signal aborts meanwhile. */
async function runCancellable(
  connection: DuckDBConnection,
  sql: string,
  signal?: AbortSignal,
): Promise<void> {
  throwIfAborted(signal);
  const onAbort = (): void => connection.interrupt();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await connection.run(sql);
  } catch (err) {
    if (signal?.aborted) throw cancelledError();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  throwIfAborted(signal);
}

async function copyToParquet(
  connection: DuckDBConnection,
  selectSql: string,
  path: string,
  signal?: AbortSignal,
): Promise<void> {
  await runCancellable(
    connection,
    `COPY (${selectSql}) TO ${quoteLiteral(path)} (FORMAT parquet, COMPRESSION zstd)`,
    signal,
  );
}

/**
 * The library's path: DuckDB writes the result of `selectSql` (for instance the dataset's table with
 * the user's sort and filter) straight to Parquet, never through JavaScript.
 */
export async function exportParquetFromQuery(
  connection: DuckDBConnection,
  selectSql: string,
  target: string,
  options: ExportOptions = {},
): Promise<ExportResult> {
  options.onProgress?.({ phase: 'finishing', rowsWritten: 0, rowCount: 0 });
  const { bytes } = await writeAtomically(target, options, (temp) =>
    copyToParquet(connection, selectSql, temp, options.signal),
  );
  const counted = await connection.run(
    `SELECT count(*)::DOUBLE AS n FROM read_parquet(${quoteLiteral(target)})`,
  );
  const rows = (await counted.getRowObjectsJson())[0]?.['n'];
  return { path: target, rowsWritten: Number(rows ?? 0), bytes };
}

/**
 * Any source to Parquet: rows go through an appender into a table of a scratch DuckDB database (on
 * disk, so a large export is not held in memory), then COPY writes the file.
 */
export async function exportParquet(
  source: ExportSource,
  target: string,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const { signal } = options;
  const columns = source.columns;
  const scratch = await mkdtemp(join(tmpdir(), 'portolan-parquet-'));
  const instance = await DuckDBInstance.create(join(scratch, 'export.duckdb'));
  const connection = await instance.connect();
  try {
    const { value: rowsWritten, bytes } = await writeAtomically(target, options, async (temp) => {
      await connection.run(
        `CREATE TABLE export_rows (${columns.map((c) => `${quoteIdentifier(c.field)} ${sqlType(c)}`).join(', ')})`,
      );
      const appender = await connection.createAppender('export_rows');
      let rows = 0;
      try {
        for await (const batch of source.batches(signal)) {
          throwIfAborted(signal);
          for (const row of batch) {
            for (let i = 0; i < columns.length; i++) {
              const column = columns[i] as ExportColumn;
              const v = row[i];
              if (sqlType(column) === 'BIGINT') {
                const n = toBigInt(v);
                if (n === null) appender.appendNull();
                else appender.appendBigInt(n);
              } else if (v === null || v === undefined) {
                appender.appendNull();
              } else {
                appender.appendVarchar(toText(v));
              }
            }
            appender.endRow();
            rows += 1;
            if (rows % ROWS_PER_TURN === 0) {
              await yieldToLoop();
              throwIfAborted(signal);
              options.onProgress?.({ phase: 'rows', rowsWritten: rows, rowCount: source.rowCount });
            }
          }
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
      options.onProgress?.({ phase: 'finishing', rowsWritten: rows, rowCount: source.rowCount });
      await copyToParquet(connection, 'SELECT * FROM export_rows', temp, signal);
      return rows;
    });
    return { path: target, rowsWritten, bytes };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(scratch, { recursive: true, force: true });
  }
}
