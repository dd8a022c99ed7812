import { stat } from 'node:fs/promises';
import {
  BIGINT,
  DATE,
  DOUBLE,
  DuckDBDataChunk,
  INTEGER,
  VARCHAR,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBType,
} from '@duckdb/node-api';
import { describeIssue, type SpecIssue } from '@shared/spec/issues';
import { checkedRecordList, isPlainObject, typeName } from '@shared/spec/records';
import { ChunkFiller, VECTOR_ROWS } from './chunk-filler';
import { EXTRA_COLUMN, ROW_TABLE, columnsOf, type ColumnDef, type DatasetKind } from './fields';
import { quoteLiteral } from './parquet-typing';
import { SHIPMENT_SHADOWS, dateShadow, decimalShadow } from './shadows';

export type RecordObject = Record<string, unknown>;

/** Why a record's value breaks the spec's rules (text fields are text, firm integers whole), or null. */
function valueProblem(type: ColumnDef['type'], v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (type === 'integer') return Number.isInteger(v) ? null : `must be a whole number, got ${typeName(v)}`;
  return typeof v === 'string' ? null : `must be text, got ${typeName(v)}`;
}

/** A record broke the spec's rules while being appended; the caller's transaction rolls back. */
export class RecordIssueError extends Error {
  constructor(readonly issue: SpecIssue) {
    super(describeIssue(issue));
    this.name = 'RecordIssueError';
  }
}

const knownFields: Record<DatasetKind, ReadonlySet<string>> = {
  shipments: new Set(columnsOf('shipments').map((c) => c.field)),
  firms: new Set(columnsOf('firms').map((c) => c.field)),
};

/** Fields the spec does not list, as JSON text; null when there are none (the usual case). */
function extrasOf(kind: DatasetKind, rec: RecordObject, knownPresent: number): string | null {
  const keys = Object.keys(rec);
  if (keys.length <= knownPresent) return null;
  const known = knownFields[kind];
  const extra: RecordObject = {};
  let any = false;
  for (const k of keys) {
    if (!known.has(k)) {
      extra[k] = rec[k];
      any = true;
    }
  }
  return any ? JSON.stringify(extra) : null;
}

/** The row table's column types in table order: id, row number, the fields, extras, the typed shadows. */
function rowTypes(kind: DatasetKind): DuckDBType[] {
  return [
    VARCHAR,
    INTEGER,
    ...columnsOf(kind).map((c) => (c.type === 'integer' ? BIGINT : VARCHAR)),
    VARCHAR,
    ...(kind === 'shipments' ? SHIPMENT_SHADOWS.map((s) => (s.sqlType === 'DATE' ? DATE : DOUBLE)) : []),
  ];
}

const shadowValues = new Float64Array(VECTOR_ROWS);

/**
 * Fills a chunk's typed shadow columns (after the fields and extras) from the chunk's field texts,
 * under the shared value rules: the same values the text reads as everywhere else.
 */
function fillShadows(
  filler: ChunkFiller,
  chunk: DuckDBDataChunk,
  kind: DatasetKind,
  textsOf: (field: number) => readonly unknown[],
  n: number,
): void {
  if (kind !== 'shipments') return;
  const first = columnsOf(kind).length + 3;
  const out = shadowValues;
  for (let s = 0; s < SHIPMENT_SHADOWS.length; s++) {
    const shadow = SHIPMENT_SHADOWS[s]!;
    const texts = textsOf(shadow.index);
    if (shadow.sqlType === 'DATE') {
      for (let i = 0; i < n; i++) out[i] = dateShadow(texts[i]) ?? NaN;
      filler.date(chunk, first + s, out, n);
    } else {
      for (let i = 0; i < n; i++) out[i] = decimalShadow(texts[i]);
      filler.double(chunk, first + s, out, n);
    }
  }
}

/**
 * Appends records to the dataset's row table through DuckDB's appender, a data chunk at a time,
 * each column written in a few native calls (`ChunkFiller`). Values are checked against the
 * spec's rules on the way (one pass, no separate walk over the records): a bad one throws
 * `RecordIssueError` naming `path[i].field`. A list the response parser already checked
 * (`checkedRecordList`) is laid out without that second check. Empty text is stored as NULL: it reads
 * back as "" and keeps the table small. Runs inside the caller's transaction, so a throw leaves
 * nothing behind.
 */
export async function appendRecords(
  conn: DuckDBConnection,
  kind: DatasetKind,
  datasetId: string,
  firstRowNo: number,
  records: readonly unknown[],
  path = 'records',
  /** Another table of the row table's shape (`stagingTableDdl`) to append to, in its catalog. */
  into?: { catalog: string; table: string },
): Promise<number> {
  if (records.length === 0) return 0;
  const cols = columnsOf(kind);
  const types = rowTypes(kind);
  const filler = new ChunkFiller();
  const rowNos = new Int32Array(VECTOR_ROWS);
  const columns = new RecordColumns(kind, path, checkedRecordList(records));
  const appender = into
    ? await conn.createAppender(into.table, null, into.catalog)
    : await conn.createAppender(ROW_TABLE[kind]);
  try {
    for (let off = 0; off < records.length; off += VECTOR_ROWS) {
      const n = Math.min(VECTOR_ROWS, records.length - off);
      const chunk = DuckDBDataChunk.create(types, n);
      filler.constantVarchar(chunk, 0, datasetId, n);
      for (let i = 0; i < n; i++) rowNos[i] = firstRowNo + off + i;
      filler.int32(chunk, 1, rowNos, n);
      columns.take(records, off, n);
      for (let c = 0; c < cols.length; c++) {
        const values = columns.values[c]!;
        if (cols[c]!.type === 'integer')
          filler.bigint(chunk, c + 2, values as (number | null | undefined)[], n);
        else filler.varchar(chunk, c + 2, values as (string | null | undefined)[], n);
      }
      filler.varchar(chunk, cols.length + 2, columns.extras, n);
      fillShadows(filler, chunk, kind, (c) => columns.values[c]!, n);
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return records.length;
}

/**
 * Turns up to one data chunk of records into column arrays, checking every value.
 *
 * Records parsed from one response almost always carry the spec's fields in the spec's order; for
 * those, `Object.values` hands over all values at once, about three times faster than reading 88
 * fields by name (V8 cannot cache a lookup whose key changes on every read). Any other record
 * (fields missing, reordered or extra) is read field by field and its unknown fields are kept.
 */
class RecordColumns {
  readonly values: unknown[][];
  readonly extras = new Array<string | null>(VECTOR_ROWS);
  private readonly cols: readonly ColumnDef[];
  private readonly fields: readonly string[];
  private readonly integer: Uint8Array;

  constructor(
    private readonly kind: DatasetKind,
    private readonly path: string,
    /** Set when the response parser checked this list: its values are not checked again. */
    private readonly vouched?: { allInSpecOrder: boolean },
  ) {
    this.cols = columnsOf(kind);
    this.fields = this.cols.map((c) => c.field);
    this.integer = Uint8Array.from(this.cols, (c) => (c.type === 'integer' ? 1 : 0));
    this.values = this.cols.map(() => new Array<unknown>(VECTOR_ROWS));
  }

  take(records: readonly unknown[], off: number, n: number): void {
    if (this.vouched?.allInSpecOrder) {
      for (let i = 0; i < n; i++) this.takeVouchedInOrder(records[off + i] as RecordObject, i);
      return;
    }
    for (let i = 0; i < n; i++) {
      const rec: unknown = records[off + i];
      if (!isPlainObject(rec))
        throw new RecordIssueError({ path: `${this.path}[${off + i}]`, message: 'must be an object' });
      if (this.inSpecOrder(rec)) this.takeInOrder(rec, i, off);
      else this.takeByName(rec, i, off);
    }
  }

  private inSpecOrder(rec: RecordObject): boolean {
    const keys = Object.keys(rec);
    const fields = this.fields;
    if (keys.length !== fields.length) return false;
    for (let c = 0; c < fields.length; c++) if (keys[c] !== fields[c]) return false;
    return true;
  }

  /** A record the parser checked and found in the spec's order: its values, as they are. */
  private takeVouchedInOrder(rec: RecordObject, i: number): void {
    const vs = Object.values(rec);
    const { values } = this;
    for (let c = 0; c < vs.length; c++) values[c]![i] = vs[c];
    this.extras[i] = null;
  }

  private takeInOrder(rec: RecordObject, i: number, off: number): void {
    const vs = Object.values(rec);
    const { values, integer } = this;
    for (let c = 0; c < vs.length; c++) {
      const v = vs[c];
      if (v !== null && v !== undefined && (integer[c] ? !Number.isInteger(v) : typeof v !== 'string'))
        this.fail(off + i, c, v);
      values[c]![i] = v;
    }
    this.extras[i] = null;
  }

  private takeByName(rec: RecordObject, i: number, off: number): void {
    const { values, cols } = this;
    let present = 0;
    for (let c = 0; c < cols.length; c++) {
      const v = rec[cols[c]!.field];
      if (v !== undefined) {
        present++;
        if (!this.vouched && valueProblem(cols[c]!.type, v)) this.fail(off + i, c, v);
      }
      values[c]![i] = v;
    }
    this.extras[i] = extrasOf(this.kind, rec, present);
  }

  private fail(row: number, c: number, v: unknown): never {
    const { field, type } = this.cols[c]!;
    throw new RecordIssueError({
      path: `${this.path}[${row}].${field}`,
      message: valueProblem(type, v) ?? 'is not valid',
    });
  }
}

/** An import's converted rows: one value array per field of the kind, in field order, and each row's extra columns as JSON text. */
export interface ColumnBatch {
  n: number;
  columns: readonly (readonly (string | number | null)[])[];
  extras: readonly (string | null)[];
}

/** The row table's columns in table order (as `rowTypes` types them), quoted for SQL. */
export function rowColumnNames(kind: DatasetKind): string[] {
  return [
    'dataset_id',
    'row_no',
    ...columnsOf(kind).map((c) => c.field),
    EXTRA_COLUMN,
    ...(kind === 'shipments' ? SHIPMENT_SHADOWS.map((s) => s.column) : []),
  ].map((c) => `"${c}"`);
}

/** A table shaped as the kind's row table (fields, extras and typed shadows), for staging an import's rows. */
export function stagingTableDdl(kind: DatasetKind, table: string): string {
  const types = rowTypes(kind);
  const names = rowColumnNames(kind);
  return `CREATE TABLE ${table} (${names.map((n, i) => `${n} ${types[i]!.toString()}`).join(', ')})`;
}

/**
 * Appends already-converted columns (an import's batches) to a table shaped as the kind's row table,
 * a data chunk at a time, the typed shadows computed under the shared value rules as appendRecords
 * does. Empty text is stored as NULL. The import worker stages its rows with it (never the library's
 * file: the library copies the staged rows in, `appendStagedRows`).
 */
export class ColumnBatchAppender {
  private readonly cols: readonly ColumnDef[];
  private readonly types: DuckDBType[];
  private readonly filler = new ChunkFiller();
  private readonly ids: string[];
  private readonly rowNos = new Int32Array(VECTOR_ROWS);

  private constructor(
    private readonly appender: DuckDBAppender,
    private readonly kind: DatasetKind,
    datasetId: string,
  ) {
    this.cols = columnsOf(kind);
    this.types = rowTypes(kind);
    this.ids = new Array<string>(VECTOR_ROWS).fill(datasetId);
  }

  static async open(
    conn: DuckDBConnection,
    table: string,
    kind: DatasetKind,
    datasetId: string,
  ): Promise<ColumnBatchAppender> {
    return new ColumnBatchAppender(await conn.createAppender(table), kind, datasetId);
  }

  /** Appends a batch as rows `firstRowNo…`. */
  append(firstRowNo: number, batch: ColumnBatch): void {
    const { cols, filler } = this;
    if (batch.columns.length !== cols.length)
      throw new Error('an import batch must hold every field of its kind');
    const part = <T>(all: readonly T[], off: number, n: number): readonly T[] =>
      off === 0 && n === all.length ? all : all.slice(off, off + n);
    for (let off = 0; off < batch.n; off += VECTOR_ROWS) {
      const n = Math.min(VECTOR_ROWS, batch.n - off);
      const chunk = DuckDBDataChunk.create(this.types, n);
      filler.varchar(chunk, 0, this.ids, n);
      for (let i = 0; i < n; i++) this.rowNos[i] = firstRowNo + off + i;
      filler.int32(chunk, 1, this.rowNos, n);
      for (let c = 0; c < cols.length; c++) {
        const values = part(batch.columns[c]!, off, n);
        if (cols[c]!.type === 'integer') filler.bigint(chunk, c + 2, values as (number | null)[], n);
        else filler.varchar(chunk, c + 2, values as (string | null)[], n);
      }
      filler.varchar(chunk, cols.length + 2, part(batch.extras, off, n), n);
      fillShadows(filler, chunk, this.kind, (c) => part(batch.columns[c]!, off, n), n);
      this.appender.appendDataChunk(chunk);
    }
  }

  /** Flushes what was appended and closes the appender. */
  close(): void {
    try {
      this.appender.flushSync();
    } finally {
      this.appender.closeSync();
    }
  }
}

/** Which version of a file was read: a file saved again in between differs in one of these. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export async function fileStamp(path: string): Promise<FileStamp> {
  const s = await stat(path);
  return { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino };
}

/**
 * A plain CSV's rows as DuckDB's CSV reader reads and converts them (import/csv-native.ts): the query
 * over the file itself (row table's shape, row numbers from 0, and `_needs_row_path` per row), the
 * rows it must give (one per line after the header) and the version of the file the worker looked at.
 * The library runs it straight into the dataset, reading the file once: the rows are checked in that
 * same read, and the file's version after it, so nothing unchecked is kept.
 */
export interface NativeCsvPart {
  query: string;
  rows: number;
  file: { path: string; stamp: FileStamp };
}

/**
 * Rows the import worker staged: a Parquet file (or pattern) it wrote, of `stagingTableDdl`'s shape
 * with row numbers from 0, or a plain CSV read by DuckDB's reader (nothing written in between, nothing
 * read back).
 */
export type StagedSource = { parquet: string } | { csv: NativeCsvPart };

/**
 * A plain CSV part the library did not keep: a row needs the row path (a value it would warn about, a
 * blank row, a line break in a quoted value) or DuckDB's reader refused a row. Its transaction is
 * rolled back; the worker reads the file again on the row path, which checks every row as it reads it.
 */
export class NativeCsvDeclined extends Error {
  constructor(reason: string) {
    super(`the CSV is read row by row: ${reason}`);
    this.name = 'NativeCsvDeclined';
  }
}

/**
 * The file of a plain CSV part changed after the worker looked at it (saved again, still being
 * written): nothing of it is stored, and the import is refused rather than read from a moving file.
 */
export class StagedRowsChangedError extends Error {
  constructor() {
    super('the file changed while it was being imported');
    this.name = 'StagedRowsChangedError';
  }
}

/** Errors of DuckDB's CSV reader over the file (a row of another width, a quote that never ends, bad UTF-8). */
const CSV_READ_ERROR = /CSV Error|unicode|UTF-?8|Could not convert|Error when sniffing|No such file/i;

/** How often a long copy of staged rows reports how far DuckDB has got. */
const COPY_PROGRESS_MS = 250;

/**
 * Copies staged rows into the dataset as rows `firstRowNo…`, inside the caller's transaction. DuckDB
 * reads and inserts them on its own threads: the main thread only waits. `onProgress` hears DuckDB's
 * own estimate of the share done (0–1) while it works, so that one large copy (a whole CSV) still
 * shows progress; `signal` interrupts the copy. Returns the number of rows copied. A plain CSV part
 * keeps only rows that need no row path; it is refused (`StagedRowsChangedError`) when the file is no
 * longer the version the worker looked at, and declined (`NativeCsvDeclined`) unless every line after
 * the header gave a row. Either way the caller's unit rolls back.
 */
export async function appendStagedRows(
  conn: DuckDBConnection,
  kind: DatasetKind,
  datasetId: string,
  firstRowNo: number,
  staged: StagedSource,
  onProgress?: (share: number) => void,
  signal?: AbortSignal,
): Promise<number> {
  signal?.throwIfAborted();
  const names = rowColumnNames(kind);
  const select = ['$1', `row_no + $2`, ...names.slice(2)].join(', ');
  const from =
    'parquet' in staged
      ? `read_parquet(${quoteLiteral(staged.parquet)})`
      : `(${staged.csv.query}) WHERE NOT _needs_row_path`;
  const sql = `INSERT INTO ${ROW_TABLE[kind]} (${names.join(', ')}) SELECT ${select} FROM ${from}`;
  // One copy can be a whole file: a cancel stops DuckDB in it rather than waiting for its end.
  const insert = async (): Promise<number> => {
    const onAbort = (): void => conn.interrupt();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return Number((await conn.run(sql, [datasetId, firstRowNo])).rowsChanged);
    } catch (e) {
      if (!signal?.aborted && 'csv' in staged && e instanceof Error && CSV_READ_ERROR.test(e.message))
        throw new NativeCsvDeclined('DuckDB’s reader refused a row');
      throw e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };
  let copied: number | null = null;
  let declined: NativeCsvDeclined | null = null;
  try {
    copied = await (async (): Promise<number> => {
      if (!onProgress) return insert();
      // DuckDB tracks a query's progress only when asked to (and then from its first millisecond).
      await conn.run(
        'SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET progress_bar_time = 0',
      );
      let last = 0;
      const poll = setInterval(() => {
        const share = conn.progress.percentage / 100;
        if (share > last && share < 1) onProgress((last = share));
      }, COPY_PROGRESS_MS);
      try {
        return await insert();
      } finally {
        clearInterval(poll);
        await conn.run('RESET enable_progress_bar; RESET enable_progress_bar_print; RESET progress_bar_time');
      }
    })();
  } catch (e) {
    if (!(e instanceof NativeCsvDeclined)) throw e;
    declined = e;
  }
  if ('csv' in staged) {
    // What was read must be the version the worker looked at: a moving file is not imported.
    const now = await fileStamp(staged.csv.file.path).catch(() => null);
    const then = staged.csv.file.stamp;
    if (
      !now ||
      now.size !== then.size ||
      now.mtimeMs !== then.mtimeMs ||
      now.ctimeMs !== then.ctimeMs ||
      now.ino !== then.ino
    )
      throw new StagedRowsChangedError();
    if (declined) throw declined;
    // Fewer rows than lines: a row needed the row path, or a line break sat in a quoted value.
    if (copied !== staged.csv.rows) throw new NativeCsvDeclined('a row needs the row path');
  }
  if (declined || copied === null) throw declined ?? new Error('nothing was copied');
  return copied;
}

/**
 * Turns a stored row back into the record it came from: NULL text is "", extras merged back. A
 * field the dataset never had (an import's unmapped field, `missing`) is null, not "": missing,
 * not empty.
 */
export function rowToRecord(
  kind: DatasetKind,
  row: Record<string, unknown>,
  missing?: ReadonlySet<string>,
): RecordObject {
  const out: RecordObject = {};
  for (const c of columnsOf(kind)) {
    const v = row[c.field];
    if (missing?.has(c.field)) out[c.field] = null;
    else if (c.type === 'integer') out[c.field] = v === null || v === undefined ? null : Number(v);
    else out[c.field] = v === null || v === undefined ? '' : v;
  }
  const extra = row[EXTRA_COLUMN];
  if (typeof extra === 'string' && extra) {
    const parsed: unknown = JSON.parse(extra);
    if (isPlainObject(parsed)) for (const [k, v] of Object.entries(parsed)) if (!(k in out)) out[k] = v;
  }
  return out;
}
