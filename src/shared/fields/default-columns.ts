import type { ShipmentField } from '../spec/records';
import { FIRM_FIELDS } from '../spec/records';
import type { DatasetKind } from './field-types';

/**
 * The shipment columns a grid shows before the analyst chooses: who traded what, when, how much. The
 * search and library grids show these, and benchmarks measure them; the other ~90 fields are one
 * click away in the column chooser.
 */
export const DEFAULT_SHIPMENT_COLUMNS: readonly ShipmentField[] = [
  'arrivalDate',
  'importerName',
  'importerCountry',
  'exporterName',
  'exporterCountry',
  'hsCode',
  'hsCodeDescription',
  'productDetails',
  'quantity',
  'quantityUnit',
  'netWeight',
  'usdFob',
  'usdCif',
  'portOfArrival',
  'portOfDeparture',
  'transportType',
];

/** A firm record has ten fields: the firm grids show them all. */
export const DEFAULT_FIRM_COLUMNS: readonly string[] = FIRM_FIELDS;

export function defaultColumnsOf(kind: DatasetKind): readonly string[] {
  return kind === 'shipments' ? DEFAULT_SHIPMENT_COLUMNS : DEFAULT_FIRM_COLUMNS;
}
