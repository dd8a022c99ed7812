import {
  DATE_SHIPMENT_FIELDS,
  DECIMAL_SHIPMENT_FIELDS,
  EPOCH_SHIPMENT_FIELDS,
  FIRM_INTEGER_FIELDS,
  FIRM_TEXT_FIELDS,
  SHIPMENT_FIELDS,
} from '@shared/spec/records';

export type DatasetKind = 'shipments' | 'firms';
export const DATASET_KINDS: readonly DatasetKind[] = ['shipments', 'firms'];

/**
 * How a column is compared when sorted or filtered. Shipment values are stored as their original
 * text; `decimal`/`date`/`epoch` columns are cast in SQL (TRY_CAST) at query time, so a filler like
 * "-" simply sorts last instead of being rejected at ingest.
 */
export type ColumnType = 'text' | 'decimal' | 'date' | 'epoch' | 'integer';

export interface ColumnDef {
  /** The record's field name, also the column name (always double-quoted in SQL). */
  field: string;
  type: ColumnType;
}

const decimal: ReadonlySet<string> = new Set(DECIMAL_SHIPMENT_FIELDS);
const dates: ReadonlySet<string> = new Set(DATE_SHIPMENT_FIELDS);
const epochs: ReadonlySet<string> = new Set(EPOCH_SHIPMENT_FIELDS);

function shipmentType(field: string): ColumnType {
  if (epochs.has(field)) return 'epoch';
  if (dates.has(field)) return 'date';
  if (decimal.has(field)) return 'decimal';
  return 'text';
}

export const SHIPMENT_COLUMNS: readonly ColumnDef[] = SHIPMENT_FIELDS.map((field) => ({
  field,
  type: shipmentType(field),
}));

export const FIRM_COLUMNS: readonly ColumnDef[] = [
  ...FIRM_TEXT_FIELDS.map((field): ColumnDef => ({ field, type: 'text' })),
  ...FIRM_INTEGER_FIELDS.map((field): ColumnDef => ({ field, type: 'integer' })),
];

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

/** The SQL expression a column is compared by. Empty text is stored as NULL and so sorts last. */
export function typedExpression(col: ColumnDef): string {
  const name = `"${col.field}"`;
  switch (col.type) {
    case 'decimal':
    case 'epoch':
      return `TRY_CAST(${name} AS DOUBLE)`;
    case 'date':
      return `TRY_CAST(${name} AS DATE)`;
    default:
      return name;
  }
}

/** Columns searched by the grid's quick filter: who, what, where. */
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
    'brandName',
    'billOfLadingNo',
    'hashId',
  ],
  firms: ['name', 'country', 'country_code', 'city_state', 'address', 'web', 'e_mail', 'tel'],
};
