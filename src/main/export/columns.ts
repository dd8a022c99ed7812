import {
  DATE_SHIPMENT_FIELDS,
  DECIMAL_SHIPMENT_FIELDS,
  EPOCH_SHIPMENT_FIELDS,
  FIRM_FIELDS,
  FIRM_INTEGER_FIELDS,
  SHIPMENT_FIELDS,
} from '@shared/spec/records';
import type { ExportColumn, ExportColumnType } from './types';

const decimal: ReadonlySet<string> = new Set(DECIMAL_SHIPMENT_FIELDS);
const dates: ReadonlySet<string> = new Set(DATE_SHIPMENT_FIELDS);
const epochs: ReadonlySet<string> = new Set(EPOCH_SHIPMENT_FIELDS);
const firmIntegers: ReadonlySet<string> = new Set(FIRM_INTEGER_FIELDS);

/** The type a shipment field is written as; epoch wins over decimal (createdAt is both in the spec lists). */
export function shipmentFieldType(field: string): ExportColumnType {
  if (epochs.has(field)) return 'epoch';
  if (dates.has(field)) return 'date';
  if (decimal.has(field)) return 'decimal';
  return 'text';
}

export function firmFieldType(field: string): ExportColumnType {
  return firmIntegers.has(field) ? 'integer' : 'text';
}

/** A shortlist that fits a screen: who traded what, when, how much. */
export const DEFAULT_SHIPMENT_FIELDS = [
  'arrivalDate',
  'importerName',
  'importerCountry',
  'exporterName',
  'exporterCountry',
  'hsCode',
  'productDetails',
  'quantity',
  'quantityUnit',
  'grossWeight',
  'usdFob',
  'usdCif',
  'portOfDeparture',
  'portOfArrival',
  'countryOfOrigin',
] as const;

/** Columns for the given shipment fields (every field of the spec when omitted); headers are the field names. */
export function shipmentColumns(fields: readonly string[] = SHIPMENT_FIELDS): ExportColumn[] {
  return fields.map((field) => ({ field, header: field, type: shipmentFieldType(field) }));
}

export function firmColumns(fields: readonly string[] = FIRM_FIELDS): ExportColumn[] {
  return fields.map((field) => ({ field, header: field, type: firmFieldType(field) }));
}
