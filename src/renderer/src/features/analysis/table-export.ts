import {
  MIN_SHIPMENTS_FOR_OUTLIERS,
  type SnapshotDiff,
  type SummaryRow,
  type TableExportInput,
  type UnitValues,
} from '@shared/analysis/analysis-contract';
import { num } from './format';

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
      // A month stays "2025-12" here, not "Dec 2025" as on screen: a spreadsheet sorts and filters the
      // text "2025-12" in calendar order, where "Dec 2025" would sort by its letters (Apr before Jan).
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

/**
 * Unit values as export rows: every group the view is of (not only the rows it shows), its columns
 * and a few the view leaves out (the firm's code, the sums, the HS code's quartiles and size), USD per
 * kg with the view's decimals, and the flag in the view's words.
 */
export function unitValuesTable(v: UnitValues, datasetName?: string): TableExportInput {
  const role = v.role === 'importer' ? 'Importer' : 'Exporter';
  const cut =
    v.groups > v.rows.length
      ? ` Only the ${num(v.rows.length)} groups furthest from their HS median of ${num(v.groups)} are listed.`
      : '';
  return {
    title: 'Unit values',
    ...origin({
      ...(datasetName ? { datasetName } : {}),
      note:
        `USD FOB per kg of gross weight; ${num(v.shipmentsUsed)} of ${num(v.shipments)} shipments had a value and a weight. ` +
        `Outliers lie outside 1.5 × IQR of the log unit values within their HS code (of ${MIN_SHIPMENTS_FOR_OUTLIERS} shipments or more).${cut}`,
    }),
    columns: [
      { header: 'HS code', type: 'text' },
      { header: 'HS description', type: 'text' },
      { header: role, type: 'text' },
      { header: `${role} code`, type: 'text' },
      { header: v.role === 'importer' ? 'From' : 'To', type: 'text' },
      { header: 'Shipments', type: 'integer' },
      { header: 'USD FOB', type: 'decimal' },
      { header: 'Gross weight (kg)', type: 'decimal' },
      { header: 'USD per kg', type: 'price' },
      { header: 'HS median USD per kg', type: 'price' },
      { header: 'HS Q1', type: 'price' },
      { header: 'HS Q3', type: 'price' },
      { header: 'HS shipments', type: 'integer' },
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
      r.hsShipments,
      r.flag === 'low' ? 'Low' : r.flag === 'high' ? 'High' : '',
      r.lowShipments,
      r.highShipments,
    ]),
  };
}
