/**
 * An independent Parquet reader for the tests: hyparquet, a plain JavaScript implementation of the
 * format (no DuckDB, which writes the files). Values come back raw: instants as epoch microseconds
 * (bigint), days as days since 1970-01-01, 64-bit integers as bigint, maps as objects.
 */
import { readFile } from 'node:fs/promises';
import { parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

export interface ParquetColumnInfo {
  name: string;
  /** Physical type (DOUBLE, INT32, INT64, BYTE_ARRAY) or undefined for a group (a map). */
  physical: string | undefined;
  /** The logical or converted type: DATE, TIMESTAMP (UTC, MICROS), UTF8, MAP, …; '' when none. */
  logical: string;
}

export interface ParquetCells {
  columns: ParquetColumnInfo[];
  rows: Record<string, unknown>[];
  /** The file's key-value metadata. */
  metadata: Record<string, string>;
}

export async function readParquetCells(path: string): Promise<ParquetCells> {
  const buf = await readFile(path);
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  const meta = await parquetMetadataAsync(file);
  const root = meta.schema[0];
  const columns: ParquetColumnInfo[] = [];
  // Top-level fields only: the schema is flattened depth-first, children counted by num_children.
  let i = 1;
  const skip = (at: number): number => {
    const n = meta.schema[at]?.num_children ?? 0;
    let next = at + 1;
    for (let k = 0; k < n; k++) next = skip(next);
    return next;
  };
  for (let k = 0; k < (root?.num_children ?? 0); k++) {
    const el = meta.schema[i]!;
    const logical = el.logical_type
      ? el.logical_type.type === 'TIMESTAMP'
        ? `TIMESTAMP(${el.logical_type.isAdjustedToUTC ? 'UTC' : 'local'}, ${el.logical_type.unit})`
        : el.logical_type.type
      : (el.converted_type ?? '');
    columns.push({ name: el.name, physical: el.type, logical });
    i = skip(i);
  }
  const rows = (await parquetReadObjects({
    file,
    compressors,
    parsers: {
      timestampFromMicroseconds: (us: bigint) => us,
      timestampFromMilliseconds: (ms: bigint) => ms * 1000n,
      timestampFromNanoseconds: (ns: bigint) => ns / 1000n,
      dateFromDays: (days: number) => days,
    },
  })) as Record<string, unknown>[];
  const metadata = Object.fromEntries((meta.key_value_metadata ?? []).map((kv) => [kv.key, kv.value ?? '']));
  return { columns, rows, metadata };
}
