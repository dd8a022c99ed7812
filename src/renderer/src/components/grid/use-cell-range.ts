import { useCallback, useEffect, useMemo, useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import type {
  CellClassRules,
  CellDoubleClickedEvent,
  CellFocusedEvent,
  CellKeyDownEvent,
  CellMouseDownEvent,
  CellMouseOverEvent,
  Column,
  GridApi,
  IRowNode,
} from 'ag-grid-community';
import {
  cellCount,
  collapsedRange,
  extendRange,
  inBounds,
  rangeBounds,
  summarise,
  toTsv,
  type CellPos,
  type CellRange,
  type SelectedCell,
} from './cell-range';
import { useGridSelectionStore } from './grid-selection-store';
import { displayOfColumn } from './number-column';

/** The class a selected cell carries (styled in the grid's theme). */
export const SELECTED_CELL_CLASS = 'portolan-cell-selected';

function posOf(rowIndex: number | null, column: Column | string | null | undefined): CellPos | null {
  if (rowIndex === null || rowIndex < 0 || !column) return null;
  return { row: rowIndex, col: typeof column === 'string' ? column : column.getColId() };
}

function columnOrder(api: GridApi): string[] {
  return api.getAllDisplayedColumns().map((c) => c.getColId());
}

/** A cell's text for the clipboard: numbers plain (no thousands separators, full precision), anything else as shown. */
function clipboardText(api: GridApi, node: IRowNode, colId: string): string {
  const value: unknown = api.getCellValue({ rowNode: node, colKey: colId });
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const shown: unknown = api.getCellValue({ rowNode: node, colKey: colId, useFormatter: true });
  if (shown === null || shown === undefined) return '';
  return typeof shown === 'string' ? shown : String(shown as string | number | boolean);
}

/** The rows of a block, or null when a row of it is not loaded (the library's grid loads rows in blocks). */
function blockRows(api: GridApi, top: number, bottom: number): IRowNode[] | null {
  const rows: IRowNode[] = [];
  for (let r = top; r <= bottom; r++) {
    const node = api.getDisplayedRowAtIndex(r);
    if (!node?.data) return null;
    rows.push(node);
  }
  return rows;
}

/** The selected block as tab-separated text (null: nothing selected, or rows of it not loaded yet). */
export function selectedBlockTsv(api: GridApi, range: CellRange): string | null {
  const bounds = rangeBounds(range, columnOrder(api));
  if (!bounds) return null;
  const rows = blockRows(api, bounds.top, bounds.bottom);
  if (!rows) return null;
  return toTsv(rows.map((node) => bounds.cols.map((c) => clipboardText(api, node, c))));
}

export interface CellRangeHandlers {
  /** For the grid's `defaultColDef.cellClassRules`: marks the selected cells. */
  cellClassRules: CellClassRules;
  onCellMouseDown(e: CellMouseDownEvent): void;
  onCellMouseOver(e: CellMouseOverEvent): void;
  onCellFocused(e: CellFocusedEvent): void;
  onCellKeyDown(e: CellKeyDownEvent): void;
  onCellDoubleClicked(e: CellDoubleClickedEvent): void;
  /** Clears the selection: the rows or columns under it changed (sort, filter, new rows, moved columns). */
  onLayoutChanged(): void;
  /** Rows arrived (the library's blocks): the figures of the selection are counted again. */
  onRowsLoaded(): void;
  /** For the grid's wrapper element. */
  wrapperProps: {
    onKeyDownCapture(e: KeyboardEvent): void;
    onMouseDownCapture(): void;
    onCopy(e: ClipboardEvent): void;
  };
}

/**
 * A spreadsheet's cell selection on a community ag-grid: click a cell, Shift+click or drag to a
 * second, or Shift+arrows; Ctrl+A takes every shown cell; Escape goes back to one cell. Copy (Ctrl+C,
 * or Edit → Copy) puts the block on the clipboard as tab-separated text that pastes into Excel. The
 * block's count, sum and average go to `useGridSelectionStore` for the grid's status bar; Enter or a
 * double-click opens the row in the record view.
 */
export function useCellRange(gridId: string, api: GridApi | null): CellRangeHandlers {
  const select = useGridSelectionStore((s) => s.select);
  const rangeRef = useRef<CellRange | null>(null);
  const dragging = useRef(false);
  /** The last input inside the grid: a mouse press, or a key (and whether it extends the block). */
  const lastInput = useRef<{ mouse: boolean; extend: boolean }>({ mouse: false, extend: false });

  const apply = useCallback(
    (range: CellRange | null) => {
      rangeRef.current = range;
      if (!api || api.isDestroyed()) return;
      const bounds = range ? rangeBounds(range, columnOrder(api)) : null;
      if (!range || !bounds) {
        rangeRef.current = null;
        select(gridId, null);
      } else {
        const cells: SelectedCell[] = [];
        const displays = new Map(bounds.cols.map((c) => [c, displayOfColumn(api.getColumn(c))]));
        for (let r = bounds.top; r <= bounds.bottom; r++) {
          const node = api.getDisplayedRowAtIndex(r);
          for (const c of bounds.cols) {
            const value: unknown = node?.data ? api.getCellValue({ rowNode: node, colKey: c }) : null;
            cells.push({ value, display: displays.get(c) });
          }
        }
        select(gridId, { range, bounds, summary: summarise(cells) });
      }
      // Only the rendered cells: their class rules read the new block.
      api.refreshCells();
    },
    [api, gridId, select],
  );

  // A grid going away takes its selection with it.
  useEffect(() => () => select(gridId, null), [gridId, select]);
  useEffect(() => {
    const up = () => {
      dragging.current = false;
    };
    window.addEventListener('mouseup', up);
    return () => window.removeEventListener('mouseup', up);
  }, []);

  const cellClassRules = useMemo<CellClassRules>(
    () => ({
      [SELECTED_CELL_CLASS]: (p) => {
        const sel = useGridSelectionStore.getState().selections[gridId];
        if (!sel || cellCount(sel.bounds) < 2 || p.node.rowIndex === null) return false;
        return inBounds(sel.bounds, p.node.rowIndex, p.column.getColId());
      },
    }),
    [gridId],
  );

  return useMemo<CellRangeHandlers>(
    () => ({
      cellClassRules,
      onCellMouseDown(e) {
        const mouse = e.event as MouseEvent | null | undefined;
        if (mouse && mouse.button !== 0) return;
        const pos = posOf(e.rowIndex, e.column);
        if (!pos) return;
        dragging.current = true;
        apply(mouse?.shiftKey ? extendRange(rangeRef.current, pos) : collapsedRange(pos));
      },
      onCellMouseOver(e) {
        const mouse = e.event as MouseEvent | null | undefined;
        if (!dragging.current || !mouse || (mouse.buttons & 1) === 0) {
          dragging.current = false;
          return;
        }
        const pos = posOf(e.rowIndex, e.column);
        const cur = rangeRef.current;
        if (pos && (!cur || cur.focus.row !== pos.row || cur.focus.col !== pos.col)) {
          apply(extendRange(cur, pos));
        }
      },
      onCellFocused(e) {
        // A click already set the block (mouse down); keys move or extend it.
        if (lastInput.current.mouse) return;
        const pos = posOf(e.rowIndex, e.column);
        if (!pos) return;
        const cur = rangeRef.current;
        if (cur && cur.focus.row === pos.row && cur.focus.col === pos.col) return;
        apply(lastInput.current.extend ? extendRange(cur, pos) : collapsedRange(pos));
      },
      onCellKeyDown(e) {
        const key = e.event as globalThis.KeyboardEvent | null | undefined;
        if (!key || key.defaultPrevented) return;
        if (key.key === 'Enter' && !key.shiftKey && !key.ctrlKey && !key.metaKey && !key.altKey) {
          if (e.rowIndex !== null && e.node.data) {
            key.preventDefault();
            useGridSelectionStore.getState().openRecord(gridId, e.rowIndex);
          }
        } else if (key.key === 'Escape' && rangeRef.current) {
          const pos = posOf(e.rowIndex, e.column);
          if (pos) apply(collapsedRange(pos));
        } else if ((key.key === 'a' || key.key === 'A') && (key.ctrlKey || key.metaKey) && api) {
          const cols = columnOrder(api);
          const last = api.getDisplayedRowCount() - 1;
          if (cols.length && last >= 0) {
            key.preventDefault();
            apply({
              anchor: { row: 0, col: cols[0] as string },
              focus: { row: last, col: cols[cols.length - 1] as string },
            });
          }
        }
      },
      onCellDoubleClicked(e) {
        if (e.rowIndex !== null && e.node.data)
          useGridSelectionStore.getState().openRecord(gridId, e.rowIndex);
      },
      onLayoutChanged() {
        if (rangeRef.current) apply(null);
      },
      onRowsLoaded() {
        if (rangeRef.current) apply(rangeRef.current);
      },
      wrapperProps: {
        onKeyDownCapture(e) {
          const nav = e.key.startsWith('Arrow') || ['PageUp', 'PageDown', 'Home', 'End'].includes(e.key);
          lastInput.current = { mouse: false, extend: nav && e.shiftKey };
        },
        onMouseDownCapture() {
          lastInput.current = { mouse: true, extend: false };
        },
        onCopy(e) {
          const range = rangeRef.current;
          if (!api || api.isDestroyed() || !range) return;
          // Text the analyst selected inside a field (a filter box) is theirs to copy.
          const target = e.target as HTMLElement;
          if (target.closest('input, textarea, .ag-popup')) return;
          const text = selectedBlockTsv(api, range);
          if (text === null) return;
          e.clipboardData.setData('text/plain', text);
          e.preventDefault();
        },
      },
    }),
    [api, apply, cellClassRules, gridId],
  );
}
