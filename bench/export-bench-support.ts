/** What the export benchmark needs from the exporter, in one place (not a benchmark itself). */
// Imported file by file: the package index would also load DuckDB, whose memory is not the export's.
export { shipmentColumns } from '../src/main/export/columns';
export { DEFAULT_SHIPMENT_COLUMNS } from '../src/shared/fields';
export { exportCsv } from '../src/main/export/csv-writer';
export { exportXlsx } from '../src/main/export/xlsx-writer';
export { toExportRows } from '../src/main/export/memory-source';
export type { ExportColumn, ExportRow, ExportSource } from '../src/main/export/types';
import { toExcelValue } from '../src/main/export/cell-values';
import type { ExportColumnType } from '../src/main/export/types';

/** SheetJS gets the same typed values our writer produces, so both do the same work. */
export function toSheetJsCell(value: unknown, type: ExportColumnType): string | number | Date | null {
  return toExcelValue(value, type);
}
