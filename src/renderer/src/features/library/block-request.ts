import type { CallInput } from '@shared/ipc/contract';
import type { GridFilterModel, GridSortModel } from '@shared/library/library-contract';

/** A block request of the Library grid, as the bridge takes it. */
export type BlockRequest = CallInput<'library.getRows'>;

/**
 * The view a block is read in: its order, its filters and quick filter, and whether the resolved firm
 * columns are wanted. The grid's blocks and a whole row read for the record view are both read in it,
 * so a row is found at the same place in both.
 */
export interface BlockView {
  sortModel: GridSortModel;
  filterModel: GridFilterModel;
  /** Trimmed: blank means no quick filter. */
  quickFilter: string;
  resolvedFirms: boolean;
}

/** What ag-grid hands a datasource, as far as the view goes. */
export interface GridBlockParams {
  sortModel: readonly { colId: string; sort: 'asc' | 'desc' }[];
  filterModel: unknown;
}

/**
 * The view of a block the grid asks for: the grid's own sort and filters, with the conditions a
 * drill-down pinned over any the analyst set on the same column, and the quick filter trimmed.
 */
export function blockView(
  params: GridBlockParams,
  pinned: GridFilterModel,
  quickFilter: string,
  resolvedFirms: boolean,
): BlockView {
  return {
    sortModel: params.sortModel.map((s) => ({ colId: s.colId, sort: s.sort })) as GridSortModel,
    filterModel: { ...(params.filterModel as GridFilterModel | null | undefined), ...pinned },
    quickFilter: quickFilter.trim(),
    resolvedFirms,
  };
}

/** Whether a view narrows the rows (a filter or the quick filter), so its count is not the stored rows'. */
export function narrowsRows(view: BlockView): boolean {
  return view.quickFilter.length > 0 || Object.keys(view.filterModel).length > 0;
}

/**
 * The request for rows `startRow`…`endRow` of a dataset in a view. With `columns`, only those fields
 * (and the row number) are read; without, every field of each row, and the resolved firm columns when
 * the view wants them.
 */
export function blockRequest(
  datasetId: string,
  view: BlockView,
  range: { startRow: number; endRow: number },
  columns: readonly string[] = [],
): BlockRequest {
  return {
    id: datasetId,
    startRow: range.startRow,
    endRow: range.endRow,
    sortModel: view.sortModel,
    filterModel: view.filterModel,
    ...(view.quickFilter ? { quickFilter: view.quickFilter } : {}),
    ...(columns.length > 0 ? { columns: [...columns] } : view.resolvedFirms ? { resolvedFirms: true } : {}),
  };
}
