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
import { ColumnBatchAppender, stagingTableDdl, type ColumnBatch } from '../ingest';
import { quoteLiteral } from '../parquet-typing';

const TABLE = 'staged';

export interface StagedPart {
  /** A Parquet file of the row table's shape, row numbers from 0. */
  file: string;
  rows: number;
}

export class RowStage {
  private appender: ColumnBatchAppender | null = null;
  private parts = 0;
  private closed = false;
  /** Rows appended since the last part was cut. */
  rows = 0;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    private readonly kind: DatasetKind,
    private readonly dir: string,
  ) {}

  static async open(kind: DatasetKind, dir: string): Promise<RowStage> {
    // One thread: the library's own DuckDB copies the previous part in on the other core meanwhile.
    const instance = await DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '512MB' });
    try {
      const conn = await instance.connect();
      await conn.run(stagingTableDdl(kind, TABLE));
      return new RowStage(instance, conn, kind, dir);
    } catch (e) {
      instance.closeSync();
      throw e;
    }
  }

  async append(batch: ColumnBatch): Promise<void> {
    this.appender ??= await ColumnBatchAppender.open(this.conn, TABLE, this.kind, '');
    this.appender.append(this.rows, batch);
    this.rows += batch.n;
  }

  /** Writes the rows appended so far as the next part and starts an empty one; null when there are none. */
  async cut(): Promise<StagedPart | null> {
    if (this.rows === 0) return null;
    this.appender?.close();
    this.appender = null;
    this.parts += 1;
    const file = join(this.dir, `part-${this.parts}.parquet`);
    await this.conn.run(`COPY ${TABLE} TO ${quoteLiteral(file)} (FORMAT parquet, COMPRESSION uncompressed)`);
    // Dropped and made again rather than emptied: the memory of deleted rows is not given back.
    await this.conn.run(`DROP TABLE ${TABLE}`);
    await this.conn.run(stagingTableDdl(this.kind, TABLE));
    const part = { file, rows: this.rows };
    this.rows = 0;
    return part;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.appender?.close();
    } catch {
      // Rows of an import that is ending anyway.
    }
    this.appender = null;
    this.conn.closeSync();
    this.instance.closeSync();
  }
}
