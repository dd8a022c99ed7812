import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Text } from '@mantine/core';
import { AgGridReact } from 'ag-grid-react';
import type {
  ColDef,
  ColGroupDef,
  GetRowIdParams,
  GridApi,
  GridOptions,
  GridReadyEvent,
  IDatasource,
  IGetRowsParams,
} from 'ag-grid-community';
import {
  RESOLVED_FIRM_COLUMNS,
  RESOLVED_FIRM_TITLES,
  columnNameSchema,
  extraColumnId,
  type DatasetKind,
  type DatasetRow,
  type GridFilterModel,
  type GridSortModel,
  type ResolvedFirmColumn,
} from '@shared/library/library-contract';
import { getApi } from '../../bridge/api';
import { blockRequest, blockView, narrowsRows, type BlockView } from './block-request';
import { useResolutionStore } from '../../session';
import { ColumnChooser } from '../../components/grid/column-chooser';
import {
  forgetColumnState,
  restoreColumnState,
  restoreFilterState,
  saveColumnState,
  saveFilterState,
} from '../../components/grid/column-state';
import {
  gridTheme,
  truncatedCellTooltip,
  truncatedTooltipOptions,
  useGridThemeMode,
} from '../../components/grid/grid-theme';
import { GridStatusBar } from '../../components/grid/grid-status-bar';
import { RecordDrawer } from '../../components/grid/record-drawer';
import { MISSING_CONTEXT, MISSING_TEXT } from '../../components/grid/record-view';
import { useCellRange } from '../../components/grid/use-cell-range';
import { GridEmptyOverlay } from '../../components/grid/grid-empty-overlay';
import { createBlockPacer } from '../../components/grid/block-pacer';
import { parseDay, shipmentColumnDefs } from '../../components/grid/shipment-columns';
import { firmColumnDefs } from '../../components/grid/firm-columns';

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
  /** Rows stored in the dataset: what "N of S rows match" counts against. */
  storedRows: number;
  quickFilter: string;
  /** Applied once when the grid is ready (a drill-down's conditions). */
  initialFilterModel: GridFilterModel | null;
  onView?: (view: DatasetGridView) => void;
  /** Rows matching the current sort, filters and quick filter (the infinite model's last row); null before the first answer. */
  onRowCount?: (rows: number | null) => void;
  onError?: (message: string | null) => void;
  /** A fixed height, or 'fill': the grid takes what its flex column leaves (the Library's detail). */
  height?: number | string;
  /** An import's columns beyond the record's fields, by header: shown, sorted and filtered as their values read. */
  extraColumns?: readonly string[];
  extraColumnTypes?: ExtraColumnTypes;
  /** Fields the imported file did not have: shown as missing (dimmed "—"), never as empty text. */
  missingFields?: readonly string[];
  /** Controls at the start of the grid's toolbar row (the quick filter), before the row count. */
  toolbarStart?: ReactNode;
  /** The page shows the grid's controls itself (the Search page): no toolbar row. */
  hideToolbar?: boolean;
  /** Where the column layout and sort are remembered; `library-<kind>` by default. */
  layoutId?: string;
  /** Where the column filters are remembered; per dataset by default. */
  filtersId?: string;
  /** The grid's `data-testid`, prefix of its parts' (status bar, record view); `library-grid` by default. */
  testId?: string;
  /** Columns before the record's (the Search page's Parties button). */
  leadingColumns?: Cols;
  /**
   * The dataset's first rows in stored order, as they came with a search's answer: the first block of
   * the unsorted, unfiltered view is shown from them while the rest is still being stored.
   */
  head?: readonly DatasetRow[];
  /**
   * The fields `head`'s rows hold, when not every field: they stand for the first block only while the
   * grid shows none but these (a column shown besides is read from the library, as is a whole record).
   */
  headColumns?: readonly string[];
  onApi?: (api: GridApi | null) => void;
  /** Offer the resolved firm columns (the Library's); the Search page shows the answer's own fields. */
  resolvedFirmColumns?: boolean;
}

const BLOCK = 200;
/** A further block of the same view is read once no other was asked for during this long (a fast scroll). */
const SCROLL_SETTLE_MS = 50;

const baseColDef: ColDef = {
  sortable: true,
  resizable: true,
  filter: true,
  minWidth: 80,
  width: 150,
  // The infinite model filters in SQL: the grid only collects the conditions.
  filterParams: { buttons: ['apply', 'reset'], closeOnApply: true, maxNumConditions: 2 },
};

type Cols = (ColDef<DatasetRow> | ColGroupDef<DatasetRow>)[];

/** The grid's event props (DatasetGrid keeps them one stable set). */
type GridEvents = Pick<
  GridOptions<DatasetRow>,
  | 'onGridPreDestroyed'
  | 'onSortChanged'
  | 'onFilterChanged'
  | 'onModelUpdated'
  | 'onColumnResized'
  | 'onColumnPinned'
  | 'onCellMouseDown'
  | 'onCellMouseOver'
  | 'onCellFocused'
  | 'onCellKeyDown'
  | 'onCellDoubleClicked'
  | 'onColumnVisible'
  | 'onColumnMoved'
>;
/** The overlays the grid does without (the page says "no match" itself), one array for every render. */
const NO_OVERLAYS: GridOptions['suppressOverlays'] = ['noRows', 'noMatchingRows'];
/** The dataset a grid shows and what came with it: its data source reads it at each block. */
interface ShownDataset {
  datasetId: string;
  head: readonly DatasetRow[] | undefined;
  headFields: ReadonlySet<string> | null;
  storedRows: number;
}

/** The count the grid last answered, and whether filters were narrowing it then. */
interface MatchCount {
  rows: number;
  narrowed: boolean;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** "50,000 rows" or "1,234 of 50,000 rows match". */
export function describeMatchCount(count: MatchCount, storedRows: number): string {
  if (!count.narrowed) return `${fmt(count.rows)} ${count.rows === 1 ? 'row' : 'rows'}`;
  return `${fmt(count.rows)} of ${fmt(storedRows)} ${storedRows === 1 ? 'row matches' : 'rows match'}`;
}

/**
 * A drill-down's conditions split in two: those ag-grid keeps on its columns, and those it has no column
 * for (a resolved firm's rows: every spelling of the firm), which stay with the grid for as long as it
 * shows this drill-down and join every query.
 */
export function splitDrillFilter(model: GridFilterModel | null): {
  columns: GridFilterModel;
  pinned: GridFilterModel;
} {
  const columns: GridFilterModel = {};
  const pinned: GridFilterModel = {};
  for (const [field, f] of Object.entries(model ?? {})) {
    if (f.filterType === 'firm') pinned[field] = f;
    else columns[field] = f;
  }
  return { columns, pinned };
}

/**
 * The resolved firm of the row's importer or exporter (firm resolution of the library), at the end of
 * its group; hidden until the analyst shows it. Neither sorts nor filters: a firm's rows are opened
 * from Analysis by resolved firm.
 */
function resolvedFirmColumn(colId: ResolvedFirmColumn): ColDef<DatasetRow> {
  return {
    colId,
    field: colId,
    headerName: RESOLVED_FIRM_TITLES[colId],
    headerTooltip: 'Every spelling of the firm under one name (firm resolution of the library)',
    initialHide: true,
    sortable: false,
    filter: false,
  };
}

/** How an extra column's values read, by header (text when not known). */
export type ExtraColumnTypes = Readonly<Record<string, 'number' | 'date' | 'text'>>;

/** An extra column's value as a number ("1,234.5" too), or null. */
function extraNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || !/^\s*-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s*$/.test(v)) return null;
  return Number(v.replace(/,/g, ''));
}

/**
 * An imported file's columns that map to no field, under their headers, in a group of their own at the
 * end: sorted and filtered in SQL like any column, by their id `extra:<header>`, each with the filter of
 * what its values are (numbers, days, text). They show as the file had them.
 */
export function extraColumnDefs(headers: readonly string[], types: ExtraColumnTypes = {}): Cols {
  if (headers.length === 0) return [];
  return [
    {
      groupId: 'Extra',
      headerName: 'From the file',
      children: headers.map((header): ColDef<DatasetRow> => {
        const base: ColDef<DatasetRow> = {
          colId: extraColumnId(header),
          headerName: header,
          headerTooltip: `“${header}” as the imported file had it (no field of the records)`,
        };
        const raw = (d: DatasetRow | undefined): unknown => d?.[header] ?? null;
        switch (types[header] ?? 'text') {
          case 'number':
            return {
              ...base,
              cellDataType: 'number',
              type: 'rightAligned',
              filter: 'agNumberColumnFilter',
              valueGetter: (p) => extraNumber(raw(p.data)),
              valueFormatter: (p) => String(raw(p.data) ?? ''),
            };
          case 'date':
            return {
              ...base,
              cellDataType: 'date',
              filter: 'agDateColumnFilter',
              valueGetter: (p) =>
                parseDay(
                  String(raw(p.data) ?? '')
                    .trim()
                    .slice(0, 10),
                ),
              valueFormatter: (p) => String(raw(p.data) ?? ''),
            };
          case 'text':
            return {
              ...base,
              cellDataType: 'text',
              filter: 'agTextColumnFilter',
              valueGetter: (p) => raw(p.data),
            };
        }
      }),
    },
  ];
}

/**
 * Columns of fields the imported file did not have: a dimmed "—" in every cell (the theme's
 * `portolan-cell-missing`), "missing from the imported file" on hover and in the record view, so a
 * missing value never reads as an empty one.
 */
function markMissing(cols: Cols, missing: ReadonlySet<string>): Cols {
  if (missing.size === 0) return cols;
  const mark = (
    c: ColDef<DatasetRow> | ColGroupDef<DatasetRow>,
  ): ColDef<DatasetRow> | ColGroupDef<DatasetRow> => {
    if ('children' in c) return { ...c, children: c.children.map(mark) };
    const id = c.colId ?? (typeof c.field === 'string' ? c.field : '');
    if (!missing.has(id)) return c;
    return {
      ...c,
      headerTooltip: `${c.headerTooltip ?? id} — ${MISSING_TEXT}`,
      cellClass: 'portolan-cell-missing',
      valueFormatter: () => '—',
      tooltipValueGetter: () => `${c.headerName ?? id}: ${MISSING_TEXT}`,
      context: MISSING_CONTEXT,
    };
  };
  return cols.map(mark);
}

function columnsFor(kind: DatasetKind, resolvedFirms: boolean): Cols {
  // The search grids' definitions read records by field name; library rows are records plus `_row`.
  if (kind === 'firms') return firmColumnDefs() as unknown as Cols;
  const groups = shipmentColumnDefs() as unknown as ColGroupDef<DatasetRow>[];
  if (!resolvedFirms) return groups;
  return groups.map((g) =>
    g.groupId === 'Importer' || g.groupId === 'Exporter'
      ? {
          ...g,
          children: [
            ...g.children,
            resolvedFirmColumn(g.groupId === 'Importer' ? 'importerFirm' : 'exporterFirm'),
          ],
        }
      : g,
  );
}

/** Whether the grid shows a resolved firm column (its rows then carry the firm names). */
function showsResolvedFirms(api: GridApi | null): boolean {
  return RESOLVED_FIRM_COLUMNS.some((c) => api?.getColumn(c)?.isVisible() ?? false);
}

/**
 * The data columns the grid shows (hidden ones are not read): a block carries only these and its row
 * number, which makes a sorted block of a wide dataset several times cheaper than whole rows. Columns
 * of buttons (a page's leading columns) name no field and are left out.
 */
export function shownColumns(api: GridApi): string[] {
  return (api.getColumns() ?? [])
    .filter((c) => c.isVisible())
    .map((c) => c.getColId())
    .filter((id) => columnNameSchema.safeParse(id).success);
}

/**
 * The grid's context (`ICellRendererParams.context`): a displayed row with every field, read from the
 * library when the grid holds only its shown columns — for views of the whole record.
 */
export interface DatasetGridContext {
  wholeRow(index: number): Promise<DatasetRow | null>;
}

/**
 * A library dataset in ag-grid's infinite row model: the grid asks for blocks, the library answers
 * each with one SQL query (sort, column filters and quick filter all run there), so a dataset of a
 * million rows scrolls like one of a hundred.
 */
export function DatasetGrid(props: DatasetGridProps) {
  const { datasetId, kind, storedRows, quickFilter, onView, onRowCount, onError, head, onApi } = props;
  // Keyed by the fields: a new array of the same fields must not replace the data source.
  const headKey = props.headColumns ? JSON.stringify(props.headColumns) : null;
  const headFields = useMemo(
    () => (headKey ? new Set<string>(JSON.parse(headKey) as string[]) : null),
    [headKey],
  );
  const testId = props.testId ?? 'library-grid';
  const mode = useGridThemeMode();
  const [count, setCount] = useState<MatchCount | null>(null);
  const lastRow = count?.rows ?? null;
  // The API as state too: the column chooser renders once the grid is ready.
  const [gridApi, setGridApi] = useState<GridApi<DatasetRow> | null>(null);
  // The query of the newest block request: an answer to an older filter must not set the count.
  const latestQuery = useRef('');
  const [loading, setLoading] = useState(false);
  // Answered blocks so far: lets tests (and a status line) tell a fresh answer from a stale one.
  const [answered, setAnswered] = useState(0);
  const apiRef = useRef<GridApi<DatasetRow> | null>(null);
  // The headers as one key: a new array of the same headers must not rebuild the columns.
  const extrasKey = JSON.stringify([
    props.extraColumns ?? [],
    props.extraColumnTypes ?? {},
    props.missingFields ?? [],
  ]);
  const leading = props.leadingColumns;
  const withFirms = props.resolvedFirmColumns ?? true;
  const columnDefs = useMemo(() => {
    const [extras, types, missing] = JSON.parse(extrasKey) as [string[], ExtraColumnTypes, string[]];
    return [
      ...(leading ?? []),
      ...markMissing(columnsFor(kind, withFirms), new Set(missing)),
      ...extraColumnDefs(extras, types),
    ];
  }, [kind, extrasKey, leading, withFirms]);
  // Columns and sort are remembered per kind of dataset, filters per dataset (unless the page says).
  const layoutId = props.layoutId ?? `library-${kind}`;
  const filtersId = props.filtersId ?? `library-dataset-${datasetId}`;
  const range = useCellRange(layoutId, gridApi as GridApi | null);
  // A cut cell shows its whole text on hover; not in a dataset with fields its file lacked, whose
  // "missing from the imported file" must show on every such cell and header, cut or not (ag-grid's
  // truncation check is one setting for the whole grid).
  const [cutTooltips] = useState(() => (props.missingFields ?? []).length === 0);
  const defaultColDef = useMemo<ColDef>(
    () => ({
      ...baseColDef,
      ...(cutTooltips ? truncatedCellTooltip : {}),
      cellClassRules: range.cellClassRules,
    }),
    [range.cellClassRules, cutTooltips],
  );
  // The initial filter is taken once per mount (the page remounts the grid for another drill-down).
  const [drillFilter] = useState(() => splitDrillFilter(props.initialFilterModel));
  const [isDrill] = useState(() => props.initialFilterModel !== null);
  // Read by the datasource at each block: firm names are asked for only while a firm column shows.
  const firmsShown = useRef(false);
  // The columns the newest block was read with (null: whole rows): showing another one reads again.
  const columnsRead = useRef<ReadonlySet<string> | null>(null);
  const lastView = useRef<BlockView | null>(null);
  // Row objects that hold every field (whole-row blocks, the answer's first block, rows completed).
  const wholeRows = useRef(new WeakSet<DatasetRow>());
  // The dataset shown, read by the data source at each block. Another dataset (the Search page's next
  // answer) reloads the grid's blocks in place: a new data source would make ag-grid throw its rows
  // away, draw loading rows and then the rows again, which took 30–45 ms more before the first rows.
  const shown = useRef<ShownDataset>({ datasetId, head, headFields, storedRows });
  // A row's id: its dataset and row number, so that a row of another dataset is another row.
  const rowId = useCallback(
    (p: GetRowIdParams<DatasetRow>): string => `${shown.current.datasetId}:${p.data._row}`,
    [],
  );

  /** Reads the blocks again when a shown column was not among those read, so no cell stays blank. */
  const readShownColumns = useCallback((g: GridApi) => {
    const read = columnsRead.current;
    if (read && shownColumns(g).some((c) => !read.has(c))) g.refreshInfiniteCache();
  }, []);

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
      filterModel: { ...(g.getFilterModel() as GridFilterModel), ...drillFilter.pinned },
      quickFilter,
    });
  }, [onView, quickFilter, drillFilter]);

  useEffect(() => report(), [report]);
  useEffect(() => {
    onRowCount?.(lastRow);
  }, [onRowCount, lastRow]);

  // Each data source paces its own block reads; the reads of one replaced are dropped with it.
  const { datasource, pacer } = useMemo(() => {
    const pacer = createBlockPacer(SCROLL_SETTLE_MS);
    const datasource: IDatasource = {
      getRows(params: IGetRowsParams) {
        const { datasetId, head, headFields, storedRows } = shown.current;
        setLoading(true);
        const view = blockView(params, drillFilter.pinned, quickFilter, firmsShown.current);
        const narrowed = narrowsRows(view);
        const queryKey = JSON.stringify([datasetId, view.filterModel, view.quickFilter]);
        latestQuery.current = queryKey;
        const sorted = view.sortModel.length > 0;
        const g = apiRef.current;
        const columns = g ? shownColumns(g) : [];
        if (head && !narrowed && !sorted && !firmsShown.current && params.startRow === 0) {
          const end = Math.min(params.endRow, storedRows);
          // Rows of some fields stand in only for a grid whose shown columns are all among them.
          const covers = !headFields || (g !== null && columns.every((c) => headFields.has(c)));
          if (head.length >= end && covers) {
            // The answer's first block came with it: shown at once, while the library still stores the rest.
            setCount({ rows: storedRows, narrowed: false });
            setAnswered((n) => n + 1);
            setLoading(false);
            const rows = head.slice(0, end) as DatasetRow[];
            // A whole record is read for these rows at the place of this view (the record view).
            lastView.current = view;
            columnsRead.current = headFields;
            if (!headFields) for (const r of rows) wholeRows.current.add(r);
            params.successCallback(rows, storedRows);
            return;
          }
        }
        lastView.current = view;
        columnsRead.current = columns.length > 0 ? new Set(columns) : null;
        const viewKey = JSON.stringify([datasetId, view, columns]);
        pacer.pace(
          viewKey,
          params.startRow,
          () =>
            void getApi()
              .library.getRows(blockRequest(datasetId, view, params, columns))
              .then((r) => {
                // A block of the dataset shown before: ag-grid no longer waits for it.
                if (shown.current.datasetId !== datasetId) return;
                setLoading(false);
                setAnswered((n) => n + 1);
                if (r.ok) {
                  if (queryKey === latestQuery.current) setCount({ rows: r.value.lastRow, narrowed });
                  onError?.(null);
                  if (columns.length === 0) for (const row of r.value.rows) wholeRows.current.add(row);
                  params.successCallback(r.value.rows, r.value.lastRow);
                } else {
                  onError?.(r.error.message);
                  params.failCallback();
                }
              }),
        );
      },
    };
    return { datasource, pacer };
  }, [quickFilter, onError, drillFilter]);
  useEffect(() => () => pacer.stop(), [pacer]);

  // Another dataset in the same grid: its first rows at the top, read in place of the last one's (the
  // reads still waiting for the last one are dropped). A layout effect, so that the new rows are asked
  // for before the browser paints, not a frame later.
  useLayoutEffect(() => {
    const last = shown.current;
    if (
      last.datasetId === datasetId &&
      last.head === head &&
      last.headFields === headFields &&
      last.storedRows === storedRows
    )
      return;
    shown.current = { datasetId, head, headFields, storedRows };
    const g = apiRef.current;
    if (!g || g.isDestroyed()) return;
    pacer.stop();
    g.ensureIndexVisible(0, 'top');
    g.refreshInfiniteCache();
  }, [datasetId, head, headFields, storedRows, pacer]);

  // A view of the whole record (the record drawer, a page's buttons) reads the row's every field once,
  // at its place in the view the block was read with, and keeps it in the grid's row.
  const context = useMemo<DatasetGridContext>(
    () => ({
      async wholeRow(index) {
        const g = apiRef.current;
        const node = g && !g.isDestroyed() ? g.getDisplayedRowAtIndex(index) : undefined;
        const data = node?.data;
        if (!node || !data) return null;
        const view = lastView.current;
        if (wholeRows.current.has(data) || !view) return data;
        const r = await getApi().library.getRows(
          blockRequest(
            datasetId,
            { ...view, resolvedFirms: view.resolvedFirms || showsResolvedFirms(g) },
            { startRow: index, endRow: index + 1 },
          ),
        );
        const whole = r.ok ? r.value.rows[0] : undefined;
        // The view changed meanwhile (another row there now): what the grid holds is all there is.
        if (!whole || whole._row !== data._row || node.data !== data) return data;
        const merged = { ...data, ...whole };
        wholeRows.current.add(merged);
        node.setData(merged);
        return merged;
      },
    }),
    [datasetId],
  );

  // A merge, split or verdict changes the firms of rows: a grid that shows them (a resolved firm column,
  // a resolved firm's rows) reads its blocks again; others have nothing to redraw.
  const resolution = useResolutionStore((s) => s.version);
  const seenResolution = useRef(resolution);
  useEffect(() => {
    if (seenResolution.current === resolution) return;
    seenResolution.current = resolution;
    const g = apiRef.current;
    if (g && !g.isDestroyed() && (firmsShown.current || Object.keys(drillFilter.pinned).length > 0)) {
      g.refreshInfiniteCache();
    }
  }, [resolution, drillFilter]);

  const onGridReady = useCallback(
    (e: GridReadyEvent<DatasetRow>) => {
      apiRef.current = e.api;
      setGridApi(e.api);
      onApi?.(e.api as GridApi);
      restoreColumnState(layoutId, e.api as GridApi);
      firmsShown.current = showsResolvedFirms(e.api as GridApi);
      // A block asked for before the analyst's columns were restored may lack some of them.
      readShownColumns(e.api as GridApi);
      // A drill-down is a view of its own: its conditions, not the filters the dataset was last left with.
      if (isDrill) {
        if (Object.keys(drillFilter.columns).length > 0) e.api.setFilterModel(drillFilter.columns);
      } else restoreFilterState(filtersId, e.api as GridApi);
      report();
    },
    // The initial filter is applied once per mount; the page remounts the grid to apply another.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  // The grid's events as one stable set: ag-grid takes every prop that is a new value at a render as a
  // changed option and reapplies it, and this grid renders again at every answered block.
  const { onLayoutChanged, onRowsLoaded } = range;
  const { onCellMouseDown, onCellMouseOver, onCellFocused, onCellKeyDown, onCellDoubleClicked } = range;
  const gridEvents = useMemo<GridEvents>(
    () => ({
      onGridPreDestroyed: () => {
        apiRef.current = null;
        setGridApi(null);
        onApi?.(null);
      },
      onSortChanged: (e) => {
        saveColumnState(layoutId, e.api as GridApi);
        onLayoutChanged();
        report();
      },
      onFilterChanged: (e) => {
        // What the analyst narrows a drill-down to is not the dataset's own filter.
        if (!isDrill) saveFilterState(filtersId, e.api as GridApi);
        onLayoutChanged();
        report();
      },
      onModelUpdated: onRowsLoaded,
      onColumnResized: (e) => {
        if (e.finished) saveColumnState(layoutId, e.api as GridApi);
      },
      onColumnPinned: (e) => {
        saveColumnState(layoutId, e.api as GridApi);
        onLayoutChanged();
      },
      onCellMouseDown,
      onCellMouseOver,
      onCellFocused,
      onCellKeyDown,
      onCellDoubleClicked,
      onColumnVisible: (e) => {
        saveColumnState(layoutId, e.api as GridApi);
        onLayoutChanged();
        // Showing a resolved firm column asks the library for the firm names of the rows.
        firmsShown.current = showsResolvedFirms(e.api as GridApi);
        // Blocks hold the shown columns only: a column shown now is read (a hidden one needs nothing).
        readShownColumns(e.api as GridApi);
        report();
      },
      onColumnMoved: (e) => {
        if (!e.finished) return;
        saveColumnState(layoutId, e.api as GridApi);
        onLayoutChanged();
        report();
      },
    }),
    [
      onApi,
      layoutId,
      filtersId,
      isDrill,
      report,
      readShownColumns,
      onLayoutChanged,
      onRowsLoaded,
      onCellMouseDown,
      onCellMouseOver,
      onCellFocused,
      onCellKeyDown,
      onCellDoubleClicked,
    ],
  );

  const fill = props.height === 'fill';
  const body = (
    <>
      {!props.hideToolbar && (
        <div style={{ display: 'flex', gap: 8, alignItems: 'center', margin: '4px 0', flexShrink: 0 }}>
          {props.toolbarStart}
          <span style={{ marginLeft: 'auto' }}>
            <ColumnChooser
              api={gridApi as GridApi | null}
              testId="library-columns"
              onReset={() => {
                forgetColumnState(layoutId);
                gridApi?.resetColumnState();
              }}
            />
          </span>
        </div>
      )}
      <div
        data-testid={testId}
        data-ag-theme-mode={mode}
        data-last-row={lastRow ?? ''}
        data-row-count={storedRows}
        data-dataset-id={datasetId}
        data-shown-count={lastRow ?? ''}
        data-loading={loading ? 'true' : 'false'}
        data-answered={answered}
        style={
          fill
            ? { flex: 1, minHeight: 0, width: '100%', position: 'relative' }
            : { height: props.height ?? 520, width: '100%', position: 'relative' }
        }
        {...range.wrapperProps}
      >
        {count?.rows === 0 && (
          // The quick filter runs in SQL, so ag-grid cannot tell "no match" from "empty": the count can.
          <GridEmptyOverlay testId={`${testId}-empty`} narrowed={count.narrowed} />
        )}
        <AgGridReact<DatasetRow>
          theme={gridTheme}
          {...(cutTooltips ? truncatedTooltipOptions : {})}
          rowModelType="infinite"
          datasource={datasource}
          context={context}
          cacheBlockSize={BLOCK}
          maxBlocksInCache={50}
          columnDefs={columnDefs}
          defaultColDef={defaultColDef}
          getRowId={rowId}
          onGridReady={onGridReady}
          {...gridEvents}
          animateRows={false}
          ensureDomOrder
          suppressColumnVirtualisation
          suppressOverlays={NO_OVERLAYS}
        />
      </div>
      <GridStatusBar gridId={layoutId} testId={testId}>
        <Text
          fz="xs"
          c={count?.narrowed ? 'orange' : 'dimmed'}
          role="status"
          data-testid={`${testId}-count`}
          data-rows={lastRow ?? ''}
          data-narrowed={count?.narrowed ? 'true' : 'false'}
        >
          {count ? describeMatchCount(count, storedRows) : 'Counting rows…'}
        </Text>
      </GridStatusBar>
      <RecordDrawer
        gridId={layoutId}
        testId={testId}
        api={gridApi as GridApi | null}
        looseTitle={kind === 'firms' ? 'Firm' : 'Record'}
        completeRow={context.wholeRow}
      />
    </>
  );
  return fill ? (
    <div style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>{body}</div>
  ) : (
    body
  );
}
