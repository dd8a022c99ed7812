/**
 * Where the import worker puts the rows it converted: a small in-memory DuckDB of its own (never the
 * library's file), shaped as the library's row table with the typed shadows already computed, cut
 * into Parquet parts the library copies in with one native INSERT each (`appendStagedRows`). The
 * per-cell work thus stays in the worker, and the main thread neither copies messages of millions of
 * small values nor lays out data chunks: it only waits for DuckDB.
 */
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { DatasetKind } from '@shared/fields';
import { ColumnBatchAppender, stagingTableDdl, type ColumnBatch, type StagedSource } from '../ingest';
import { quoteLiteral } from '../parquet-typing';

/** Two tables: one is filled while the other is written out as a part. */
const TABLES = ['staged_0', 'staged_1'] as const;

export interface StagedPart {
  /** Rows of the row table's shape, row numbers from 0. */
  source: StagedSource;
  rows: number;
}

/**
 * The worker's stage. Parts are written on a connection of their own while the worker goes on
 * reading and appending into the other table, so converting and writing overlap.
 */
export class RowStage {
  private appender: ColumnBatchAppender | null = null;
  private filling: 0 | 1 = 0;
  private writing: Promise<StagedPart> | null = null;
  private parts = 0;
  private closed = false;
  /** Rows appended since the last part was cut. */
  rows = 0;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    private readonly writer: DuckDBConnection,
    private readonly kind: DatasetKind,
    private readonly dir: string,
  ) {}

  static async open(kind: DatasetKind, dir: string): Promise<RowStage> {
    // One thread: the library's own DuckDB copies the previous part in on the other core meanwhile.
    const instance = await DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '512MB' });
    try {
      const conn = await instance.connect();
      const writer = await instance.connect();
      for (const t of TABLES) await conn.run(stagingTableDdl(kind, t));
      return new RowStage(instance, conn, writer, kind, dir);
    } catch (e) {
      instance.closeSync();
      throw e;
    }
  }

  async append(batch: ColumnBatch): Promise<void> {
    this.appender ??= await ColumnBatchAppender.open(this.conn, TABLES[this.filling], this.kind, '');
    this.appender.append(this.rows, batch);
    this.rows += batch.n;
  }

  /**
   * Starts writing the rows appended so far as the next part (appending goes on into the other
   * table meanwhile) and answers the part started before it, once that one is written; null when
   * there is none.
   */
  async cut(): Promise<StagedPart | null> {
    const previous = await this.drain();
    if (this.rows === 0) return previous;
    this.appender?.close();
    this.appender = null;
    this.parts += 1;
    const file = join(this.dir, `part-${this.parts}.parquet`);
    const table = TABLES[this.filling];
    const rows = this.rows;
    const writing = (async (): Promise<StagedPart> => {
      await this.writer.run(
        `COPY ${table} TO ${quoteLiteral(file)} (FORMAT parquet, COMPRESSION uncompressed)`,
      );
      // Dropped and made again rather than emptied: the memory of deleted rows is not given back.
      await this.writer.run(`DROP TABLE ${table}`);
      await this.writer.run(stagingTableDdl(this.kind, table));
      return { source: { parquet: file }, rows };
    })();
    // Awaited by the next cut or drain; a failure surfaces there, not as an unhandled rejection.
    writing.catch(() => undefined);
    this.writing = writing;
    this.filling = this.filling === 0 ? 1 : 0;
    this.rows = 0;
    return previous;
  }

  /** The part being written, once it is; null when none is. */
  async drain(): Promise<StagedPart | null> {
    const writing = this.writing;
    this.writing = null;
    return writing ? await writing : null;
  }

  /** Waits for a part being written, then closes the database (never while DuckDB works for it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writing?.catch(() => undefined);
    this.writing = null;
    try {
      this.appender?.close();
    } catch {
      // Rows of an import that is ending anyway.
    }
    this.appender = null;
    this.conn.closeSync();
    this.writer.closeSync();
    this.instance.closeSync();
  }
}
