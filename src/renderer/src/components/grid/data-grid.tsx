import { COUNT, formatNumber } from '@shared/fields';
import { useCallback, useMemo, useState } from 'react';
import { Text } from '@mantine/core';
import { AgGridReact } from 'ag-grid-react';
import type {
  ColDef,
  ColGroupDef,
  ColumnMovedEvent,
  ColumnResizedEvent,
  FilterChangedEvent,
  GridApi,
  GridReadyEvent,
} from 'ag-grid-community';
import { restoreColumnState, restoreFilterState, saveColumnState, saveFilterState } from './column-state';
import { gridTheme, truncatedCellTooltip, truncatedTooltipOptions, useGridThemeMode } from './grid-theme';
import { GridEmptyOverlay } from './grid-empty-overlay';
import { GridStatusBar } from './grid-status-bar';
import { RecordDrawer } from './record-drawer';
import { useCellRange } from './use-cell-range';

export interface DataGridProps<T> {
  /** Key for the remembered column layout and filters, and the grid's selection. */
  gridId: string;
  testId: string;
  rows: T[] | null;
  columnDefs: (ColDef<T> | ColGroupDef<T>)[];
  quickFilter: string;
  onApi?: (api: GridApi<T> | null) => void;
  height?: number | string;
  /** The record view's group for columns outside any column group. */
  recordTitle?: string;
}

// `initial*` rather than `width`: a later change of columnDefs must not undo the user's own widths.
const baseColDef: ColDef = {
  sortable: true,
  resizable: true,
  filter: true,
  minWidth: 80,
  initialWidth: 150,
  ...truncatedCellTooltip,
};

interface RowCounts {
  rows: number;
  shown: number;
}

const fmt = (n: number): string => formatNumber(n, COUNT);

/**
 * ag-grid with the app's theme, a column layout, sort and filters remembered per grid, a cell
 * selection that copies to spreadsheets, a status bar (rows, the selection's sum and average) and a
 * record view (Enter or double-click on a row).
 */
export function DataGrid<T>(props: DataGridProps<T>) {
  const mode = useGridThemeMode();
  const { gridId, onApi, testId } = props;
  const [counts, setCounts] = useState<RowCounts | null>(null);
  const [api, setApi] = useState<GridApi<T> | null>(null);
  const range = useCellRange(gridId, api as GridApi | null);
  const defaultColDef = useMemo<ColDef>(
    () => ({ ...baseColDef, cellClassRules: range.cellClassRules }),
    [range.cellClassRules],
  );
  const onGridReady = useCallback(
    (e: GridReadyEvent<T>) => {
      restoreColumnState(gridId, e.api as GridApi);
      restoreFilterState(gridId, e.api as GridApi);
      setApi(e.api);
      onApi?.(e.api);
    },
    [gridId, onApi],
  );
  const remember = useCallback(
    (e: { api: GridApi<T> }) => saveColumnState(gridId, e.api as GridApi),
    [gridId],
  );
  const { onLayoutChanged } = range;
  const layoutChanged = useCallback(
    (e: { api: GridApi<T> }) => {
      remember(e);
      onLayoutChanged();
    },
    [remember, onLayoutChanged],
  );
  // Filters only hide rows on screen: the status bar says so, or a user takes a filtered view for the whole answer.
  const recount = useCallback((e: { api: GridApi<T> }) => {
    if (e.api.isDestroyed()) return;
    let rows = 0;
    e.api.forEachNode(() => rows++);
    setCounts({ rows, shown: e.api.getDisplayedRowCount() });
  }, []);
  // One value each for ag-grid while nothing they use changes: it takes a new value at a render (the
  // grid renders again at every count) as a changed option and reapplies it.
  const onGridPreDestroyed = useCallback(() => {
    setApi(null);
    onApi?.(null);
  }, [onApi]);
  const onColumnMoved = useCallback(
    (e: ColumnMovedEvent<T>) => {
      if (e.finished) layoutChanged(e);
    },
    [layoutChanged],
  );
  const onColumnResized = useCallback(
    (e: ColumnResizedEvent<T>) => {
      if (e.finished) remember(e);
    },
    [remember],
  );
  const onFilterChanged = useCallback(
    (e: FilterChangedEvent<T>) => {
      saveFilterState(gridId, e.api as GridApi);
      onLayoutChanged();
    },
    [gridId, onLayoutChanged],
  );
  const cols = useMemo(() => props.columnDefs, [props.columnDefs]);
  const filtered = counts !== null && counts.shown < counts.rows;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: props.height ?? 520, width: '100%' }}>
      <div
        data-testid={testId}
        className="ag-theme-mode portolan-grid"
        data-ag-theme-mode={mode}
        data-row-count={counts?.rows}
        data-shown-count={counts?.shown}
        style={{ flex: 1, minHeight: 0, width: '100%', position: 'relative' }}
        {...range.wrapperProps}
      >
        {counts !== null && counts.shown === 0 && (
          <GridEmptyOverlay testId={`${testId}-empty`} narrowed={counts.rows > 0} />
        )}
        <AgGridReact<T>
          theme={gridTheme}
          {...truncatedTooltipOptions}
          rowData={props.rows}
          columnDefs={cols}
          defaultColDef={defaultColDef}
          quickFilterText={props.quickFilter}
          onGridReady={onGridReady}
          onGridPreDestroyed={onGridPreDestroyed}
          onModelUpdated={recount}
          onColumnMoved={onColumnMoved}
          onColumnResized={onColumnResized}
          onColumnVisible={layoutChanged}
          onColumnPinned={layoutChanged}
          onSortChanged={layoutChanged}
          onFilterChanged={onFilterChanged}
          onRowDataUpdated={onLayoutChanged}
          onCellMouseDown={range.onCellMouseDown}
          onCellMouseOver={range.onCellMouseOver}
          onCellFocused={range.onCellFocused}
          onCellKeyDown={range.onCellKeyDown}
          onCellDoubleClicked={range.onCellDoubleClicked}
          // A new set of columnDefs (e.g. another search type) keeps the order the user arranged.
          maintainColumnOrder
          animateRows={false}
          ensureDomOrder
          // Rows stay virtual; columns do not: at most ~100 narrow text columns, and every visible one is then in the DOM (find in page, tests).
          suppressColumnVirtualisation
          suppressNoRowsOverlay
        />
      </div>
      <GridStatusBar gridId={gridId} testId={testId}>
        {counts !== null &&
          (filtered ? (
            <Text fz="xs" c="orange" role="status" data-testid={`${testId}-filtered`}>
              {fmt(counts.shown)} of {fmt(counts.rows)} rows pass the grid filters
            </Text>
          ) : (
            <Text fz="xs" c="dimmed" data-testid={`${testId}-rows`}>
              {fmt(counts.rows)} {counts.rows === 1 ? 'row' : 'rows'}
            </Text>
          ))}
      </GridStatusBar>
      <RecordDrawer gridId={gridId} testId={testId} api={api} looseTitle={props.recordTitle ?? 'Record'} />
    </div>
  );
}
