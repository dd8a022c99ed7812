import type { SnapshotDiff, SummaryRow, TableExportInput } from '@shared/analysis/analysis-contract';

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
