import {
  DATASET_KINDS,
  FIRM_FIELD_DEFS,
  GROUPED_DECIMAL_TEXT_SOURCE,
  SHIPMENT_FIELD_DEFS,
  type DatasetKind,
  type FieldDef,
  type FieldType,
} from '@shared/fields';

export { DATASET_KINDS, type DatasetKind };

/**
 * How a column is compared when sorted or filtered: the shared field model's type. Shipment values
 * are stored as their original text; `decimal`/`date`/`epoch` columns are read as numbers, days and
 * instants at query time under the shared value rules (@shared/fields), so a filler like "-" simply
 * sorts last instead of being rejected at ingest.
 */
export type ColumnType = FieldType;
export type ColumnDef = FieldDef;

export const SHIPMENT_COLUMNS: readonly ColumnDef[] = SHIPMENT_FIELD_DEFS;
export const FIRM_COLUMNS: readonly ColumnDef[] = FIRM_FIELD_DEFS;

/** Column holding fields the service sent that the spec does not list (JSON object text, or NULL). */
export const EXTRA_COLUMN = '_extra';

export const ROW_TABLE: Record<DatasetKind, string> = { shipments: 'shipment_rows', firms: 'firm_rows' };

export function columnsOf(kind: DatasetKind): readonly ColumnDef[] {
  return kind === 'shipments' ? SHIPMENT_COLUMNS : FIRM_COLUMNS;
}

const byKind: Record<DatasetKind, ReadonlyMap<string, ColumnDef>> = {
  shipments: new Map(SHIPMENT_COLUMNS.map((c) => [c.field, c])),
  firms: new Map(FIRM_COLUMNS.map((c) => [c.field, c])),
};

/** The only way a column name reaches SQL: looked up in the known field list, never taken from input. */
export function findColumn(kind: DatasetKind, field: string): ColumnDef | undefined {
  return byKind[kind].get(field);
}

/** A known column name, double-quoted. Throws for anything not in the field list. */
export function quoteColumn(kind: DatasetKind, field: string): string {
  const col = findColumn(kind, field);
  if (!col) throw new Error(`unknown column ${JSON.stringify(field)}`);
  return `"${col.field}"`;
}

const SQL_BLANKS = ' \t\n\v\f\r';
const ISO_DAY_SOURCE = String.raw`\d{4}-\d{2}-\d{2}`;

/** An SQL string literal of a pattern written for both JavaScript and RE2. */
function sqlPattern(source: string): string {
  return `'${source.replace(/'/g, "''")}'`;
}

/**
 * The number a decimal text stands for in SQL, under the shared decimal rule (parseDecimalText): what
 * DuckDB's DOUBLE cast reads, less what the rule calls text ("inf", "NaN", "1_000", "+-5", overflow),
 * plus numbers with thousands commas. The cast is tried only on text without `n`, `N`, `_` or `+-`
 * (no number under the rule has them; test/fields fuzzes the two against each other), and the pattern
 * only on text with a comma: the common plain number costs one cast, as before.
 */
export function decimalExpression(name: string): string {
  const plain = `TRY_CAST(${name} AS DOUBLE)`;
  const noWords = `NOT (contains(${name}, 'n') OR contains(${name}, 'N') OR contains(${name}, '_') OR contains(${name}, '+-'))`;
  const grouped = `contains(${name}, ',') AND regexp_full_match(${name}, ${sqlPattern(GROUPED_DECIMAL_TEXT_SOURCE)})`;
  return (
    `(CASE WHEN ${noWords} AND isfinite(${plain}) THEN ${plain} ` +
    `WHEN ${grouped} THEN CAST(replace(${name}, ',', '') AS DOUBLE) END)`
  );
}

/**
 * A day written yyyy-MM-dd (the shared rule parseIsoDay): DuckDB's DATE cast, on text of that shape
 * only, so "2024/01/05" or "2024-1-5" are text in SQL as they are everywhere else.
 */
export function dateExpression(name: string): string {
  const day = `trim(${name}, ${sqlPattern(SQL_BLANKS)})`;
  return `(CASE WHEN regexp_full_match(${day}, ${sqlPattern(ISO_DAY_SOURCE)}) THEN TRY_CAST(${day} AS DATE) END)`;
}

/**
 * The typed column stored beside a decimal, date or epoch field (see shadows.ts): a name no field of
 * the spec can have.
 */
export function shadowColumnName(field: string): string {
  return `${field}__typed`;
}

/**
 * The SQL expression a column is compared by: a decimal, date or epoch field's typed shadow column
 * (filled at ingest under the same rules as `textTypedExpression`), any other column as it is. Empty
 * text and text that is no value under the rules are NULL there and so sort last.
 */
export function typedExpression(col: ColumnDef): string {
  switch (col.type) {
    case 'decimal':
    case 'epoch':
    case 'date':
      return `"${shadowColumnName(col.field)}"`;
    case 'integer':
    case 'text':
      return `"${col.field}"`;
  }
}

/**
 * What a column's text stands for, computed from the text in SQL under the shared rules: what the
 * typed shadows hold, for filling them in SQL (a library written before they existed).
 */
export function textTypedExpression(col: ColumnDef): string {
  const name = `"${col.field}"`;
  switch (col.type) {
    case 'decimal':
    case 'epoch':
      return decimalExpression(name);
    case 'date':
      return dateExpression(name);
    case 'integer':
    case 'text':
      return name;
  }
}

/**
 * How text columns sort: ICU's root collation (built into the DuckDB bindings, so it works offline).
 * Case and accents only break ties between otherwise equal letters, so "alpha" < "Beta" < "Émile" <
 * "zeta" < "Zulu" as in a spreadsheet, and letters such as Ø, ß and ı sort with their base letters
 * rather than after "z" as they do under NOCASE.NOACCENT. Equal keys are identical strings, so the
 * row-number tie-break keeps the order stable.
 */
export const TEXT_COLLATION = 'en';

/**
 * The SQL expression a column is sorted by. Empty text is stored as NULL and so sorts last. `bytes`:
 * a text column whose values order by their bytes exactly as under the collation (text-order.ts).
 */
export function sortExpression(col: ColumnDef, bytes = false): string {
  if (col.type !== 'text') return typedExpression(col);
  return bytes ? `"${col.field}"` : `"${col.field}" COLLATE ${TEXT_COLLATION}`;
}

/**
 * Whether the text a cell shows in the grid contains `needle` (a bound parameter, already lowered),
 * as SQL; see the renderer's column definitions. Decimals show the text the service sent; dates show
 * yyyy-MM-dd when the text starts with one (so a time part that is not shown is not matched) and the
 * text as sent otherwise; firm counts show their digits. `caseless` skips lower() for a needle that
 * lowering cannot affect.
 */
export function shownTextContains(col: ColumnDef, needle: string, caseless: boolean): string {
  const name = `"${col.field}"`;
  const asSent = caseless ? name : `lower(${name})`;
  switch (col.type) {
    case 'date': {
      // The shown text is a part of the text as sent, so the cheap test on the latter goes first and
      // the pattern is only read for the few rows that pass it.
      const shown = `CASE WHEN regexp_matches(${name}, '^\\s*\\d{4}-\\d{2}-\\d{2}') THEN left(trim(${name}), 10) ELSE ${asSent} END`;
      return `(contains(${asSent}, ${needle}) AND contains(${shown}, ${needle}))`;
    }
    case 'integer':
      return `contains(CAST(${name} AS VARCHAR), ${needle})`;
    case 'epoch':
      // Shown as local date and time; matching that would tie the filter to the renderer's zone.
      throw new Error(`${col.field} is not searched by the quick filter`);
    case 'decimal':
    case 'text':
      return `contains(${asSent}, ${needle})`;
  }
}

/**
 * Columns searched by the grid's quick filter: the library grid's default visible columns (dates and
 * numbers included, matched as shown) plus a few identifiers. A fixed list rather than the grid's
 * current columns, so an export of the view matches the same rows as the grid showed.
 */
export const QUICK_FILTER_FIELDS: Record<DatasetKind, readonly string[]> = {
  shipments: [
    'importerName',
    'exporterName',
    'productDetails',
    'hsCode',
    'hsCodeDescription',
    'importerCountry',
    'exporterCountry',
    'portOfArrival',
    'portOfDeparture',
    'transportType',
    'quantityUnit',
    'brandName',
    'billOfLadingNo',
    'hashId',
    'arrivalDate',
    'quantity',
    'netWeight',
    'usdFob',
    'usdCif',
  ],
  firms: [
    'name',
    'country',
    'country_code',
    'city_state',
    'address',
    'web',
    'e_mail',
    'tel',
    'firm_type',
    'shipment_count',
  ],
};
