import { BIGINT, DuckDBDataChunk, INTEGER, VARCHAR, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import type { SpecIssue } from '@shared/spec/issues';
import { isPlainObject, typeName } from '@shared/spec/records';
import { EXTRA_COLUMN, ROW_TABLE, columnsOf, type DatasetKind } from './fields';

export type RecordObject = Record<string, unknown>;
export type Checked<T> = { ok: true; value: T } | { ok: false; issue: SpecIssue };

const CHUNK_ROWS = 2048;

/**
 * Checks a list of records against the spec's record rules (text fields are text or absent, firm
 * integers are whole numbers or absent) without copying them: ingest speed is a target and
 * `parseShipmentRecord` clones every record.
 */
export function checkRecords(kind: DatasetKind, list: unknown, path: string): Checked<readonly RecordObject[]> {
  if (!Array.isArray(list)) return { ok: false, issue: { path, message: `must be a list, got ${typeName(list)}` } };
  const cols = columnsOf(kind);
  for (let i = 0; i < list.length; i++) {
    const rec: unknown = list[i];
    if (!isPlainObject(rec)) return { ok: false, issue: { path: `${path}[${i}]`, message: 'must be an object' } };
    for (const c of cols) {
      const v = rec[c.field];
      if (v === undefined || v === null) continue;
      if (c.type === 'integer') {
        if (!Number.isInteger(v)) {
          return { ok: false, issue: { path: `${path}[${i}].${c.field}`, message: `must be a whole number, got ${typeName(v)}` } };
        }
      } else if (typeof v !== 'string') {
        return { ok: false, issue: { path: `${path}[${i}].${c.field}`, message: `must be text, got ${typeName(v)}` } };
      }
    }
  }
  return { ok: true, value: list as RecordObject[] };
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

/**
 * Appends checked records to the dataset's row table through DuckDB's appender, a data chunk at a
 * time (column-wise, so one native call per non-empty value). Empty text is stored as NULL: it
 * reads back as "" and keeps the table small. Runs inside the caller's transaction.
 */
export async function appendRecords(
  conn: DuckDBConnection,
  kind: DatasetKind,
  datasetId: string,
  firstRowNo: number,
  records: readonly RecordObject[],
): Promise<number> {
  if (records.length === 0) return 0;
  const cols = columnsOf(kind);
  const types: DuckDBType[] = [VARCHAR, INTEGER, ...cols.map((c) => (c.type === 'integer' ? BIGINT : VARCHAR)), VARCHAR];
  const appender = await conn.createAppender(ROW_TABLE[kind]);
  try {
    for (let off = 0; off < records.length; off += CHUNK_ROWS) {
      const n = Math.min(CHUNK_ROWS, records.length - off);
      const columns: (string | number | bigint | null)[][] = new Array(cols.length + 3);
      columns[0] = new Array<string>(n).fill(datasetId);
      const rowNos = new Array<number>(n);
      for (let i = 0; i < n; i++) rowNos[i] = firstRowNo + off + i;
      columns[1] = rowNos;
      const present = new Array<number>(n).fill(0);
      for (let c = 0; c < cols.length; c++) {
        const field = cols[c]!.field;
        const isInt = cols[c]!.type === 'integer';
        const col = new Array<string | bigint | null>(n);
        for (let i = 0; i < n; i++) {
          const v = records[off + i]![field];
          if (v === undefined) {
            col[i] = null;
            continue;
          }
          present[i]!++;
          if (v === null || v === '') col[i] = null;
          else col[i] = isInt ? BigInt(v as number) : (v as string);
        }
        columns[c + 2] = col;
      }
      const extra = new Array<string | null>(n);
      for (let i = 0; i < n; i++) extra[i] = extrasOf(kind, records[off + i]!, present[i]!);
      columns[cols.length + 2] = extra;
      const chunk = DuckDBDataChunk.create(types, n);
      chunk.setColumns(columns);
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return records.length;
}

/** Turns a stored row back into the record it came from: NULL text is "", extras merged back. */
export function rowToRecord(kind: DatasetKind, row: Record<string, unknown>): RecordObject {
  const out: RecordObject = {};
  for (const c of columnsOf(kind)) {
    const v = row[c.field];
    if (c.type === 'integer') out[c.field] = v === null || v === undefined ? null : Number(v);
    else out[c.field] = v === null || v === undefined ? '' : v;
  }
  const extra = row[EXTRA_COLUMN];
  if (typeof extra === 'string' && extra) {
    const parsed: unknown = JSON.parse(extra);
    if (isPlainObject(parsed)) for (const [k, v] of Object.entries(parsed)) if (!(k in out)) out[k] = v;
  }
  return out;
}
