import type {
  SnapshotDiff,
  SummaryRow,
  TableExportInput,
  UnitValues,
} from '@shared/analysis/analysis-contract';

type Column = TableExportInput['columns'][number];

const SUMMARY_COLUMNS: Column[] = [
  { header: 'Name', type: 'text' },
  { header: 'Key', type: 'text' },
  { header: 'Detail', type: 'text' },
  { header: 'Shipments', type: 'integer' },
  { header: 'Share of shipments', type: 'percent' },
  { header: 'USD FOB', type: 'decimal' },
  { header: 'Share of USD FOB', type: 'percent' },
  { header: 'Shipments without USD FOB', type: 'integer' },
  { header: 'USD CIF', type: 'decimal' },
  { header: 'Shipments without USD CIF', type: 'integer' },
  { header: 'Gross weight (kg)', type: 'decimal' },
  { header: 'Shipments without usable weight', type: 'integer' },
];

/** Where a table comes from and what the file should say about it (see TableExportInput). */
export interface TableOrigin {
  datasetName?: string;
  note?: string;
}

const origin = (o: TableOrigin): Pick<TableExportInput, 'datasetName' | 'note'> => ({
  ...(o.datasetName ? { datasetName: o.datasetName } : {}),
  ...(o.note ? { note: o.note } : {}),
});

/** A summary as export rows: unknown sums stay empty cells, never 0. */
export function summaryTable(
  title: string,
  rows: readonly SummaryRow[],
  from: TableOrigin = {},
): TableExportInput {
  return {
    title,
    ...origin(from),
    columns: SUMMARY_COLUMNS,
    rows: rows.map((r) => [
      r.label,
      r.key,
      r.detail,
      r.shipments,
      r.shares.shipments,
      r.usdFob,
      r.shares.usdFob,
      r.usdFobMissing,
      r.usdCif,
      r.usdCifMissing,
      r.grossWeightKg,
      r.grossWeightMissing,
    ]),
  };
}

export function diffTable(title: string, diff: SnapshotDiff, from: TableOrigin = {}): TableExportInput {
  return {
    title,
    ...origin(from),
    columns: [
      { header: 'Status', type: 'text' },
      { header: 'Role', type: 'text' },
      { header: 'UrlCode', type: 'text' },
      { header: 'Name', type: 'text' },
      { header: 'Country code', type: 'text' },
      { header: 'Shipments before', type: 'integer' },
      { header: 'Shipments after', type: 'integer' },
      { header: 'Change in shipments', type: 'integer' },
      { header: 'USD FOB before', type: 'decimal' },
      { header: 'USD FOB after', type: 'decimal' },
      { header: 'Change in USD FOB', type: 'decimal' },
    ],
    rows: diff.rows.map((r) => [
      r.status,
      r.role,
      r.urlCode,
      r.name,
      r.countryCode,
      r.shipmentsBefore,
      r.shipmentsAfter,
      r.shipmentsChange,
      r.usdFobBefore,
      r.usdFobAfter,
      r.usdFobChange,
    ]),
  };
}

/** Unit values as export rows, every group (not only the rows shown), flags in words. */
export function unitValuesTable(v: UnitValues, datasetName?: string): TableExportInput {
  const role = v.role === 'importer' ? 'Importer' : 'Exporter';
  return {
    title: 'Unit values',
    ...origin({
      ...(datasetName ? { datasetName } : {}),
      note:
        `USD FOB per kg of gross weight; ${v.shipmentsUsed} of ${v.shipments} shipments had a value and a weight. ` +
        'Outliers lie outside 1.5 × IQR of the log unit values within their HS code.',
    }),
    columns: [
      { header: 'HS code', type: 'text' },
      { header: 'HS description', type: 'text' },
      { header: role, type: 'text' },
      { header: `${role} code`, type: 'text' },
      { header: v.role === 'importer' ? 'Exporter country' : 'Importer country', type: 'text' },
      { header: 'Shipments', type: 'integer' },
      { header: 'USD FOB', type: 'decimal' },
      { header: 'Gross weight (kg)', type: 'decimal' },
      { header: 'USD per kg', type: 'decimal' },
      { header: 'HS median USD per kg', type: 'decimal' },
      { header: 'HS Q1', type: 'decimal' },
      { header: 'HS Q3', type: 'decimal' },
      { header: 'Outlier', type: 'text' },
      { header: 'Low shipments', type: 'integer' },
      { header: 'High shipments', type: 'integer' },
    ],
    rows: v.rows.map((r) => [
      r.hs,
      r.hsName,
      r.firmName,
      r.firm,
      r.country,
      r.shipments,
      r.usdFob,
      r.kg,
      r.usdPerKg,
      r.hsMedian,
      r.hsQ1,
      r.hsQ3,
      r.flag === 'low' ? 'Low' : r.flag === 'high' ? 'High' : '',
      r.lowShipments,
      r.highShipments,
    ]),
  };
}
