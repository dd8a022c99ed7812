import { useCallback, useMemo, useState } from 'react';
import { AgGridReact } from 'ag-grid-react';
import type { ColDef, ColGroupDef, GridApi, GridReadyEvent } from 'ag-grid-community';
import { restoreColumnState, saveColumnState } from './column-state';
import { gridTheme, useGridThemeMode } from './grid-theme';

export interface DataGridProps<T> {
  /** Key for the remembered column layout. */
  gridId: string;
  testId: string;
  rows: T[] | null;
  columnDefs: (ColDef<T> | ColGroupDef<T>)[];
  quickFilter: string;
  onApi?: (api: GridApi<T> | null) => void;
  height?: number | string;
}

// `initial*` rather than `width`: a later change of columnDefs must not undo the user's own widths.
const defaultColDef: ColDef = {
  sortable: true,
  resizable: true,
  filter: true,
  minWidth: 80,
  initialWidth: 150,
};

interface RowCounts {
  rows: number;
  shown: number;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** ag-grid with the app's theme and a column layout remembered per grid. */
export function DataGrid<T>(props: DataGridProps<T>) {
  const mode = useGridThemeMode();
  const { gridId, onApi } = props;
  const [counts, setCounts] = useState<RowCounts | null>(null);
  const onGridReady = useCallback(
    (e: GridReadyEvent<T>) => {
      restoreColumnState(gridId, e.api as GridApi);
      onApi?.(e.api);
    },
    [gridId, onApi],
  );
  const remember = useCallback(
    (e: { api: GridApi<T> }) => saveColumnState(gridId, e.api as GridApi),
    [gridId],
  );
  // Filters only hide rows on screen: the caption says so, or a user takes a filtered view for the whole answer.
  const recount = useCallback((e: { api: GridApi<T> }) => {
    if (e.api.isDestroyed()) return;
    let rows = 0;
    e.api.forEachNode(() => rows++);
    setCounts({ rows, shown: e.api.getDisplayedRowCount() });
  }, []);
  const cols = useMemo(() => props.columnDefs, [props.columnDefs]);
  const filtered = counts !== null && counts.shown < counts.rows;
  return (
    <>
      {filtered && (
        <div data-testid={`${props.testId}-filtered`} role="status" className="grid-filtered">
          {fmt(counts.shown)} of {fmt(counts.rows)} rows pass the grid filters
        </div>
      )}
      <div
        data-testid={props.testId}
        className="ag-theme-mode"
        data-ag-theme-mode={mode}
        data-row-count={counts?.rows}
        data-shown-count={counts?.shown}
        style={{ height: props.height ?? 520, width: '100%' }}
      >
        <AgGridReact<T>
          theme={gridTheme}
          rowData={props.rows}
          columnDefs={cols}
          defaultColDef={defaultColDef}
          quickFilterText={props.quickFilter}
          onGridReady={onGridReady}
          onGridPreDestroyed={() => onApi?.(null)}
          onModelUpdated={recount}
          onColumnMoved={(e) => e.finished && remember(e)}
          onColumnResized={(e) => e.finished && remember(e)}
          onColumnVisible={remember}
          onColumnPinned={remember}
          onSortChanged={remember}
          // A new set of columnDefs (e.g. another search type) keeps the order the user arranged.
          maintainColumnOrder
          animateRows={false}
          enableCellTextSelection
          ensureDomOrder
          // Rows stay virtual; columns do not: at most ~100 narrow text columns, and every visible one is then in the DOM (find in page, tests).
          suppressColumnVirtualisation
        />
      </div>
    </>
  );
}
