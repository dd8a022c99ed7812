import {
  DuckDBInstance,
  StatementType,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { Json } from '@duckdb/node-api';
import { quoteLiteral } from './parquet-typing';
import { lowerNewThreads, processThreads } from './thread-priority';

export type SqlParams = DuckDBValue[];
export type Row = Record<string, Json>;

/** A statement prepared on a connection of its own (`Db.prepareAlone`). */
export interface PreparedAlone {
  /** Binds `params` and starts the statement (synchronously); its promise gives the rows it changed. */
  start(params: SqlParams): Promise<number>;
  /** Runs another statement on the same connection (after the started one, when there is one). */
  run(sql: string): Promise<void>;
  /** Closes the connection (once a started statement has settled). */
  close(): void;
}

/** Rows per batch of `streamRows`: an eighth of a DuckDB data chunk (see there). */
const STREAM_BATCH_ROWS = 256;
/** How often a long statement's progress is read while it runs. */
const PROGRESS_POLL_MS = 200;
/**
 * The scratch instance that joins Parquet parts into one file: one thread, so it reads no further
 * ahead than it writes (with both cores it held 2.2 GB for 1,000,000 × 88), and a ceiling well above
 * what it uses (~300 MB), past which DuckDB would spill or fail rather than take the machine's memory.
 */
const CONCAT_SETTINGS = { threads: '1', memory_limit: '1GB' } as const;

/** Runs tasks one at a time, in order; a failed task does not block the next. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task, task);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/**
 * One DuckDB file with two connections: writes go through one connection, strictly serialized and
 * each in its own transaction; reads use the other, so a grid query never sees a half-written
 * transaction and never waits behind a long ingest's JS work.
 */
export class Db {
  private readonly writes = new SerialQueue();
  private readonly reads = new SerialQueue();
  private readonly streams = new Set<DuckDBConnection>();
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
    private readonly reader: DuckDBConnection,
  ) {}

  static async open(path: string): Promise<Db> {
    const threadsBefore = processThreads();
    // A new library file is written in the newest storage format (DuckDB's default stays readable by
    // v1.0): its string compression reads single rows ~4× faster, which is what a sorted grid block
    // does (each of its rows sits in another vector of every column). A file written before keeps the
    // format it has.
    const instance = await DuckDBInstance.create(path, { storage_compatibility_version: 'latest' });
    const writer = await instance.connect();
    // DuckDB starts its worker threads with the instance: all but one of its `threads` (a query also
    // runs on the thread that asks for it). Storing an answer is background work to the analyst, who
    // waits for its first rows: the workers give way to this thread and the window (thread-priority.ts).
    const threads = await writer.runAndReadAll(`SELECT current_setting('threads')::INTEGER AS n`);
    lowerNewThreads(threadsBefore, Number(threads.getRowObjects()[0]?.n ?? 0) - 1);
    // A 10,000-record response writes ~25 MB of WAL; with the default 16 MB threshold every such
    // commit would also run a full checkpoint inline. Commits stay WAL appends (durable all the
    // same) and the checkpoint runs on close or when the app is idle (`Library.checkpoint`).
    await writer.run(`SET checkpoint_threshold = '256MB'`);
    // DuckDB's allocator keeps what a query freed for reuse, returned to the system only as later
    // allocations come: a full read of a 100,000 × 88 dataset (an export) left the main process ~50 MB
    // larger for as long as it stayed idle. Its background thread returns that memory within seconds,
    // for 5–9 % more CPU in a long read (src/main/export/README.md has the figures).
    await writer.run('SET allocator_background_threads = true');
    // DuckDB hands its allocator's cached memory back to the system when a query frees more than
    // this at once; its default, 512 MB, is more than an export's pages or a grid block ever free, so
    // their memory stayed cached. Reading 100,000 × 88 rows as an export does (after a 5,000-row read)
    // peaked at 222–230 MB with 1–4 MB against 261–281 MB with the default, for ~5 % more CPU.
    await writer.run(`SET allocator_bulk_deallocation_flush_threshold = '4MiB'`);
    const reader = await instance.connect();
    return new Db(instance, writer, reader);
  }

  /** Runs `fn` inside BEGIN … COMMIT on the write connection; any throw rolls everything back. */
  transaction<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.writes.run(async () => {
      this.assertOpen();
      await this.writer.run('BEGIN TRANSACTION');
      try {
        const out = await fn(this.writer);
        await this.writer.run('COMMIT');
        return out;
      } catch (e) {
        await this.writer.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  /** A statement outside an explicit transaction (DDL in migrations, CHECKPOINT). */
  exec(sql: string, params?: SqlParams): Promise<void> {
    return this.writes.run(async () => {
      this.assertOpen();
      await this.writer.run(sql, params);
    });
  }

  /**
   * Fills `catalog.table`, in an in-memory catalog attached to this instance (never the file), from a
   * SELECT: reference data queries can join with.
   */
  createReference(catalog: string, table: string, select: string, params?: SqlParams): Promise<void> {
    return this.writes.run(async () => {
      this.assertOpen();
      await this.writer.run(`ATTACH IF NOT EXISTS ':memory:' AS ${catalog}`);
      await selectOnly(this.writer, select);
      await this.writer.run(`CREATE OR REPLACE TABLE ${catalog}.${table} AS ${select}`, params);
    });
  }

  all(sql: string, params?: SqlParams): Promise<Row[]> {
    return this.reads.run(async () => {
      this.assertOpen();
      const reader = await this.reader.runAndReadAll(sql, params);
      return reader.getRowObjectsJson();
    });
  }

  /** Like `all`, but refuses anything that is not one SELECT: the read-only path other modules get. */
  select(sql: string, params?: SqlParams): Promise<Row[]> {
    return this.reads.run(async () => {
      this.assertOpen();
      const statement = await selectOnly(this.reader, sql);
      if (params) statement.bind(params);
      return (await statement.runAndReadAll()).getRowObjectsJson();
    });
  }

  /**
   * The first column of a query's rows as integers, read chunk by chunk into one typed array (no row
   * objects: a million row numbers arrive in a few milliseconds, where row objects took over a second).
   */
  integers(sql: string, params?: SqlParams): Promise<Int32Array> {
    return this.reads.run(async () => {
      this.assertOpen();
      const result = await this.reader.run(sql, params);
      const out = new Int32Array(result.rowCount);
      let at = 0;
      for (let i = 0; i < result.chunkCount; i++) {
        for (const v of result.getChunk(i).getColumnValues(0)) out[at++] = Number(v);
      }
      return out;
    });
  }

  async one(sql: string, params?: SqlParams): Promise<Row | undefined> {
    return (await this.all(sql, params))[0];
  }

  /**
   * A query's rows as arrays, in batches of up to STREAM_BATCH_ROWS rows, read on a connection of its
   * own: a long export reads the table in one pass (no OFFSET re-scans) and never queues the grid's
   * reads behind it. Stopping the iteration (or aborting) releases the connection.
   */
  async *streamRows(sql: string, params: SqlParams, signal?: AbortSignal): AsyncGenerator<DuckDBValue[][]> {
    this.assertOpen();
    const conn = await this.ownConnection();
    try {
      const statement = await selectOnly(conn, sql);
      statement.bind(params);
      const result = await statement.stream();
      while (!signal?.aborted) {
        // A reader must not take a cut-short stream for the whole result.
        this.assertOpen();
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) return;
        // A data chunk's 2,048 rows, read into JavaScript at once, stay alive while the consumer works
        // through them (an export: tens of ms with awaits), so they outlive two scavenges and are
        // promoted to the old space, which fills with their garbage up to the next full collection
        // (measured at 100,000 × 88: the heap grew to ~210 MB around ~40 MB of live objects). Read a
        // slice at a time, each slice's values die young.
        const rows = chunk.rowCount;
        const vectors = Array.from({ length: chunk.columnCount }, (_, c) => chunk.getColumnVector(c));
        for (let from = 0; from < rows && !signal?.aborted; from += STREAM_BATCH_ROWS) {
          if (from > 0) this.assertOpen();
          const count = Math.min(STREAM_BATCH_ROWS, rows - from);
          // A slice of a vector caches the values it hands out; the whole vector is never asked.
          const slices = vectors.map((v) => v.slice(from, count));
          const batch = new Array<DuckDBValue[]>(count);
          for (let r = 0; r < count; r++) batch[r] = slices.map((s) => s.getItem(r));
          yield batch;
        }
        // The chunk's text lives in native memory that would only be released when the garbage
        // collector finalizes the chunk's wrapper, unaware of its size: tens of chunks' worth (~5 MB
        // each for a row of 88 fields as JSON) piled up that way. Release it now.
        chunk.reset();
      }
    } finally {
      this.releaseConnection(conn);
    }
  }

  /**
   * Runs one statement on a connection of its own (a COPY of rows to a file): it reads one snapshot
   * and never queues the grid's reads or the library's writes behind it. Aborting interrupts it and
   * rejects with an AbortError; `onProgress` hears DuckDB's estimate of how far it got (0–1).
   */
  async runAlone(
    sql: string,
    params: SqlParams,
    opts: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
  ): Promise<Row[]> {
    this.assertOpen();
    if (opts.signal?.aborted) throw abortError();
    const conn = await this.ownConnection();
    try {
      return await runInterruptible(conn, sql, params, opts);
    } finally {
      this.releaseConnection(conn);
    }
  }

  /**
   * A statement prepared ahead on a connection of its own, after `setup` ran there, to be started later
   * in one synchronous call (`PreparedAlone.start`). A statement prepared when its input is there would
   * begin only once this thread is free again; prepared ahead, it begins on DuckDB's threads at once and
   * runs while this thread goes on with other work.
   */
  async prepareAlone(setup: readonly string[], sql: string): Promise<PreparedAlone> {
    this.assertOpen();
    const conn = await this.ownConnection();
    const release = (): void => this.releaseConnection(conn);
    try {
      for (const statement of setup) await conn.run(statement);
      const prepared = await conn.prepare(sql);
      return {
        start: (params) => {
          this.assertOpen();
          prepared.bind(params);
          return prepared.run().then((r) => Number(r.rowsChanged));
        },
        run: async (statement) => {
          this.assertOpen();
          await conn.run(statement);
        },
        close: release,
      };
    } catch (e) {
      release();
      throw e;
    }
  }

  /**
   * Writes the rows of Parquet files, file after file and each in its own order, to one Parquet file
   * (`options`: the COPY options, e.g. compression and metadata), in a scratch DuckDB instance of its
   * own (CONCAT_SETTINGS; `tempDir` takes what it spills): its memory is bounded whatever this
   * library's instance may use. Aborting interrupts it; `onProgress` as for `runAlone`.
   */
  static async concatParquet(
    parts: readonly string[],
    target: string,
    options: string,
    opts: { tempDir: string; signal?: AbortSignal; onProgress?: (fraction: number) => void },
  ): Promise<void> {
    const instance = await DuckDBInstance.create(':memory:', {
      ...CONCAT_SETTINGS,
      temp_directory: opts.tempDir,
    });
    try {
      const conn = await instance.connect();
      try {
        // A list of files is read in its order, each file's rows in theirs (DuckDB's order preservation).
        const files = parts.map(quoteLiteral).join(', ');
        const sql = `COPY (SELECT * FROM read_parquet([${files}])) TO ${quoteLiteral(target)} (${options})`;
        await runInterruptible(conn, sql, [], opts);
      } finally {
        conn.closeSync();
      }
    } finally {
      instance.closeSync();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const conn of this.streams) conn.closeSync();
    this.streams.clear();
    this.reader.closeSync();
    this.writer.closeSync();
    this.instance.closeSync();
  }

  /** Waits for queued work, then closes. */
  async closeWhenIdle(): Promise<void> {
    await this.writes.run(async () => undefined);
    await this.reads.run(async () => undefined);
    this.close();
  }

  /** A connection of its own for one statement or stream, closed with the library if still open. */
  private async ownConnection(): Promise<DuckDBConnection> {
    const conn = await this.instance.connect();
    this.streams.add(conn);
    return conn;
  }

  /** Closes a connection from `ownConnection`, unless closing the library already did. */
  private releaseConnection(conn: DuckDBConnection): void {
    if (this.streams.delete(conn)) conn.closeSync();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the library is closed');
  }
}

function abortError(): Error {
  return Object.assign(new Error('cancelled'), { name: 'AbortError' });
}

/**
 * Runs one statement on `conn`: aborting interrupts DuckDB and rejects with an AbortError;
 * `onProgress` hears DuckDB's estimate of how far it got (0–1), polled while it runs.
 */
async function runInterruptible(
  conn: DuckDBConnection,
  sql: string,
  params: SqlParams,
  opts: { signal?: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<Row[]> {
  const { signal, onProgress } = opts;
  if (signal?.aborted) throw abortError();
  // DuckDB tracks a statement's progress only when asked to (the connection is the statement's own).
  if (onProgress) {
    await conn.run(
      'SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET progress_bar_time = 0',
    );
  }
  const onAbort = (): void => conn.interrupt();
  signal?.addEventListener('abort', onAbort, { once: true });
  const poll = onProgress
    ? setInterval(() => {
        const p = conn.progress.percentage;
        if (p >= 0) onProgress(Math.min(1, p / 100));
      }, PROGRESS_POLL_MS)
    : null;
  try {
    return (await conn.runAndReadAll(sql, params)).getRowObjectsJson();
  } catch (e) {
    if (signal?.aborted) throw abortError();
    throw e;
  } finally {
    if (poll) clearInterval(poll);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Prepares `sql`, refusing anything but a single SELECT (a write, DDL, ATTACH, PRAGMA …). */
async function selectOnly(conn: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  const statement = await conn.prepare(sql);
  if (statement.statementType !== StatementType.SELECT) {
    throw new Error('the library reader runs SELECT statements only');
  }
  return statement;
}

/** Reads rows inside a write transaction (so the caller sees its own uncommitted writes). */
export async function readIn(conn: DuckDBConnection, sql: string, params?: SqlParams): Promise<Row[]> {
  const reader = await conn.runAndReadAll(sql, params);
  return reader.getRowObjectsJson();
}

/** A JSON-safe count (DuckDB returns BIGINT as text in JSON rows). */
export function toNumber(v: Json | undefined): number {
  if (v === null || v === undefined) return 0;
  return typeof v === 'number' ? v : Number(v);
}

export function toText(v: Json | undefined): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
