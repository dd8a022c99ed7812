import type { ColDef, ColGroupDef, ValueFormatterParams, ValueGetterParams } from 'ag-grid-community';
import {
  DATE_SHIPMENT_FIELDS,
  DECIMAL_SHIPMENT_FIELDS,
  EPOCH_SHIPMENT_FIELDS,
  PARTY_SUFFIXES,
  SHIPMENT_FIELDS,
  type ShipmentField,
  type ShipmentRecord,
} from '@shared/spec';

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

/** What an analyst wants first; the other ~90 fields are one click away in the column chooser. */
export const DEFAULT_VISIBLE: readonly ShipmentField[] = [
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

const decimals = new Set<string>(DECIMAL_SHIPMENT_FIELDS);
const dates = new Set<string>(DATE_SHIPMENT_FIELDS);
const epochs = new Set<string>(EPOCH_SHIPMENT_FIELDS);

/** "1,234.50" / " 12 " / "" → number or null; the row keeps the text for exports. */
export function parseDecimal(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const t = text.trim().replace(/,/g, '');
  if (!t || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** yyyy-MM-dd as a local-midnight Date, which is what the grid's date filter compares against. */
export function parseDay(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) ? null : d;
}

export function parseEpoch(text: unknown): Date | null {
  const n = parseDecimal(text);
  return n === null ? null : new Date(n * 1000);
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** Trade abbreviations read as such in headers: "USD FOB", not "Usd Fob". */
const ACRONYMS: Record<string, string> = {
  Usd: 'USD',
  Fob: 'FOB',
  Cif: 'CIF',
  Hs: 'HS',
  Url: 'URL',
  Ta: 'TA',
  Teus: 'TEUs',
  Id: 'ID',
  Fi: 'FI',
  Tel: 'Tel.',
};

const headerOf = (field: string, group: ShipmentGroup): string => {
  let name = field;
  if (group === 'Importer' || group === 'Exporter') {
    const suffix = PARTY_SUFFIXES.find((s) => field.endsWith(s));
    if (suffix) name = suffix;
  }
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase())
    .split(' ')
    .map((w) => ACRONYMS[w] ?? w)
    .join(' ');
};

function columnFor(field: ShipmentField, group: ShipmentGroup): ColDef<ShipmentRecord> {
  const base: ColDef<ShipmentRecord> = {
    colId: field,
    field,
    headerName: headerOf(field, group),
    headerTooltip: field,
    initialHide: !DEFAULT_VISIBLE.includes(field),
  };
  if (dates.has(field)) {
    return {
      ...base,
      cellDataType: 'date',
      filter: 'agDateColumnFilter',
      valueGetter: (p: ValueGetterParams<ShipmentRecord>) => parseDay(p.data?.[field]),
      valueFormatter: (p: ValueFormatterParams<ShipmentRecord, Date | null>) =>
        p.value ? dayText(p.value) : String(p.data?.[field] ?? ''),
    };
  }
  if (epochs.has(field)) {
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
  if (decimals.has(field)) {
    return {
      ...base,
      cellDataType: 'number',
      filter: 'agNumberColumnFilter',
      type: 'rightAligned',
      valueGetter: (p: ValueGetterParams<ShipmentRecord>) => parseDecimal(p.data?.[field]),
      // Show what the service sent (precision, trailing zeros), sort and filter on the number.
      valueFormatter: (p: ValueFormatterParams<ShipmentRecord, number | null>) =>
        String(p.data?.[field] ?? ''),
    };
  }
  return { ...base, cellDataType: 'text', filter: 'agTextColumnFilter' };
}

/** Every shipment field of the spec, grouped; party columns keep their exact field names as ids. */
export function shipmentColumnDefs(): ColGroupDef<ShipmentRecord>[] {
  return SHIPMENT_GROUPS.map((group) => ({
    groupId: group,
    headerName: group,
    children: SHIPMENT_FIELDS.filter((f) => groupOf(f) === group).map((f) => columnFor(f, group)),
  }));
}
