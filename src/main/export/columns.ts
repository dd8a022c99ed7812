import { fieldTitleOf, firmFieldType, shipmentFieldType } from '@shared/fields';
import { RESOLVED_FIRM_TITLES, isResolvedFirmColumn } from '@shared/library/library-contract';
import { FIRM_FIELDS, SHIPMENT_FIELDS } from '@shared/spec/records';
import type { ExportColumn } from './types';

export { firmFieldType, shipmentFieldType };

/**
 * Columns for the given shipment fields (every field of the spec when omitted): CSV and Parquet headers
 * are the field names, Excel headers the grid's words (the field names go on the Query sheet).
 */
export function shipmentColumns(fields: readonly string[] = SHIPMENT_FIELDS): ExportColumn[] {
  return fields.map((field) => ({
    field,
    header: field,
    title: isResolvedFirmColumn(field) ? RESOLVED_FIRM_TITLES[field] : fieldTitleOf('shipments', field),
    type: shipmentFieldType(field),
  }));
}

export function firmColumns(fields: readonly string[] = FIRM_FIELDS): ExportColumn[] {
  return fields.map((field) => ({
    field,
    header: field,
    title: fieldTitleOf('firms', field),
    type: firmFieldType(field),
  }));
}
