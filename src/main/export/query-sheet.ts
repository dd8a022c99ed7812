import { QUERY_KEYS, QUERY_SHEET_NAME } from '@shared/export/query-sheet-keys';
import { FILTER_FIELDS } from '@shared/spec/filter';
import type { QueryInfo } from './types';

export { QUERY_KEYS, QUERY_SHEET_NAME };

export type QueryRow = readonly [key: string, value: string | number];

/** A filter value as one readable cell: lists comma-separated, absent as empty. */
function filterCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export interface QuerySheetFacts {
  kind: string;
  query: QueryInfo;
  rowsExported: number;
  dataSheets: readonly string[];
  rowsPerSheet: number;
  cutCells: readonly string[];
  cutCellCount: number;
  /** Cells whose text lost characters a spreadsheet cannot hold (control characters). */
  alteredCells?: readonly string[];
  alteredCellCount?: number;
  /** The data columns' field names, in order: the headers are the grid's words. */
  fieldNames?: readonly string[];
  exportedAt: Date;
}

export function queryRows(facts: QuerySheetFacts): QueryRow[] {
  const { query } = facts;
  const known: ReadonlySet<string> = new Set(FILTER_FIELDS);
  const extra = Object.keys(query.filter).filter((k) => !known.has(k));
  const rows: QueryRow[] = [
    [QUERY_KEYS.kind, facts.kind],
    [QUERY_KEYS.profile, query.profile],
    [QUERY_KEYS.account, query.account],
    ...[...FILTER_FIELDS, ...extra].map((f): QueryRow => [f, filterCell(query.filter[f])]),
    [QUERY_KEYS.filter, JSON.stringify(query.filter)],
    [QUERY_KEYS.fetchedAt, query.fetchedAt],
    [QUERY_KEYS.totalReported, query.totalReported ?? 'not reported'],
    [QUERY_KEYS.rowsExported, facts.rowsExported],
    [QUERY_KEYS.dataSheets, facts.dataSheets.join(', ')],
  ];
  if (facts.dataSheets.length > 1) {
    rows.push([
      QUERY_KEYS.sheetSplit,
      `Too many rows for one sheet: the data continues over ${facts.dataSheets.length} sheets of at most ` +
        `${facts.rowsPerSheet.toLocaleString('en-US')} rows each (${facts.dataSheets.join(', ')}), in order.`,
    ]);
  }
  if (facts.cutCellCount > 0) {
    const shown = facts.cutCells.join(', ');
    const more =
      facts.cutCellCount > facts.cutCells.length
        ? ` and ${facts.cutCellCount - facts.cutCells.length} more`
        : '';
    rows.push([
      QUERY_KEYS.cutCells,
      `${facts.cutCellCount} cell(s) longer than Excel's 32,767 characters were cut and end in "[… cut]": ${shown}${more}. ` +
        'The CSV and Parquet exports keep the whole text.',
    ]);
  }
  if ((facts.alteredCellCount ?? 0) > 0) {
    const count = facts.alteredCellCount ?? 0;
    const shown = (facts.alteredCells ?? []).join(', ');
    const more =
      count > (facts.alteredCells ?? []).length
        ? ` and ${count - (facts.alteredCells ?? []).length} more`
        : '';
    rows.push([
      QUERY_KEYS.alteredCells,
      `${count} cell(s) held control characters a spreadsheet cannot store; they were removed: ${shown}${more}. ` +
        'The CSV and Parquet exports keep the whole text.',
    ]);
  }
  if (facts.fieldNames) rows.push([QUERY_KEYS.fieldNames, JSON.stringify(facts.fieldNames)]);
  if (query.view) {
    const { view } = query;
    const sort = view.sortModel.map((s) => `${s.colId} ${s.sort}`).join(', ');
    rows.push(
      [QUERY_KEYS.viewColumns, view.columns.join(', ')],
      [QUERY_KEYS.viewSort, sort || 'stored order'],
      [
        QUERY_KEYS.viewFilter,
        Object.keys(view.filterModel ?? {}).length > 0 ? JSON.stringify(view.filterModel) : 'none',
      ],
      [QUERY_KEYS.viewQuickFilter, view.quickFilter?.trim() || 'none'],
    );
  }
  rows.push(
    [QUERY_KEYS.timeZone, 'Dates and date-times are UTC'],
    [QUERY_KEYS.appVersion, query.appVersion],
    [QUERY_KEYS.exportedAt, facts.exportedAt.toISOString()],
  );
  return rows;
}
