import { COUNT, formatNumber } from '@shared/fields';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { AgGridReact } from 'ag-grid-react';
import type {
  CellKeyDownEvent,
  ColDef,
  GetRowIdParams,
  GridApi,
  GridOptions,
  GridReadyEvent,
  IDatasource,
  IGetRowsParams,
  RowClassParams,
  RowClickedEvent,
  RowSelectedEvent,
} from 'ag-grid-community';
import { Stack, Text } from '@mantine/core';
import type { ErrorKind } from '@shared/ipc/errors';
import { EVIDENCE_LABELS, type FirmSort, type FirmSummaryView } from '@shared/resolution/resolution-contract';
import { createBlockPacer } from '../../components/grid/block-pacer';
import { GridStatusBar } from '../../components/grid/grid-status-bar';
import { gridTheme, useGridThemeMode } from '../../components/grid/grid-theme';
import { useResolvedFirmsStore } from './resolved-firms-store';

const BLOCK = 200;
/** A further block of the same order is read once no other was asked for during this long (a fast scroll). */
const SCROLL_SETTLE_MS = 30;
const fmt = (n: number): string => formatNumber(n, COUNT);

/** The grid's sort as the library sorts firms: by name, by spellings, or (default) by rows. */
export function firmSortOf(sortModel: readonly { colId: string; sort: string }[]): FirmSort {
  const first = sortModel[0]?.colId;
  if (first === 'name') return 'name';
  if (first === 'spellings') return 'spellings';
  return 'rows';
}

const number = (get: (f: FirmSummaryView) => number): Partial<ColDef<FirmSummaryView>> => ({
  valueGetter: (p) => (p.data ? get(p.data) : null),
  valueFormatter: (p) => (typeof p.value === 'number' ? fmt(p.value) : ''),
  type: 'rightAligned',
  initialWidth: 110,
});

const COLUMNS: ColDef<FirmSummaryView>[] = [
  {
    colId: 'name',
    headerName: 'Firm',
    field: 'name',
    sortable: true,
    sortingOrder: ['asc', null],
    initialFlex: 2,
    minWidth: 200,
  },
  {
    colId: 'country',
    headerName: 'Country',
    valueGetter: (p) => p.data?.countryName ?? p.data?.country ?? '',
    initialWidth: 130,
  },
  {
    colId: 'spellings',
    headerName: 'Spellings',
    sortable: true,
    sortingOrder: ['desc', null],
    headerTooltip: 'How many ways the records write this firm',
    ...number((f) => f.spellings),
  },
  {
    colId: 'shipments',
    headerName: 'Shipments',
    sortable: true,
    sortingOrder: ['desc', null],
    headerTooltip: 'Shipments naming the firm as importer or exporter (the default order)',
    ...number((f) => f.asImporter + f.asExporter),
  },
  { colId: 'asImporter', headerName: 'As importer', ...number((f) => f.asImporter) },
  { colId: 'asExporter', headerName: 'As exporter', ...number((f) => f.asExporter) },
  {
    colId: 'listed',
    headerName: 'In firm lists',
    headerTooltip: 'Records of firm searches naming the firm',
    ...number((f) => f.listed),
  },
  {
    colId: 'evidence',
    headerName: 'Joined by',
    valueGetter: (p) => (p.data?.evidence ?? []).map((k) => EVIDENCE_LABELS[k]).join(', '),
    initialWidth: 220,
  },
];

const defaultColDef: ColDef = { resizable: true, sortable: false, filter: false, minWidth: 80 };

// Every option ag-grid is given is one value for the life of the list: it takes a new value at a
// render as a changed option and reapplies it (a new row selection would reset its ticks' setup).
const rowSelection: GridOptions<FirmSummaryView>['rowSelection'] = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: false,
  enableClickSelection: false,
};
const selectionColumnDef: GridOptions<FirmSummaryView>['selectionColumnDef'] = {
  headerTooltip: 'Tick firms to merge them',
  pinned: 'left',
};
const NO_OVERLAYS: GridOptions['suppressOverlays'] = ['noRows', 'noMatchingRows'];
const firmRowId = (p: GetRowIdParams<FirmSummaryView>): string => p.data.firmId;
const onRowSelected = (e: RowSelectedEvent<FirmSummaryView>): void => {
  // The analyst's ticks only: the grid's own (drawing the store's ticks) change nothing.
  if (e.source === 'api' || !e.data) return;
  useResolvedFirmsStore.getState().mark(e.data, e.node.isSelected() ?? false);
};

/**
 * The library's resolved firms in ag-grid's infinite row model: each block is one `resolution.firms`
 * call, so a library of fifty thousand firms scrolls like one of fifty. A row opens the firm's detail
 * (click or Enter); its box ticks it for a merge.
 */
export function FirmList() {
  const mode = useGridThemeMode();
  const listKey = useResolvedFirmsStore((s) => s.listKey);
  const openId = useResolvedFirmsStore((s) => s.openId);
  const marked = useResolvedFirmsStore((s) => s.marked);
  const total = useResolvedFirmsStore((s) => s.total);
  const listError = useResolvedFirmsStore((s) => s.listError);
  const apiRef = useRef<GridApi<FirmSummaryView> | null>(null);
  // The rows drawn tick as the store says (the ticks outlive a search; a merge clears them). The ticks
  // are read from a ref, so that ticking hands ag-grid no new `onModelUpdated` (it reapplies a new one).
  const markedIds = useMemo(() => new Set(marked.map((f) => f.firmId)), [marked]);
  const ticks = useRef(markedIds);
  const syncTicks = useCallback(() => {
    const api = apiRef.current;
    if (!api || api.isDestroyed()) return;
    api.forEachNode((n) => {
      const on = n.data ? ticks.current.has(n.data.firmId) : false;
      if (n.isSelected() !== on) n.setSelected(on, false, 'api');
    });
  }, []);
  useEffect(() => {
    ticks.current = markedIds;
    syncTicks();
  }, [markedIds, syncTicks]);

  const { datasource, pacer } = useMemo(
    () => {
      const pacer = createBlockPacer(SCROLL_SETTLE_MS);
      const datasource: IDatasource = {
        getRows(params: IGetRowsParams) {
          const sort = firmSortOf(params.sortModel);
          pacer.pace(
            JSON.stringify(sort),
            params.startRow,
            () =>
              void useResolvedFirmsStore
                .getState()
                .fetchBlock({ offset: params.startRow, limit: params.endRow - params.startRow, sort })
                .then((r) => {
                  if ('firms' in r) params.successCallback(r.firms, r.total);
                  // The error and its Retry stand above the list; a failed block would stay drawn as an
                  // empty row with a tick box, so the grid is told there is nothing to draw.
                  else params.successCallback([], 0);
                }),
          );
        },
      };
      return { datasource, pacer };
    },
    // A new key (filters, scope, a new resolution) reads the list again from its first row.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [listKey],
  );
  useEffect(() => () => pacer.stop(), [pacer]);

  const open = useCallback((f: FirmSummaryView | undefined) => {
    if (f) void useResolvedFirmsStore.getState().openFirm(f.firmId);
  }, []);
  const onGridReady = useCallback((e: GridReadyEvent<FirmSummaryView>) => {
    apiRef.current = e.api;
  }, []);
  const onRowClicked = useCallback(
    (e: RowClickedEvent<FirmSummaryView>) => {
      // The tick box selects for a merge; the rest of the row opens the firm.
      const target = e.event?.target as HTMLElement | null;
      if (target?.closest('.ag-selection-checkbox')) return;
      open(e.data);
    },
    [open],
  );
  const onCellKeyDown = useCallback(
    (e: CellKeyDownEvent<FirmSummaryView>) => {
      if ((e.event as KeyboardEvent | null)?.key === 'Enter') open(e.data);
    },
    [open],
  );

  // The open firm's row is marked at its left edge (a tick is the row's blue).
  const getRowStyle = useCallback(
    (p: RowClassParams<FirmSummaryView>) =>
      p.data?.firmId === openId
        ? { boxShadow: 'inset 3px 0 0 var(--mantine-primary-color-filled)', fontWeight: 600 }
        : undefined,
    [openId],
  );

  // The open firm's row is marked; rows already drawn are drawn again.
  useEffect(() => {
    const api = apiRef.current;
    if (api && !api.isDestroyed()) api.redrawRows();
  }, [openId]);

  return (
    <Stack gap={4} h="100%">
      <div
        data-testid="firm-list"
        data-ag-theme-mode={mode}
        data-list-key={listKey}
        data-open-id={openId ?? ''}
        style={{ flex: 1, minHeight: 0, width: '100%' }}
      >
        <AgGridReact<FirmSummaryView>
          theme={gridTheme}
          rowModelType="infinite"
          datasource={datasource}
          cacheBlockSize={BLOCK}
          maxBlocksInCache={20}
          columnDefs={COLUMNS}
          defaultColDef={defaultColDef}
          getRowId={firmRowId}
          rowSelection={rowSelection}
          selectionColumnDef={selectionColumnDef}
          getRowStyle={getRowStyle}
          onGridReady={onGridReady}
          onRowSelected={onRowSelected}
          onModelUpdated={syncTicks}
          onRowClicked={onRowClicked}
          onCellKeyDown={onCellKeyDown}
          animateRows={false}
          enableCellTextSelection
          ensureDomOrder
          suppressOverlays={NO_OVERLAYS}
        />
      </div>
      <GridStatusBar gridId="resolved-firms" testId="firm-list">
        <Text
          fz="xs"
          c={total === null && listError ? 'red' : 'dimmed'}
          data-testid="firms-total"
          data-total={total ?? ''}
        >
          {describeFirmCount(total, marked.length, listError?.kind ?? null)}
        </Text>
      </GridStatusBar>
    </Stack>
  );
}

/**
 * One line under the list: how many firms, of how many spellings; or, when the library could not be
 * read, that they are not counted and why in a few words (the message above the list says the rest).
 */
export function describeFirmCount(
  total: number | null,
  marked: number,
  error: ErrorKind | null = null,
): string {
  if (total === null && error === 'StorageLocked')
    return 'Firms not counted: another program has the library open. Trying again every few seconds…';
  if (total === null && error) return 'Firms not counted: the library could not be read.';
  if (total === null) return 'Counting firms…';
  const base = `${fmt(total)} ${total === 1 ? 'firm' : 'firms'}`;
  return marked > 0 ? `${base} · ${fmt(marked)} ticked` : base;
}
