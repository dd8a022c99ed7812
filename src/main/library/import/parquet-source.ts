/**
 * A Parquet file as a table source, read by DuckDB (read_parquet) in the import worker. Portolan's own
 * exports come back cell for cell: their typed columns are rendered to the original text with the
 * shapes and the `_original_text` map the file carries (../parquet-typing.ts), and their metadata
 * gives back the query like an Excel export's Query sheet. Any other tool's file is read by its
 * types: numbers as numbers, decimals and integers as their exact digits, dates as yyyy-MM-dd,
 * date-times as date-time cells (so an epoch field gets Unix seconds, a date field the day), nested
 * values as JSON text.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { z } from 'zod';
import { serialFromSecondsText } from '@shared/fields';
import type { ImportSheetView } from '@shared/library/import-contract';
import {
  ORIGINAL_TEXT_COLUMN,
  PARQUET_META_KEY,
  originalTextSql,
  parquetTypeOf,
  quoteIdentifier,
  quoteLiteral,
  type ParquetColumnShape,
} from '../parquet-typing';
import { ImportRefusal } from './refusal';
import type { ImportLimits, RawRow, TableSource } from './table-types';
import type { CellValue } from './xlsx/spreadsheet-xml';
import type { NumberFormat } from './xlsx/workbook';

/** A date-time cell's format: the converter turns its serial into seconds, a day or date-time text. */
const DATE_TIME: NumberFormat = { code: 'yyyy-mm-dd hh:mm:ss', date: true };

const shapeSchema = z.object({
  name: z.string().max(1000),
  field: z.string().max(1000),
  type: z.enum(['text', 'decimal', 'date', 'epoch', 'integer']),
  decimals: z.number().int().min(0).max(20).optional(),
  wholeDecimals: z.number().int().min(0).max(20).optional(),
  grouped: z.boolean().optional(),
});
const metaSchema = z.object({
  version: z.literal(1),
  kind: z.string(),
  originalTextColumn: z.literal(ORIGINAL_TEXT_COLUMN).nullable(),
  columns: z.array(shapeSchema).max(16_384),
  query: z.array(z.tuple([z.string(), z.string()])).max(10_000),
});
type Meta = z.infer<typeof metaSchema>;

const TIMESTAMP = /^TIMESTAMP(_S|_MS|_NS)?( WITH TIME ZONE)?$/;
const NESTED = /(\[\d*\]$)|^(STRUCT|MAP|UNION)\(/;

interface Column {
  name: string;
  /** The SQL expression of the value handed to the converter (inside json_array). */
  sql: string;
  /** Its value is epoch microseconds as text, to become a date-time cell. */
  instant: boolean;
}

/** How a column of another tool's file is read, by its DuckDB type. */
function foreignColumn(name: string, type: string): Column {
  const c = quoteIdentifier(name);
  if (type === 'VARCHAR' || type === 'BOOLEAN') return { name, sql: c, instant: false };
  if (type === 'DOUBLE')
    return {
      name,
      sql: `CASE WHEN isfinite(${c}) THEN to_json(${c}) ELSE to_json(CAST(${c} AS VARCHAR)) END`,
      instant: false,
    };
  if (TIMESTAMP.test(type))
    return {
      name,
      sql: `CASE WHEN isfinite(${c}) THEN CAST(epoch_us(${c}) AS VARCHAR) ELSE CAST(${c} AS VARCHAR) END`,
      instant: true,
    };
  if (NESTED.test(type)) return { name, sql: `CAST(to_json(${c}) AS VARCHAR)`, instant: false };
  // As DuckDB writes it: FLOAT as its shortest text ("0.1", not the double 0.10000000149…), integers
  // and fixed-point decimals as their exact digits (no double in between), DATE as yyyy-MM-dd, and
  // anything else (TIME, UUID, BLOB, …) as its usual text.
  return { name, sql: `CAST(${c} AS VARCHAR)`, instant: false };
}

const US_TEXT = /^(-?)(\d+)$/;

/** Epoch microseconds as a date-time serial, exactly as an xlsx cell would hold it; null out of range. */
function serialOfMicros(text: string): number | null {
  const m = US_TEXT.exec(text);
  if (!m) return null;
  const digits = m[2]!.padStart(7, '0');
  return serialFromSecondsText(`${m[1]}${digits.slice(0, -6)}.${digits.slice(-6)}`);
}

/** An ISO text of epoch microseconds, for a date-time before the spreadsheet era. */
function isoOfMicros(text: string): string {
  const us = BigInt(text);
  // Whole seconds rounded down (towards the past, also before 1970), the microseconds after them.
  const micro = ((us % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const d = new Date(Number((us - micro) / 1000n));
  if (Number.isNaN(d.getTime())) return text;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}.${String(micro).padStart(6, '0')}`;
}

function notParquet(): ImportRefusal {
  return new ImportRefusal(
    'it is not a readable Parquet file: the file is damaged or cut off, or it is another kind of file with a .parquet name',
  );
}

async function rowsOf(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.run(sql)).getRowObjectsJson();
}

/** Portolan's description in the file's metadata, when it is there and well formed. */
async function readMeta(conn: DuckDBConnection, file: string): Promise<Meta | null> {
  const kv = await rowsOf(
    conn,
    `SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${file}) WHERE decode(key) = ${quoteLiteral(PARQUET_META_KEY)}`,
  ).catch(() => []);
  const text = kv[0]?.['v'];
  if (typeof text !== 'string') return null;
  try {
    const parsed = metaSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function openParquet(path: string, limits: ImportLimits): Promise<TableSource> {
  // Its own small database in the worker: nothing else is open in it, the file is only read.
  const instance = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: '1GB' });
  let conn: DuckDBConnection | null = null;
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    conn?.closeSync();
    conn = null;
    instance.closeSync();
  };
  try {
    conn = await instance.connect();
    const file = quoteLiteral(path);
    let described: Record<string, unknown>[];
    let count: number;
    try {
      described = await rowsOf(conn, `DESCRIBE SELECT * FROM read_parquet(${file})`);
      const n = await rowsOf(conn, `SELECT sum(num_rows)::DOUBLE AS n FROM parquet_file_metadata(${file})`);
      count = Number(n[0]?.['n'] ?? 0);
    } catch {
      throw notParquet();
    }
    const meta = await readMeta(conn, file);
    const types = new Map(described.map((d) => [String(d['column_name']), String(d['column_type'])]));
    const hasOriginal =
      meta?.originalTextColumn === ORIGINAL_TEXT_COLUMN &&
      types.get(ORIGINAL_TEXT_COLUMN) === 'MAP(VARCHAR, VARCHAR)';
    const shapes = new Map<string, ParquetColumnShape>((meta?.columns ?? []).map((s) => [s.name, s]));
    const columns: Column[] = [];
    for (const [name, type] of types) {
      if (hasOriginal && name === ORIGINAL_TEXT_COLUMN) continue;
      const shape = shapes.get(name);
      // A column Portolan typed is read back through its shape only if it still has the type written.
      if (shape && parquetTypeOf(shape.type) === type)
        columns.push({ name, sql: originalTextSql(shape, hasOriginal), instant: false });
      else columns.push(foreignColumn(name, type));
    }
    if (columns.length === 0) throw new ImportRefusal('the file has no columns');
    if (count * columns.length > limits.maxCells)
      throw new ImportRefusal(
        `it holds more than ${limits.maxCells.toLocaleString('en-US')} cells, more than Portolan imports at once`,
      );
    const instants = columns.map((c, i) => (c.instant ? i : -1)).filter((i) => i >= 0);
    const styles: number[] = [];
    for (const i of instants) styles[i] = i;
    const select = `SELECT CAST(json_array(${columns.map((c) => c.sql).join(', ')}) AS VARCHAR) FROM read_parquet(${file})`;
    const sheets: ImportSheetView[] = [{ name: 'Parquet', rows: count + 1, hidden: false }];
    const header = columns.map((c) => c.name);
    return {
      format: 'parquet',
      sheets,
      defaultSheet: 0,
      notices: [],
      query: meta ? new Map(meta.query) : null,
      date1904: false,
      verbatim: meta !== null,
      numberFormat: (style) => (style !== undefined && instants.includes(style) ? DATE_TIME : null),
      async *rows(_sheet, signal) {
        const c = conn;
        if (!c) throw new Error('the Parquet file is closed');
        // Row 1 is the header made of the column names; data row i is row i + 1.
        yield [{ number: 1, values: header }];
        const onAbort = (): void => c.interrupt();
        signal?.addEventListener('abort', onAbort, { once: true });
        try {
          const result = await c.stream(select);
          let number = 1;
          while (!signal?.aborted) {
            const chunk = await result.fetchChunk();
            if (!chunk || chunk.rowCount === 0) return;
            const batch: RawRow[] = [];
            for (const [json] of chunk.getRows()) {
              const values = JSON.parse(json as string) as CellValue[];
              for (const i of instants) {
                const v = values[i];
                if (typeof v !== 'string' || !US_TEXT.test(v)) continue;
                const serial = serialOfMicros(v);
                values[i] = serial ?? isoOfMicros(v);
              }
              number += 1;
              batch.push(instants.length > 0 ? { number, values, styles } : { number, values });
            }
            yield batch;
          }
        } catch (e) {
          if (signal?.aborted) return;
          throw e;
        } finally {
          signal?.removeEventListener('abort', onAbort);
        }
      },
      close,
    };
  } catch (e) {
    close();
    throw e;
  }
}
