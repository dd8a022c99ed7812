import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import {
  copyOptionsSql,
  PARQUET_META_VERSION,
  PARQUET_RULE,
  ORIGINAL_TEXT_COLUMN,
  isTypedField,
  quoteIdentifier,
  quoteLiteral,
  shapeStatsSql,
  shapesFromStats,
  typedSelectSql,
  type ParquetColumnShape,
  type ParquetMeta,
  type ParquetSourceColumn,
} from '../library';
import { cancelledError, throwIfAborted, writeAtomically } from './atomic-file';
import { toText } from './cell-values';
import { queryRows } from './query-sheet';
import type { ExportColumn, ExportKind, ExportOptions, ExportResult, ExportSource, QueryInfo } from './types';

export { quoteIdentifier, quoteLiteral };

const ROWS_PER_TURN = 1_000;
/** Memory the scratch database of `exportParquet` uses before it spills to disk. */
const SCRATCH_MEMORY = '1GB';

/** Runs a statement and interrupts DuckDB if the signal aborts meanwhile; answers its rows. */
async function runCancellable(
  connection: DuckDBConnection,
  sql: string,
  signal?: AbortSignal,
): Promise<Record<string, unknown>[]> {
  throwIfAborted(signal);
  const onAbort = (): void => connection.interrupt();
  signal?.addEventListener('abort', onAbort, { once: true });
  let rows: Record<string, unknown>[];
  try {
    rows = await (await connection.run(sql)).getRowObjectsJson();
  } catch (err) {
    if (signal?.aborted) throw cancelledError();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  throwIfAborted(signal);
  return rows;
}

/** What a Parquet file is written from: rows in DuckDB (`sql`, columns named by their field) and what they are. */
export interface ParquetQuerySource {
  kind: ExportKind;
  /** The columns to write, in order; `field` names the column of `sql` it is read from. */
  columns: readonly ExportColumn[];
  sql: string;
  /** What was asked, written to the file's metadata (as on an Excel export's Query sheet). */
  query?: QueryInfo;
}

/** Portolan's description of a file of these columns and shapes, with the Query sheet's rows. */
function describeFile(
  source: Pick<ParquetQuerySource, 'kind' | 'columns' | 'query'>,
  typed: boolean,
  shapes: ParquetColumnShape[],
  rows: number,
): ParquetMeta {
  const query: [string, string][] = source.query
    ? queryRows({
        kind: source.kind,
        query: source.query,
        rowsExported: rows,
        dataSheets: [],
        rowsPerSheet: 0,
        cutCells: [],
        cutCellCount: 0,
        fieldNames: source.columns.map((c) => c.field),
        exportedAt: new Date(),
      }).map(([k, v]) => [k, String(v)])
    : [
        ['kind', source.kind],
        ['field_names', JSON.stringify(source.columns.map((c) => c.field))],
      ];
  return {
    version: PARQUET_META_VERSION,
    kind: source.kind,
    rule: PARQUET_RULE,
    originalTextColumn: typed ? ORIGINAL_TEXT_COLUMN : null,
    columns: shapes,
    query,
  };
}

/**
 * Writes the rows of `source.sql` to `path` typed (see ../library/parquet-typing.ts): one pass finds
 * each typed column's shape, then DuckDB's COPY writes the typed rows, the original text of the cells
 * whose typed value does not give it back, and Portolan's description in the key-value metadata.
 * Answers the number of rows written.
 */
async function copyTyped(
  connection: DuckDBConnection,
  source: ParquetQuerySource,
  path: string,
  signal?: AbortSignal,
): Promise<number> {
  const columns: ParquetSourceColumn[] = source.columns.map((c) => ({
    source: quoteIdentifier(c.field),
    name: c.header,
    field: c.field,
    type: c.type,
  }));
  const [stats] = await runCancellable(connection, shapeStatsSql(columns, source.sql), signal);
  const { shapes, rows } = shapesFromStats(columns, stats ?? {});
  const meta = describeFile(
    source,
    columns.some((c) => isTypedField(c.type)),
    shapes,
    rows,
  );
  await runCancellable(
    connection,
    `COPY (${typedSelectSql(columns, shapes, source.sql)}) TO ${quoteLiteral(path)} (${copyOptionsSql(meta)})`,
    signal,
  );
  return rows;
}

/** A scratch folder's name names its process, so a start-up sweep removes only those of dead processes. */
export const PARQUET_SCRATCH_PREFIX = 'portolan-parquet-';
const scratchPrefix = () => `${PARQUET_SCRATCH_PREFIX}${process.pid}-`;

/** A new scratch folder under the export's scratch folder (or the OS temp folder), private to the user. */
async function makeScratch(options: ExportOptions): Promise<string> {
  const base = options.scratchDir ?? tmpdir();
  await mkdir(base, { recursive: true, mode: 0o700 });
  return mkdtemp(join(base, scratchPrefix()));
}

/**
 * A source whose rows sit in DuckDB (a library dataset) is written there by typed COPYs, page by page
 * into a scratch folder and then joined (Library.writeParquet): no row passes through JavaScript, and
 * the main thread only hears DuckDB's progress. The scratch folder goes whatever happens; one left by
 * a crash is swept at the next start (it names its process).
 */
async function exportParquetInPlace(
  source: ExportSource,
  copy: NonNullable<ExportSource['copyParquet']>,
  target: string,
  options: ExportOptions,
): Promise<ExportResult> {
  const { signal } = options;
  const typed = source.columns.some((c) => isTypedField(c.type));
  let reported = 0;
  throwIfAborted(signal);
  const scratch = await makeScratch(options);
  try {
    const { value: rowsWritten, bytes } = await writeAtomically(target, options, async (temp) => {
      try {
        const rows = await copy(temp, {
          ...(signal ? { signal } : {}),
          onProgress: (fraction) => {
            const rowsWritten = Math.round(fraction * source.rowCount);
            if (rowsWritten <= reported) return;
            reported = rowsWritten;
            options.onProgress?.({ phase: 'rows', rowsWritten, rowCount: source.rowCount });
          },
          describe: (shapes, rows) => describeFile(source, typed, shapes, rows),
          scratchDir: scratch,
        });
        options.onProgress?.({ phase: 'finishing', rowsWritten: rows, rowCount: source.rowCount });
        return rows;
      } catch (e) {
        if (signal?.aborted) throw cancelledError();
        throw e;
      }
    });
    return { path: target, rowsWritten, bytes };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Any source to Parquet. A library dataset is written in place by DuckDB (exportParquetInPlace);
 * other sources' rows go as text through an appender into a table of a scratch DuckDB
 * database, then the typed COPY writes the file. The scratch database lives in memory and spills
 * to its folder past `SCRATCH_MEMORY`: with an on-disk one the appender's final (synchronous) flush
 * also wrote every row to the file on the main thread (50,000 × 88 on a loaded machine: the longest
 * stall 4.8 s, 0.6–0.75 s in memory), and the appender holds its rows until that flush either way.
 */
export async function exportParquet(
  source: ExportSource,
  target: string,
  options: ExportOptions = {},
): Promise<ExportResult> {
  if (source.copyParquet) return exportParquetInPlace(source, source.copyParquet, target, options);
  const { signal } = options;
  const columns = source.columns;
  const scratch = await makeScratch(options);
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: SCRATCH_MEMORY,
    temp_directory: scratch,
  });
  const connection = await instance.connect();
  try {
    const { value: rowsWritten, bytes } = await writeAtomically(target, options, async (temp) => {
      await connection.run(
        `CREATE TABLE export_rows (${columns.map((c) => `${quoteIdentifier(c.field)} VARCHAR`).join(', ')})`,
      );
      const appender = await connection.createAppender('export_rows');
      let rows = 0;
      try {
        for await (const batch of source.batches(signal)) {
          throwIfAborted(signal);
          for (const row of batch) {
            for (let i = 0; i < columns.length; i++) {
              const v = row[i];
              if (v === null || v === undefined) appender.appendNull();
              else appender.appendVarchar(toText(v));
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
      return copyTyped(
        connection,
        { kind: source.kind, columns, sql: 'SELECT * FROM export_rows', query: source.query },
        temp,
        signal,
      );
    });
    return { path: target, rowsWritten, bytes };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(scratch, { recursive: true, force: true });
  }
}
