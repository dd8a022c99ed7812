export {
  Library,
  type DatasetMeta,
  type CoveredWindow,
  type Provenance,
  type NewDataset,
  type ListOptions,
  type RowsBlock,
  type Equivalent,
  type DatasetStatus,
  type DatasetSource,
} from './library';
export { type GridQuery, gridQuerySchema, MAX_BLOCK_ROWS } from './query';
export {
  type DatasetKind,
  SHIPMENT_COLUMNS,
  FIRM_COLUMNS,
  QUICK_FILTER_FIELDS,
  type ColumnDef,
  type ColumnType,
} from './fields';
export { defaultDatasetName, filterKey } from './naming';
export { MIGRATIONS, SCHEMA_VERSION } from './schema';
export { importFile, type ImportResult } from './import';
