import {
  BIGINT,
  DATE,
  DOUBLE,
  DuckDBDataChunk,
  INTEGER,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
} from '@duckdb/node-api';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { describeIssue, type SpecIssue } from '@shared/spec/issues';
import { checkedRecordList, isPlainObject, typeName } from '@shared/spec/records';
import { ChunkFiller, VECTOR_ROWS } from './chunk-filler';
import { EXTRA_COLUMN, ROW_TABLE, columnsOf, type ColumnDef, type DatasetKind } from './fields';
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
): Promise<number> {
  if (records.length === 0) return 0;
  const cols = columnsOf(kind);
  const types = rowTypes(kind);
  const filler = new ChunkFiller();
  const ids = new Array<string>(VECTOR_ROWS).fill(datasetId);
  const rowNos = new Int32Array(VECTOR_ROWS);
  const columns = new RecordColumns(kind, path, checkedRecordList(records));
  const appender = await conn.createAppender(ROW_TABLE[kind]);
  try {
    for (let off = 0; off < records.length; off += VECTOR_ROWS) {
      const n = Math.min(VECTOR_ROWS, records.length - off);
      const chunk = DuckDBDataChunk.create(types, n);
      filler.varchar(chunk, 0, ids, n);
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

/**
 * Appends already-converted columns (an import's batch: one value array per field of the kind, in
 * field order, and each row's extra columns as JSON text) in data chunks, inside the caller's
 * transaction. Empty text is stored as NULL, as appendRecords does.
 */
export async function appendColumns(
  conn: DuckDBConnection,
  kind: DatasetKind,
  datasetId: string,
  firstRowNo: number,
  batch: {
    n: number;
    columns: readonly (readonly (string | number | null)[])[];
    extras: readonly (string | null)[];
  },
): Promise<number> {
  const cols = columnsOf(kind);
  if (batch.columns.length !== cols.length)
    throw new Error('an import batch must hold every field of its kind');
  const types = rowTypes(kind);
  const filler = new ChunkFiller();
  const ids = new Array<string>(VECTOR_ROWS).fill(datasetId);
  const rowNos = new Int32Array(VECTOR_ROWS);
  const appender = await conn.createAppender(ROW_TABLE[kind]);
  try {
    for (let off = 0; off < batch.n; off += VECTOR_ROWS) {
      const n = Math.min(VECTOR_ROWS, batch.n - off);
      const chunk = DuckDBDataChunk.create(types, n);
      filler.varchar(chunk, 0, ids, n);
      for (let i = 0; i < n; i++) rowNos[i] = firstRowNo + off + i;
      filler.int32(chunk, 1, rowNos, n);
      for (let c = 0; c < cols.length; c++) {
        const all = batch.columns[c]!;
        const values = off === 0 && n === all.length ? all : all.slice(off, off + n);
        if (cols[c]!.type === 'integer') filler.bigint(chunk, c + 2, values as (number | null)[], n);
        else filler.varchar(chunk, c + 2, values as (string | null)[], n);
      }
      const extras = off === 0 && n === batch.extras.length ? batch.extras : batch.extras.slice(off, off + n);
      filler.varchar(chunk, cols.length + 2, extras, n);
      fillShadows(
        filler,
        chunk,
        kind,
        (c) => {
          const all = batch.columns[c]!;
          return off === 0 && n === all.length ? all : all.slice(off, off + n);
        },
        n,
      );
      appender.appendDataChunk(chunk);
      // A turn of the event loop between chunks: an import's batches are stored in the main
      // thread, which must keep answering the window meanwhile.
      if (off + VECTOR_ROWS < batch.n) await yieldToLoop();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return batch.n;
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
