export * from './types';
export { shipmentColumns, firmColumns, shipmentFieldType, firmFieldType } from './columns';
export { EXCEL_MAX_CELL_CHARS, CUT_MARKER } from './cell-values';
export { QUERY_SHEET_NAME, QUERY_KEYS } from './query-sheet';
export { exportXlsx, EXCEL_MAX_DATA_ROWS, type XlsxExportOptions } from './xlsx-writer';
export { exportCsv, UTF8_BOM } from './csv-writer';
export {
  exportParquet,
  exportParquetFromQuery,
  PARQUET_SCRATCH_PREFIX,
  type ParquetQuerySource,
} from './parquet-writer';
export { PARTIAL_EXPORT_NAME } from './atomic-file';
export { createMemorySource, toExportRows } from './memory-source';
export { createMemorySummaryProvider, summarizeRecords, SUMMARY_DEFINITIONS } from './summaries';
export { libraryExportSource, exportColumnsFor, viewIsNarrowed } from './library-source';
export { createLibrarySummaryProvider } from './library-summaries';
export { checkTargetPath, exportFileName, exportsFolderPath, type ExportFileFormat } from './target-path';
