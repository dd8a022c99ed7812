import type { ColDef, ColGroupDef, ValueFormatterParams, ValueGetterParams } from 'ag-grid-community';
import {
  DEFAULT_SHIPMENT_COLUMNS,
  PLAIN_NUMBER,
  formatNumber,
  numberDisplayOf,
  parseDecimalText,
  parseIsoDay,
  shipmentFieldLabel,
  shipmentFieldType,
} from '@shared/fields';
import { SHIPMENT_FIELDS, type ShipmentField, type ShipmentRecord } from '@shared/spec';
import { numberColumnContext } from './number-column';

export const SHIPMENT_GROUPS = ['Importer', 'Exporter', 'Goods', 'Values', 'Logistics', 'Record'] as const;
export type ShipmentGroup = (typeof SHIPMENT_GROUPS)[number];

const GOODS: ShipmentField[] = [
  'hsCode',
  'hsCodeDescription',
  'hsCodeKeyword',
  'productDetails',
  'brandName',
  'manufacturingCompany',
  'conditionNewUsed',
  'countryOfOrigin',
  'quantity',
  'quantityUnit',
  'grossWeight',
  'grossWeightUnit',
  'netWeight',
  'netWeightUnit',
  'packageAmount',
  'packagesUnit',
];
const VALUES: ShipmentField[] = [
  'usdFob',
  'fobValue',
  'fobCurrency',
  'usdCif',
  'cifValue',
  'cifCurrency',
  'unitPrice',
  'fiCurrency',
  'freightAmount',
  'insuranceAmount',
  'statisticalValueUsd',
  'incoterms',
  'paymentType',
];
const LOGISTICS: ShipmentField[] = [
  'arrivalDate',
  'portOfArrival',
  'portOfDeparture',
  'transportType',
  'transportCompany',
  'vesselName',
  'containerCount',
  'totalTeus',
  'billOfLadingNo',
  'notifyParty',
  'notifyAddress',
  'regime',
];

export function groupOf(field: ShipmentField): ShipmentGroup {
  if (field.startsWith('importer') && field !== 'importerDataType') return 'Importer';
  if (field.startsWith('exporter') && field !== 'exporterDataType') return 'Exporter';
  if (GOODS.includes(field)) return 'Goods';
  if (VALUES.includes(field)) return 'Values';
  if (LOGISTICS.includes(field)) return 'Logistics';
  return 'Record';
}

/** What an analyst wants first (the shared field model's default columns). */
export const DEFAULT_VISIBLE: readonly ShipmentField[] = DEFAULT_SHIPMENT_COLUMNS;

/** A decimal text's number under the shared rule ("1,234.50" is 1234.5, "12,5" is text). */
export function parseDecimal(text: unknown): number | null {
  return parseDecimalText(text);
}

/** yyyy-MM-dd as a local-midnight Date, which is what the grid's date filter compares against. */
export function parseDay(text: unknown): Date | null {
  const day = parseIsoDay(text);
  return day ? new Date(day.year, day.month - 1, day.day) : null;
}

export function parseEpoch(text: unknown): Date | null {
  const n = parseDecimal(text);
  return n === null ? null : new Date(n * 1000);
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

function columnFor(field: ShipmentField): ColDef<ShipmentRecord> {
  const base: ColDef<ShipmentRecord> = {
    colId: field,
    field,
    headerName: shipmentFieldLabel(field),
    headerTooltip: field,
    initialHide: !DEFAULT_VISIBLE.includes(field),
  };
  const type = shipmentFieldType(field);
  if (type === 'date') {
    return {
      ...base,
      cellDataType: 'date',
      filter: 'agDateColumnFilter',
      valueGetter: (p: ValueGetterParams<ShipmentRecord>) => parseDay(p.data?.[field]),
      valueFormatter: (p: ValueFormatterParams<ShipmentRecord, Date | null>) =>
        p.value ? dayText(p.value) : String(p.data?.[field] ?? ''),
    };
  }
  if (type === 'epoch') {
    return {
      ...base,
      cellDataType: 'dateTime',
      filter: 'agDateColumnFilter',
      valueGetter: (p: ValueGetterParams<ShipmentRecord>) => parseEpoch(p.data?.[field]),
      valueFormatter: (p: ValueFormatterParams<ShipmentRecord, Date | null>) =>
        p.value
          ? `${dayText(p.value)} ${pad(p.value.getHours())}:${pad(p.value.getMinutes())}`
          : String(p.data?.[field] ?? ''),
    };
  }
  if (type === 'decimal') {
    const display = numberDisplayOf('shipments', field) ?? PLAIN_NUMBER;
    return {
      ...base,
      cellDataType: 'number',
      filter: 'agNumberColumnFilter',
      type: 'rightAligned',
      context: numberColumnContext('shipments', field),
      // A library row may hold the number itself (a typed column of an imported file).
      valueGetter: (p: ValueGetterParams<ShipmentRecord>) => {
        const v: unknown = p.data?.[field];
        return typeof v === 'number' && Number.isFinite(v) ? v : parseDecimal(v);
      },
      // Numbers with thousands separators and the field's decimals; a text that is not a number
      // (a filler such as "N/A") shows as the service sent it. Sort and filter on the number.
      valueFormatter: (p: ValueFormatterParams<ShipmentRecord, number | null>) =>
        typeof p.value === 'number' ? formatNumber(p.value, display) : String(p.data?.[field] ?? ''),
    };
  }
  return { ...base, cellDataType: 'text', filter: 'agTextColumnFilter' };
}

/** Every shipment field of the spec, grouped; party columns keep their exact field names as ids. */
export function shipmentColumnDefs(): ColGroupDef<ShipmentRecord>[] {
  return SHIPMENT_GROUPS.map((group) => ({
    groupId: group,
    headerName: group,
    children: SHIPMENT_FIELDS.filter((f) => groupOf(f) === group).map((f) => columnFor(f)),
  }));
}
