/**
 * A CSV file read and converted by DuckDB's own CSV reader (C++, on both cores) instead of Papa Parse
 * and the row converter: the same stored values for files whose every value the row path would take
 * as it is, about four times faster. Whatever the row path would treat specially is looked for first
 * and sends the file to the row path instead (`null`), so what the analyst gets never depends on which
 * reader ran:
 * - in the bytes: line breaks other than one consistent `\n` or `\r\n`, NUL bytes, a quote after blanks
 *   at a field's start (DuckDB reads ` "a"` as `a`, Papa Parse as ` "a"`), any line break inside a
 *   quoted field or blank line (the line count then differs from the rows read);
 * - in DuckDB's reading: any error (a row of another width, a quote that never ends);
 * - in the values: blank rows, numbers, days and whole numbers that do not read under the shared
 *   value rules (they are warned about), HS codes that lost a leading zero, decimal commas.
 * Formula-escaped text (`'=…`) is restored as the row path restores it. Runs in the import worker.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { DatasetKind, FieldType } from '@shared/fields';
import { EXTRA_COLUMN, columnsOf, dateExpression, decimalExpression } from '../fields';
import { quoteIdentifier, quoteLiteral } from '../parquet-typing';
import { SHIPMENT_SHADOWS } from '../shadows';
import { fileStamp } from '../ingest';
import type { ColumnPlan } from './convert';
import { isoCountryCodes } from './country-codes';
import type { StagedPart } from './row-stage';
import type { CsvLayout } from './table-types';

export interface NativeCsvJob {
  path: string;
  layout: CsvLayout;
  kind: DatasetKind;
  /** The header's record number (1, or 2 after a `sep=` line). */
  headerRow: number;
  /** Whether decimal commas are read (the confirmed locale). */
  decimalComma: boolean;
  /** One per column of the file, from the row converter (the same plan the row path follows). */
  columns: readonly ColumnPlan[];
  /** Where parts are written. */
  dir: string;
  signal: AbortSignal;
  /** Hands the part on to be stored; answers whether the library kept it (see `NativeCsvDeclined`). */
  onPart: (part: StagedPart, rowsRead: number) => Promise<boolean>;
}

/** What the bytes say: lines, and whether anything in them needs the row path. */
export interface CsvBytes {
  lines: number;
  plain: boolean;
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/**
 * One pass over the file's bytes (native searches, not a loop per byte): its lines, and whether its
 * line breaks, NUL bytes and quotes are ones both readers read alike.
 */
export async function scanCsvBytes(path: string, delimiter: string): Promise<CsvBytes> {
  const delim = delimiter.charCodeAt(0);
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  let plain = true;
  let prev = LF; // the byte before the chunk (the start of the file counts as a line start)
  let prevBeforeBlanks = LF; // the byte before the run of blanks that ended the last chunk
  let last = -1;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const buf = chunk as Buffer;
    if (buf.indexOf(0) >= 0) plain = false;
    for (let i = buf.indexOf(LF); i >= 0; i = buf.indexOf(LF, i + 1)) {
      lf += 1;
      if ((i > 0 ? buf[i - 1] : prev) === CR) crlf += 1;
    }
    for (let i = buf.indexOf(CR); i >= 0; i = buf.indexOf(CR, i + 1)) cr += 1;
    for (let i = buf.indexOf(QUOTE); i >= 0 && plain; i = buf.indexOf(QUOTE, i + 1)) {
      // Blanks between a field's start and a quote: the readers disagree.
      let j = i - 1;
      while (j >= 0 && (buf[j] === 0x20 || buf[j] === 0x09)) j -= 1;
      if (j === i - 1) continue;
      const before = j >= 0 ? buf[j]! : prevBeforeBlanks;
      if (before === delim || before === LF || before === CR) plain = false;
    }
    if (buf.length > 0) {
      let j = buf.length - 1;
      while (j >= 0 && (buf[j] === 0x20 || buf[j] === 0x09)) j -= 1;
      prevBeforeBlanks = j >= 0 ? buf[j]! : prevBeforeBlanks;
      prev = buf[buf.length - 1]!;
      last = prev;
    }
    if (!plain) break;
  }
  // One kind of line break only: every \n after \r, or no \r at all.
  if (cr !== crlf || (crlf > 0 && crlf !== lf)) plain = false;
  const lines = last < 0 ? 0 : last === LF ? lf : lf + 1;
  return { lines, plain };
}

/** Whitespace as JavaScript's trim() takes it, and more (a row blank here may not be blank there). */
const BLANK = String.raw`[\s\x{0b}\p{Z}\x{feff}]*`;

/** convert.ts's TOTALS_LABEL in RE2, with BLANK's wider whitespace: it flags every label that one takes. */
const TOTALS_LABEL_SQL = String.raw`(?i)${BLANK}(?:(?:grand[\s\x{0b}\p{Z}\x{feff}]+|sub-?${BLANK})?totals?|sum)${BLANK}:?${BLANK}`;

/** The text of column `i` after undoing the export's formula escaping (csv-formula.ts). */
function restored(i: number): string {
  const c = `c${i}`;
  return `(CASE WHEN starts_with(${c}, '''') THEN regexp_replace(${c}, '^''([=+\\-@\\t\\r''])', '\\1') ELSE ${c} END)`;
}

/** Whether a value `v` would be reported by the row path (and so needs it), by the column's plan. */
let codeList: string | null = null;

/** The two-letter ISO codes as an SQL list. */
function countryCodeList(): string {
  codeList ??= isoCountryCodes()
    .map((c) => quoteLiteral(c))
    .join(', ');
  return codeList;
}

function needsRowPath(plan: ColumnPlan, v: string, decimalComma: boolean): string | null {
  const conds: string[] = [];
  const digit = `regexp_matches(${v}, '[0-9]')`;
  if (plan.target >= 0) {
    switch (plan.type) {
      case 'integer':
        conds.push(`NOT regexp_full_match(${v}, '[+-]?[0-9]{1,15}')`);
        break;
      case 'decimal':
        if (decimalComma) conds.push(digit);
        else conds.push(`(${decimalExpression(v)} IS NULL AND ${digit})`);
        break;
      case 'epoch':
        conds.push(`(${decimalExpression(v)} IS NULL AND ${digit})`);
        break;
      case 'date':
        conds.push(`(${dateExpression(v)} IS NULL AND ${digit})`);
        break;
      case 'text':
        break;
    }
  }
  if (plan.hs)
    conds.push(
      // Written with dots or spaces: the row path stores its digits and reports it.
      `regexp_full_match(${v}, '${BLANK}[0-9]{3,4}([. ][0-9]{2}([0-9]{2})?){1,3}${BLANK}')`,
      `(regexp_full_match(${v}, '${BLANK}[0-9]+${BLANK}') AND length(regexp_replace(${v}, '[^0-9]', '', 'g')) % 2 = 1 AND length(regexp_replace(${v}, '[^0-9]', '', 'g')) >= 3)`,
    );
  // Anything but a two-letter code (a country's name, a code in lower case): the row path stores its
  // code, or says it names no country.
  if (plan.country && plan.target >= 0) conds.push(`(${v} <> '' AND ${v} NOT IN (${countryCodeList()}))`);
  return conds.length === 0 ? null : `(${v} IS NOT NULL AND (${conds.join(' OR ')}))`;
}

function valueSql(type: FieldType, v: string): string {
  // TRY_: the header row is read too (and dropped); a value of the rows is cast only when it reads.
  return type === 'integer' ? `TRY_CAST(NULLIF(${v}, '') AS BIGINT)` : `NULLIF(${v}, '')`;
}

/** Whether column `i` holds nothing but blanks (or nothing). */
function blank(i: number): string {
  return `(r${i} IS NULL OR regexp_full_match(r${i}, '${BLANK}'))`;
}

/**
 * The SELECT over `read_csv` giving the row table's columns (row numbers from 0, in the file's order)
 * and `_needs_row_path` per row.
 */
function conversionSql(job: NativeCsvJob, source: string): string {
  const fields = columnsOf(job.kind);
  const byTarget = new Map<number, number>();
  job.columns.forEach((p, i) => {
    if (p.target >= 0) byTarget.set(p.target, i);
  });
  const stored = fields.map((f, t) => {
    const i = byTarget.get(t);
    const value =
      i === undefined
        ? `CAST(NULL AS ${f.type === 'integer' ? 'BIGINT' : 'VARCHAR'})`
        : valueSql(f.type, `r${i}`);
    return `${value} AS ${quoteIdentifier(f.field)}`;
  });
  const extras = job.columns.flatMap((p, i) =>
    p.target < 0 && p.extraHeader !== null
      ? [
          `CASE WHEN r${i} <> '' THEN ${quoteLiteral(`${JSON.stringify(p.extraHeader)}:`)} || to_json(r${i}) END`,
        ]
      : [],
  );
  stored.push(
    extras.length === 0
      ? `CAST(NULL AS VARCHAR) AS ${EXTRA_COLUMN}`
      : `NULLIF('{' || concat_ws(',', ${extras.join(', ')}) || '}', '{}') AS ${EXTRA_COLUMN}`,
  );
  const shadows =
    job.kind === 'shipments'
      ? SHIPMENT_SHADOWS.map((s) => {
          const text = quoteIdentifier(s.field);
          return `${s.sqlType === 'DATE' ? dateExpression(text) : decimalExpression(text)} AS ${quoteIdentifier(s.column)}`;
        })
      : [];
  const flags = job.columns
    .map((p, i) => needsRowPath(p, `r${i}`, job.decimalComma))
    .filter((c): c is string => c !== null);
  // The row path looks at the columns it imports only: a row filled only where a column is left out
  // (a row index) is a blank row, and a totals row's label is its first filled cell among the others.
  const kept = job.columns.flatMap((p, i) => (p.leftOut ? [] : [i]));
  // A blank row: the other columns are looked at only when the first one is blank.
  const [head, ...rest] = kept.map(blank);
  if (head !== undefined)
    flags.push(`(CASE WHEN ${head} THEN ${rest.length > 0 ? rest.join(' AND ') : 'true'} ELSE false END)`);
  // A row whose first filled cell says "Total" may be the file's totals, which the row path leaves out.
  const firstFilled = kept.map((i) => `CASE WHEN NOT ${blank(i)} THEN r${i} END`);
  if (firstFilled.length > 0)
    flags.push(
      `coalesce(regexp_full_match(coalesce(${firstFilled.join(', ')}), '${TOTALS_LABEL_SQL}'), false)`,
    );
  const restoredColumns = job.columns.map((_, i) => `${restored(i)} AS r${i}`).join(', ');
  const n = '(row_number() OVER () - 1)';
  const converted =
    `SELECT ${stored.join(', ')}, (${flags.join(' OR ')}) AS _needs_row_path, ${n} AS _n ` +
    `FROM (SELECT ${restoredColumns} FROM ${source})`;
  // The shadows read the stored text, as the row path's do.
  return (
    `SELECT CAST(NULL AS VARCHAR) AS dataset_id, CAST(_n AS INTEGER) AS row_no, * EXCLUDE (_n)` +
    `${shadows.length > 0 ? `, ${shadows.join(', ')}` : ''} FROM (${converted})`
  );
}

function readCsvSql(job: NativeCsvJob, skip: number): string {
  const columns = job.columns.map((_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  return (
    `read_csv(${quoteLiteral(job.path)}, columns = {${columns}}, header = false, skip = ${skip}, ` +
    `delim = ${quoteLiteral(job.layout.delimiter)}, quote = '"', escape = '"', auto_detect = false, ` +
    `strict_mode = true, null_padding = false)`
  );
}

/** Whether the plan is one this reader follows exactly; the bytes and values are checked later. */
function eligible(job: NativeCsvJob): boolean {
  return (
    job.layout.encoding === 'utf-8' &&
    job.columns.length > 0 &&
    job.headerRow === (job.layout.sepLine ? 2 : 1) &&
    // A JavaScript object drops this key; JSON text would keep it.
    !job.columns.some((p) => p.target < 0 && p.extraHeader === '__proto__')
  );
}

/** A column with no name in the header row that holds a value: its first one, and the file's row of it. */
export interface UnnamedFound {
  column: number;
  count: number;
  row: number;
  example: string;
}

/**
 * Hands `onPart` the file as one part when its bytes are ones DuckDB's reader reads as the row path
 * does: the query that reads, converts and checks it, for the library's DuckDB to run straight into the
 * dataset. The rows are checked in that one read (`appendStagedRows` keeps a part only when no row
 * needs the row path and every line gave a row of the file as it was here), so the file is read once
 * and never kept unchecked. Answers how many rows were stored; null when the file needs the row path
 * (nothing was stored).
 */
export async function stageCsvNatively(
  job: NativeCsvJob,
): Promise<{ rows: number; filled: UnnamedFound[] } | null> {
  if (!eligible(job)) return null;
  // Before the bytes are looked at: a file saved again after this is not kept (see appendStagedRows).
  const stamp = await fileStamp(job.path);
  const bytes = await scanCsvBytes(job.path, job.layout.delimiter);
  if (!bytes.plain || job.signal.aborted) return null;
  const rows = bytes.lines - job.headerRow;
  // No rows: the import then says the file holds no records.
  if (rows <= 0) return { rows: 0, filled: [] };
  const instance = await DuckDBInstance.create(':memory:', {
    threads: '1',
    memory_limit: '64MB',
    temp_directory: join(job.dir, 'csv-spill'),
  });
  let conn: DuckDBConnection | null = null;
  let filled: UnnamedFound[] = [];
  const interrupt = (): void => conn?.interrupt();
  job.signal.addEventListener('abort', interrupt);
  try {
    conn = await instance.connect();
    try {
      // The header: read at the data's width (a header of another width is refused by the row path)
      // and on one line (a line break in it would shift the lines skipped below).
      const header = await conn.runAndReadAll(
        `SELECT ${job.columns.map((_, i) => `coalesce(regexp_matches(c${i}, '[\r\n]'), false)`).join(' OR ')} AS broken ` +
          `FROM ${readCsvSql(job, job.headerRow - 1)} LIMIT 1`,
      );
      if (header.getRows()[0]?.[0] !== false) return null;
      filled = await unnamedFilled(conn, job);
    } catch (e) {
      if (job.signal.aborted) throw e;
      // DuckDB refused the header: the row path reads it and says what is wrong in the analyst's words.
      return null;
    }
  } finally {
    job.signal.removeEventListener('abort', interrupt);
    conn?.closeSync();
    instance.closeSync();
  }
  if (job.signal.aborted) return null;
  const query = conversionSql(job, readCsvSql(job, job.headerRow));
  const kept = await job.onPart(
    { source: { csv: { query, rows, file: { path: job.path, stamp } } }, rows },
    rows,
  );
  return kept ? { rows, filled } : null;
}

/**
 * The extra columns without a name in the header row that hold a value somewhere in the file, with
 * their first value and the file's row it is in: the others (a line's trailing separators) are no
 * columns of the data. Read over the whole file, only when the header has such columns.
 */
async function unnamedFilled(conn: DuckDBConnection, job: NativeCsvJob): Promise<UnnamedFound[]> {
  const unnamed = job.columns.flatMap((p, i) => (p.unnamed && p.extraHeader !== null ? [i] : []));
  if (unnamed.length === 0) return [];
  const found = await conn.runAndReadAll(
    `SELECT ${unnamed.map((i) => `min(_n) FILTER (WHERE r${i} <> ''), arg_min(r${i}, _n) FILTER (WHERE r${i} <> ''), count(*) FILTER (WHERE r${i} <> '')`).join(', ')} ` +
      `FROM (SELECT ${unnamed.map((i) => `${restored(i)} AS r${i}`).join(', ')}, row_number() OVER () AS _n ` +
      `FROM ${readCsvSql(job, job.headerRow)})`,
  );
  const row = found.getRows()[0] ?? [];
  return unnamed.flatMap((column, k) => {
    const n = row[3 * k];
    if (n === null || n === undefined) return [];
    // Lines below the header, counted from 1: the file's row is the header's plus that.
    return [
      {
        column,
        count: Number(row[3 * k + 2]),
        row: job.headerRow + Number(n),
        example: String(row[3 * k + 1] ?? ''),
      },
    ];
  });
}
