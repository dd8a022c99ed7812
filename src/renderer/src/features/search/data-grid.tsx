import { useCallback, useMemo } from 'react';
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

const defaultColDef: ColDef = {
  sortable: true,
  resizable: true,
  filter: true,
  minWidth: 80,
  width: 150,
};

/** ag-grid with the app's theme and a column layout remembered per grid. */
export function DataGrid<T>(props: DataGridProps<T>) {
  const mode = useGridThemeMode();
  const { gridId, onApi } = props;
  const onGridReady = useCallback(
    (e: GridReadyEvent<T>) => {
      restoreColumnState(gridId, e.api as GridApi);
      onApi?.(e.api);
    },
    [gridId, onApi],
  );
  const remember = useCallback((e: { api: GridApi<T> }) => saveColumnState(gridId, e.api as GridApi), [gridId]);
  const cols = useMemo(() => props.columnDefs, [props.columnDefs]);
  return (
    <div data-testid={props.testId} data-ag-theme-mode={mode} style={{ height: props.height ?? 520, width: '100%' }}>
      <AgGridReact<T>
        theme={gridTheme}
        rowData={props.rows}
        columnDefs={cols}
        defaultColDef={defaultColDef}
        quickFilterText={props.quickFilter}
        onGridReady={onGridReady}
        onGridPreDestroyed={() => onApi?.(null)}
        onColumnMoved={(e) => e.finished && remember(e)}
        onColumnResized={(e) => e.finished && remember(e)}
        onColumnVisible={remember}
        onColumnPinned={remember}
        onSortChanged={remember}
        animateRows={false}
        enableCellTextSelection
        ensureDomOrder
        // Rows stay virtual; columns do not: at most ~100 narrow text columns, and every visible one is then in the DOM (find in page, tests).
        suppressColumnVirtualisation
      />
    </div>
  );
}
