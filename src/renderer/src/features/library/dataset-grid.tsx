import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AgGridReact } from 'ag-grid-react';
import type { ColDef, ColGroupDef, GridApi, GridReadyEvent, IDatasource, IGetRowsParams } from 'ag-grid-community';
import type { DatasetKind, DatasetRow, GridFilterModel, GridSortModel } from '@shared/library/library-contract';
import { api } from '../../bridge/api';
import { gridTheme, useGridThemeMode } from '../search/grid-theme';
import { shipmentColumnDefs } from '../search/shipment-columns';
import { firmColumnDefs } from './firm-columns';

/** What the grid shows right now, for exports of "the view" (I2's ExportButton `source.view`). */
export interface DatasetGridView {
  columns: string[];
  sortModel: GridSortModel;
  filterModel: GridFilterModel;
  quickFilter: string;
}

export interface DatasetGridProps {
  datasetId: string;
  kind: DatasetKind;
  quickFilter: string;
  /** Applied once when the grid is ready (a drill-down's conditions). */
  initialFilterModel: GridFilterModel | null;
  onView?: (view: DatasetGridView) => void;
  onError?: (message: string | null) => void;
  height?: number | string;
}

const BLOCK = 200;

const defaultColDef: ColDef = {
  sortable: true,
  resizable: true,
  filter: true,
  minWidth: 80,
  width: 150,
  // The infinite model filters in SQL: the grid only collects the conditions.
  filterParams: { buttons: ['apply', 'reset'], closeOnApply: true, maxNumConditions: 2 },
};

type Cols = (ColDef<DatasetRow> | ColGroupDef<DatasetRow>)[];

function columnsFor(kind: DatasetKind): Cols {
  // The search grids' definitions read records by field name; library rows are records plus `_row`.
  return (kind === 'shipments' ? shipmentColumnDefs() : firmColumnDefs()) as unknown as Cols;
}

/**
 * A library dataset in ag-grid's infinite row model: the grid asks for blocks, the library answers
 * each with one SQL query (sort, column filters and quick filter all run there), so a dataset of a
 * million rows scrolls like one of a hundred.
 */
export function DatasetGrid(props: DatasetGridProps) {
  const { datasetId, kind, quickFilter, onView, onError } = props;
  const mode = useGridThemeMode();
  const [lastRow, setLastRow] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  // Answered blocks so far: lets tests (and a status line) tell a fresh answer from a stale one.
  const [answered, setAnswered] = useState(0);
  const apiRef = useRef<GridApi<DatasetRow> | null>(null);
  const columnDefs = useMemo(() => columnsFor(kind), [kind]);

  const report = useCallback(() => {
    const g = apiRef.current;
    if (!g || !onView) return;
    const sortModel = (g.getColumnState() ?? [])
      .filter((c) => c.sort)
      .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
      .map((c) => ({ colId: c.colId, sort: c.sort as 'asc' | 'desc' }));
    onView({
      columns: g.getAllDisplayedColumns().map((c) => c.getColId()),
      sortModel,
      filterModel: g.getFilterModel() as GridFilterModel,
      quickFilter,
    });
  }, [onView, quickFilter]);

  useEffect(() => report(), [report]);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(params: IGetRowsParams) {
        setLoading(true);
        void api.library
          .getRows({
            id: datasetId,
            startRow: params.startRow,
            endRow: params.endRow,
            sortModel: params.sortModel.map((s) => ({ colId: s.colId, sort: s.sort })),
            filterModel: params.filterModel as GridFilterModel,
            ...(quickFilter.trim() ? { quickFilter: quickFilter.trim() } : {}),
          })
          .then((r) => {
            setLoading(false);
            setAnswered((n) => n + 1);
            if (r.ok) {
              setLastRow(r.value.lastRow);
              onError?.(null);
              params.successCallback(r.value.rows, r.value.lastRow);
            } else {
              onError?.(r.error.message);
              params.failCallback();
            }
          });
      },
    }),
    [datasetId, quickFilter, onError],
  );

  const onGridReady = useCallback(
    (e: GridReadyEvent<DatasetRow>) => {
      apiRef.current = e.api;
      if (props.initialFilterModel) e.api.setFilterModel(props.initialFilterModel);
      report();
    },
    // The initial filter is applied once per mount; the page remounts the grid to apply another.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  return (
    <div
      data-testid="library-grid"
      data-ag-theme-mode={mode}
      data-last-row={lastRow ?? ''}
      data-loading={loading ? 'true' : 'false'}
      data-answered={answered}
      style={{ height: props.height ?? 520, width: '100%' }}
    >
      <AgGridReact<DatasetRow>
        theme={gridTheme}
        rowModelType="infinite"
        datasource={datasource}
        cacheBlockSize={BLOCK}
        maxBlocksInCache={50}
        blockLoadDebounceMillis={50}
        columnDefs={columnDefs}
        defaultColDef={defaultColDef}
        getRowId={(p) => String(p.data._row)}
        onGridReady={onGridReady}
        onGridPreDestroyed={() => {
          apiRef.current = null;
        }}
        onSortChanged={report}
        onFilterChanged={report}
        onColumnVisible={report}
        onColumnMoved={(e) => e.finished && report()}
        animateRows={false}
        enableCellTextSelection
        ensureDomOrder
        suppressColumnVirtualisation
      />
    </div>
  );
}
