/**
 * The Query sheet of Portolan's Excel exports: written by the exporter (src/main/export), read back by
 * the library's importer to restore the query. Shared so that neither depends on the other.
 */
export const QUERY_SHEET_NAME = 'Query';

/**
 * Keys of the Query sheet's key/value rows (column A key, column B value, row 1 a header). Every
 * filter field also has a row keyed by its own name; `filter` holds the exact filter JSON and is what
 * an importer should trust.
 */
export const QUERY_KEYS = {
  kind: 'kind',
  profile: 'profile',
  account: 'account',
  filter: 'filter',
  fetchedAt: 'fetched_at',
  totalReported: 'total_reported',
  rowsExported: 'rows_exported',
  dataSheets: 'data_sheets',
  sheetSplit: 'sheet_split',
  cutCells: 'cut_cells',
  /** Cells whose text lost characters a spreadsheet cannot hold (control characters), with where. */
  alteredCells: 'altered_cells',
  /** The data columns' field names in order (JSON list): the headers are the grid's words. */
  fieldNames: 'field_names',
  viewColumns: 'view_columns',
  viewSort: 'view_sort',
  viewFilter: 'view_filter',
  viewQuickFilter: 'view_quick_filter',
  timeZone: 'time_zone',
  appVersion: 'app_version',
  exportedAt: 'exported_at',
} as const;
