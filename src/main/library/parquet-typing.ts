/**
 * How Portolan types a dataset's columns in a Parquet file and reads the original text back: the SQL
 * the exporter (src/main/export) writes with and the importer (./import) reads with. One module, so
 * the text a typed value renders to on export is, by construction, the text the import renders.
 *
 * The rule (also written into every file's key-value metadata, `PARQUET_META_KEY`):
 * - text fields are VARCHAR, the original text; firm counts are BIGINT;
 * - decimal fields are DOUBLE (the shared decimal rule, thousands commas read), dates are DATE,
 *   epoch fields TIMESTAMP WITH TIME ZONE (UTC, to the microsecond); empty text is NULL;
 * - each typed column renders back to text with the column's own shape, kept in the metadata: the
 *   decimals most of its numbers are written with (whole numbers and numbers with a fraction apart:
 *   "12" next to "12.500") and whether they group thousands with commas ("1,234.50"), the decimals
 *   of its epoch seconds;
 * - where the rendering of a typed value is not its original text (a filler like "-", an impossible
 *   date, other decimals, more digits than a double holds, "007"), the original text is kept in the
 *   row's `_original_text` map under the column's name, and the typed value is the value the app
 *   sorts and filters by (NULL when the text is not a value). A row without such cells has NULL there.
 * So an analyst's pandas or DuckDB gets numbers, days and instants, and Portolan reads back every
 * cell exactly: `coalesce(_original_text[column], render(value))`.
 */
import type { FieldType } from '@shared/fields';
import { decimalExpression, dateExpression } from './fields';

/** The metadata key of Portolan's description of a Parquet file (JSON, `ParquetMeta`). */
export const PARQUET_META_KEY = 'portolan';
/** The column holding, per row, column → original text of the typed cells that do not render back to it. */
export const ORIGINAL_TEXT_COLUMN = '_original_text';
export const PARQUET_META_VERSION = 1;

export const PARQUET_RULE =
  'Typed columns: decimal fields DOUBLE, dates DATE, epoch seconds TIMESTAMP WITH TIME ZONE (UTC, microseconds), ' +
  'firm counts BIGINT, other fields VARCHAR as sent; empty text is NULL. A typed value renders back to the text ' +
  'as sent with its column shape below (decimals, thousands commas); where it does not (fillers like "-", ' +
  'impossible dates, other decimals, more digits than a double holds), the text as sent is in ' +
  `${ORIGINAL_TEXT_COLUMN}[column] and the typed value is the number, day or instant it stands for, or NULL.`;

/** How one column of the file is typed and rendered back to text. */
export interface ParquetColumnShape {
  /** The column's name in the file. */
  name: string;
  /** The record field it holds. */
  field: string;
  type: FieldType;
  /** decimal: digits after the point (of numbers with a fraction); epoch: digits of the seconds' fraction (0–6). */
  decimals?: number;
  /** decimal: digits after the point of whole numbers ("12" next to "12.500"; "100.00" next to "12.50"). */
  wholeDecimals?: number;
  /** decimal: thousands grouped with commas. */
  grouped?: boolean;
}

/** Portolan's description of a Parquet file it wrote, stored as JSON under `PARQUET_META_KEY`. */
export interface ParquetMeta {
  version: number;
  kind: string;
  rule: string;
  originalTextColumn: string | null;
  columns: ParquetColumnShape[];
  /** The export's Query sheet rows (QUERY_KEYS), key and value, so an import restores the query. */
  query: [string, string][];
}

/** The Parquet (DuckDB) type a field type is written as. */
export function parquetTypeOf(type: FieldType): string {
  switch (type) {
    case 'decimal':
      return 'DOUBLE';
    case 'date':
      return 'DATE';
    case 'epoch':
      return 'TIMESTAMP WITH TIME ZONE';
    case 'integer':
      return 'BIGINT';
    case 'text':
      return 'VARCHAR';
  }
}

/** Whether a field type gets a typed column (and so may need its original text kept). */
export function isTypedField(type: FieldType): boolean {
  return type !== 'text';
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** Epoch microseconds of years 1 to 9999, what a TIMESTAMP holds and a date-time shows. */
const MIN_EPOCH_US = '-62135596800000000';
const MAX_EPOCH_US = '253402300799999999';
/** Seconds text an instant is read from exactly (no rounding through a double): at most 6 decimals. */
const EXACT_SECONDS = String.raw`-?\d{1,12}(\.\d{1,6})?`;
/** What a decimal rendering can look like; the texts whose decimals count towards a column's shape. */
const RENDERED_DECIMAL = String.raw`-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?`;
/** A number of a thousand or more written without commas: evidence against grouping a column. */
const UNGROUPED_THOUSANDS = String.raw`-?\d{4,}(\.\d+)?`;
/** Digits after the point most a decimal shape carries (what exactDecimalShape allows). */
const MAX_DECIMALS = 20;

function decimalsOf(t: string): string {
  return `(CASE WHEN contains(${t}, '.') THEN length(${t}) - strpos(${t}, '.') ELSE 0 END)`;
}

function instant(us: string): string {
  return `(CASE WHEN ${us} BETWEEN ${MIN_EPOCH_US} AND ${MAX_EPOCH_US} THEN timezone('UTC', make_timestamp(${us})) END)`;
}

/**
 * The typed value of a text `t` (SQL expression, VARCHAR) under the field type: the shared value rules
 * (decimals with or without thousands commas, yyyy-MM-dd days, Unix seconds), NULL for anything else.
 */
export function typedValueSql(type: FieldType, t: string): string {
  switch (type) {
    case 'decimal':
      return decimalExpression(t);
    case 'date':
      return dateExpression(t);
    case 'integer':
      return `(CASE WHEN regexp_full_match(${t}, '-?\\d{1,18}') THEN TRY_CAST(${t} AS BIGINT) END)`;
    case 'epoch': {
      // Seconds with up to 6 decimals are read digit by digit; other numbers (an exponent, more
      // decimals) through the double, to the nearest microsecond.
      const sign = `(CASE WHEN starts_with(${t}, '-') THEN -1 ELSE 1 END)`;
      const exact = `(CAST(split_part(${t}, '.', 1) AS BIGINT) * 1000000 + ${sign} * CAST(rpad(split_part(${t}, '.', 2), 6, '0') AS BIGINT))`;
      const seconds = decimalExpression(t);
      const rounded = `(CASE WHEN abs(${seconds}) < 253402300800 THEN CAST(round(${seconds} * 1000000) AS BIGINT) END)`;
      return instant(
        `(CASE WHEN regexp_full_match(${t}, '${EXACT_SECONDS}') THEN ${exact} ELSE ${rounded} END)`,
      );
    }
    case 'text':
      return t;
  }
}

/** The text a typed value `v` renders to under its column's shape; NULL for NULL. */
export function renderSql(
  shape: Pick<ParquetColumnShape, 'type' | 'decimals' | 'wholeDecimals' | 'grouped'>,
  v: string,
): string {
  switch (shape.type) {
    case 'decimal': {
      const d = clampDecimals(shape.decimals ?? 0, MAX_DECIMALS);
      const w = clampDecimals(shape.wholeDecimals ?? d, MAX_DECIMALS);
      const fmt = (k: number): string => `format('{:${shape.grouped ? ',' : ''}.${k}f}', ${v})`;
      return w === d ? fmt(d) : `(CASE WHEN ${v} = trunc(${v}) THEN ${fmt(w)} ELSE ${fmt(d)} END)`;
    }
    case 'date':
    case 'integer':
      return `CAST(${v} AS VARCHAR)`;
    case 'epoch': {
      const d = clampDecimals(shape.decimals ?? 6, 6);
      const us = `epoch_us(${v})`;
      const whole = `(CASE WHEN ${us} < 0 THEN '-' ELSE '' END) || CAST(abs(${us}) // 1000000 AS VARCHAR)`;
      return d === 0
        ? `(${whole})`
        : `(${whole} || '.' || left(lpad(CAST(abs(${us}) % 1000000 AS VARCHAR), 6, '0'), ${d}))`;
    }
    case 'text':
      return v;
  }
}

function clampDecimals(d: number, max: number): number {
  return Number.isInteger(d) ? Math.min(max, Math.max(0, d)) : 0;
}

/** A column of the rows to write: its SQL source (any type, read as text), name in the file, field and type. */
export interface ParquetSourceColumn {
  /** SQL expression over the source relation, e.g. a quoted column name. */
  source: string;
  name: string;
  field: string;
  type: FieldType;
}

function textOf(c: ParquetSourceColumn): string {
  return `CAST(${c.source} AS VARCHAR)`;
}

/**
 * One pass over the rows to find each typed column's shape: the decimals most of its values are
 * written with, whether its numbers group thousands, and the number of rows.
 */
export function shapeStatsSql(columns: readonly ParquetSourceColumn[], fromSql: string): string {
  const parts = ['count(*) AS n'];
  const texts = columns.map((c, i) => `${textOf(c)} AS t${i}`);
  const parsed = columns.map((c, i) =>
    c.type === 'decimal' ? `t${i}, ${typedValueSql(c.type, `t${i}`)} AS v${i}` : `t${i}`,
  );
  columns.forEach((c, i) => {
    const t = `t${i}`;
    if (c.type === 'decimal') {
      const rendered = `regexp_full_match(${t}, '${RENDERED_DECIMAL}')`;
      const whole = `v${i} = trunc(v${i})`;
      parts.push(
        `mode(${decimalsOf(t)}) FILTER (WHERE ${rendered} AND NOT ${whole}) AS d${i}`,
        `mode(${decimalsOf(t)}) FILTER (WHERE ${rendered} AND ${whole}) AS w${i}`,
        `count(*) FILTER (WHERE ${rendered} AND contains(${t}, ',')) AS g${i}`,
        // Numbers of four digits or more written without commas speak against grouping.
        `count(*) FILTER (WHERE regexp_full_match(${t}, '${UNGROUPED_THOUSANDS}')) AS u${i}`,
      );
    } else if (c.type === 'epoch') {
      parts.push(
        `mode(${decimalsOf(t)}) FILTER (WHERE regexp_full_match(${t}, '${EXACT_SECONDS}')) AS d${i}`,
      );
    }
  });
  return `SELECT ${parts.join(', ')} FROM (SELECT ${parsed.join(', ')} FROM (SELECT ${texts.join(', ')} FROM (${fromSql})))`;
}

function statNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** The shapes the stats row gives (`shapeStatsSql`), and the number of rows. */
export function shapesFromStats(
  columns: readonly ParquetSourceColumn[],
  stats: Record<string, unknown>,
): { shapes: ParquetColumnShape[]; rows: number } {
  const shapes = columns.map((c, i): ParquetColumnShape => {
    const base = { name: c.name, field: c.field, type: c.type };
    if (c.type === 'decimal') {
      const grouped = (statNumber(stats[`g${i}`]) ?? 0) > (statNumber(stats[`u${i}`]) ?? 0);
      const whole = statNumber(stats[`w${i}`]);
      const decimals = clampDecimals(statNumber(stats[`d${i}`]) ?? whole ?? 0, MAX_DECIMALS);
      return { ...base, decimals, wholeDecimals: clampDecimals(whole ?? decimals, MAX_DECIMALS), grouped };
    }
    if (c.type === 'epoch') return { ...base, decimals: clampDecimals(statNumber(stats[`d${i}`]) ?? 6, 6) };
    return base;
  });
  return { shapes, rows: statNumber(stats['n']) ?? 0 };
}

/**
 * The rows as Parquet should hold them: typed columns under their names, text columns as text, and
 * (when any column is typed) the `_original_text` map of the cells whose typed value does not render
 * back to their text. Rows keep the source's order (projections only).
 */
export function typedSelectSql(
  columns: readonly ParquetSourceColumn[],
  shapes: readonly ParquetColumnShape[],
  fromSql: string,
): string {
  const texts = columns.map((c, i) => `${textOf(c)} AS t${i}`);
  const parsed = columns.map((c, i) =>
    isTypedField(c.type) ? `t${i}, ${typedValueSql(c.type, `t${i}`)} AS v${i}` : `t${i}`,
  );
  const typed = columns.map((c, i) => i).filter((i) => isTypedField(columns[i]!.type));
  const checked = columns.map((c, i) => {
    if (!isTypedField(c.type)) return `t${i}`;
    const rendered = renderSql(shapes[i] ?? c, `v${i}`);
    return `v${i}, CASE WHEN ${rendered} IS DISTINCT FROM nullif(t${i}, '') THEN t${i} END AS e${i}`;
  });
  const out = columns.map(
    (c, i) => `${isTypedField(c.type) ? `v${i}` : `t${i}`} AS ${quoteIdentifier(c.name)}`,
  );
  if (typed.length > 0) {
    const any = typed.map((i) => `e${i} IS NOT NULL`).join(' OR ');
    const entries = typed.map((i) => `{'k': ${quoteLiteral(columns[i]!.name)}, 'v': e${i}}`).join(', ');
    out.push(
      `CASE WHEN ${any} THEN map_from_entries(list_filter([${entries}], x -> x.v IS NOT NULL)) END AS ${quoteIdentifier(ORIGINAL_TEXT_COLUMN)}`,
    );
  }
  return (
    `SELECT ${out.join(', ')} FROM (SELECT ${checked.join(', ')} FROM ` +
    `(SELECT ${parsed.join(', ')} FROM (SELECT ${texts.join(', ')} FROM (${fromSql}))))`
  );
}

/**
 * The original text of a column Portolan typed, read back from the file: the kept text where there is
 * one, else the rendering of the typed value.
 */
export function originalTextSql(shape: ParquetColumnShape, hasOriginalColumn: boolean): string {
  const v = quoteIdentifier(shape.name);
  if (!isTypedField(shape.type)) return v;
  const rendered = renderSql(shape, v);
  if (!hasOriginalColumn) return rendered;
  return `coalesce(map_extract_value(${quoteIdentifier(ORIGINAL_TEXT_COLUMN)}, ${quoteLiteral(shape.name)}), ${rendered})`;
}

/** The `COPY … TO` options of every Parquet file Portolan writes, with its description in the metadata. */
export function copyOptionsSql(meta: ParquetMeta): string {
  return `FORMAT parquet, COMPRESSION zstd, KV_METADATA {${PARQUET_META_KEY}: ${quoteLiteral(JSON.stringify(meta))}}`;
}
