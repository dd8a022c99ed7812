import type { GridApi } from 'ag-grid-community';
import type { ExportView } from '@shared/export/export-contract';

/**
 * The grid's current view as an export view: displayed columns in their order, the sort (in sort
 * priority), the column filters and the quick filter. Only the record's own fields are kept (a grid
 * may show helper columns the library does not have).
 */
export function viewFromGrid(api: GridApi, quickFilter: string, fields: readonly string[]): ExportView {
  const known = new Set(fields);
  const columns = api
    .getAllDisplayedColumns()
    .map((c) => c.getColId())
    .filter((id) => known.has(id));
  const sortModel = api
    .getColumnState()
    .filter((c) => (c.sort === 'asc' || c.sort === 'desc') && known.has(c.colId))
    .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
    .map((c) => ({ colId: c.colId, sort: c.sort as 'asc' | 'desc' }));
  const model = api.getFilterModel() as Record<string, unknown>;
  const filterModel = Object.fromEntries(Object.entries(model).filter(([k]) => known.has(k)));
  return {
    ...(columns.length > 0 ? { columns } : {}),
    sortModel,
    filterModel: filterModel as ExportView['filterModel'],
    quickFilter: quickFilter.trim() || null,
  };
}
