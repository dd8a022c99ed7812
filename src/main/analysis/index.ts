export { createAnalysis, type Analysis, type AnalysisOptions } from './analysis';
export { tableToXlsx } from './table-xlsx';
export { KG_PER_UNIT } from './sql';
export { snapshotChanges } from './snapshot-changes';
