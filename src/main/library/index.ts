export {
  Library,
  REFERENCE_CATALOG,
  type DatasetMeta,
  type CoveredWindow,
  type Provenance,
  type NewDataset,
  type ListOptions,
  type RowsBlock,
  type Equivalent,
  type DatasetStatus,
  type DatasetSource,
  type LibraryRecovery,
  LIBRARY_FILE,
} from './library';
export type { LibraryReader } from './library-reader';
export {
  storageError,
  isDiskFull,
  diskFullError,
  whyNotStored,
  libraryNotWritableError,
  exportFileError,
  type ExportPlace,
} from './storage-errors';
export { type GridQuery, gridQuerySchema, MAX_BLOCK_ROWS, buildQuery, parseGridQuery } from './query';
export {
  type DatasetKind,
  SHIPMENT_COLUMNS,
  FIRM_COLUMNS,
  QUICK_FILTER_FIELDS,
  findColumn,
  typedExpression,
  textTypedExpression,
  type ColumnDef,
  type ColumnType,
} from './fields';
export { toNumber, toText, type Row, type SqlParams } from './db';
export type { AnswerStage } from './answer-stage';
export { type RecordObject } from './ingest';
export { LibraryWriter, type DatasetFinish } from './library-writer';
export {
  RESUMABLE_JOB_STATES,
  type JobRecord,
  type JobStatus,
  type StoredWindow,
  JobStore,
  JobStoreWriter,
} from './job-store';
export { defaultDatasetName, describeSource, filterKey, seriesKey } from './naming';
export { MIGRATIONS, SCHEMA_VERSION } from './schema';
export {
  IMPORT_STAGING_PREFIX,
  checkImport,
  importFile,
  importFormatOf,
  loadHsHeadings,
  xlsContent,
  previewImport,
  runImport,
  type ImportResult,
  type PreparedImport,
  type RememberedMapping,
} from './import';
export { FirmBook } from './firms/firm-book';
export {
  LOST_COLUMN,
  SNAPSHOT_COLUMN,
  WatchStore,
  WatchWriter,
  type DateWindow,
  type HeldRecord,
  type SnapshotRecord,
  type WatchRecord,
} from './watch/watch-store';
export { RESOLUTION_RULES, type ResolutionStep, type ResolutionSummary } from './firms/resolve';
export {
  PARQUET_META_KEY,
  PARQUET_META_VERSION,
  PARQUET_RULE,
  ORIGINAL_TEXT_COLUMN,
  copyOptionsSql,
  isTypedField,
  originalTextSql,
  parquetTypeOf,
  quoteIdentifier,
  quoteLiteral,
  renderSql,
  shapeStatsSql,
  shapesFromStats,
  typedSelectSql,
  typedValueSql,
  type ParquetColumnShape,
  type ParquetMeta,
  type ParquetSourceColumn,
} from './parquet-typing';
export { FIRM_FILTER_FIELDS, firmFilterSql, resolvedFirmJoin, type PartyRole } from './firms/firm-sql';
