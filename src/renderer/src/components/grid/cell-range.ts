import { combinedDisplay, formatNumber, type NumberDisplay } from '@shared/fields';

/**
 * A block of cells selected in a grid, as a spreadsheet has it: the cell where the selection started
 * (anchor) and the one it reaches (focus). Rows are display indices (after sort and filters), columns
 * are column ids; the block is everything between the two in the grid's current column order.
 * Community ag-grid has no range selection: this model, its hook (`use-cell-range.ts`) and the
 * status bar are the app's own.
 */
export interface CellPos {
  row: number;
  col: string;
}

export interface CellRange {
  anchor: CellPos;
  focus: CellPos;
}

/** The block a range covers in a given column order; null when a column of it is no longer shown. */
export interface RangeBounds {
  top: number;
  bottom: number;
  /** Column ids of the block, left to right. */
  cols: string[];
}

export function collapsedRange(pos: CellPos): CellRange {
  return { anchor: pos, focus: pos };
}

/** The range from the current anchor (or from `pos` when there is none) to `pos`: Shift+click, Shift+arrow, drag. */
export function extendRange(range: CellRange | null, pos: CellPos): CellRange {
  return { anchor: range?.anchor ?? pos, focus: pos };
}

export function rangeBounds(range: CellRange, columnOrder: readonly string[]): RangeBounds | null {
  const a = columnOrder.indexOf(range.anchor.col);
  const f = columnOrder.indexOf(range.focus.col);
  if (a < 0 || f < 0) return null;
  return {
    top: Math.min(range.anchor.row, range.focus.row),
    bottom: Math.max(range.anchor.row, range.focus.row),
    cols: columnOrder.slice(Math.min(a, f), Math.max(a, f) + 1),
  };
}

export function cellCount(bounds: RangeBounds): number {
  return (bounds.bottom - bounds.top + 1) * bounds.cols.length;
}

export function inBounds(bounds: RangeBounds | null, row: number, col: string): boolean {
  return bounds !== null && row >= bounds.top && row <= bounds.bottom && bounds.cols.includes(col);
}

/**
 * One field of tab-separated text as Excel reads it from the clipboard: a value holding a tab, a line
 * break or a double quote is quoted, its quotes doubled; anything else goes as it is.
 */
export function tsvField(text: string): string {
  return /[\t\r\n"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A block of cell texts as the tab-separated text a spreadsheet pastes: tabs between cells, CRLF between rows. */
export function toTsv(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.map(tsvField).join('\t')).join('\r\n');
}

/** A cell's value as the selection's figures see it, with how its column shows numbers. */
export interface SelectedCell {
  value: unknown;
  display?: NumberDisplay;
}

export interface RangeSummary {
  cells: number;
  /** Cells holding a number (the sum and average are over these; text and empty cells do not count). */
  numbers: number;
  sum: number;
  average: number | null;
  /** The sum and average as shown: thousands separators, the decimals of the fields summed. */
  sumText: string;
  averageText: string;
}

/** Count, sum and average of a selection, as a spreadsheet's status bar has them. */
export function summarise(cells: readonly SelectedCell[]): RangeSummary {
  let sum = 0;
  let numbers = 0;
  const displays = new Set<NumberDisplay>();
  for (const c of cells) {
    if (typeof c.value !== 'number' || !Number.isFinite(c.value)) continue;
    sum += c.value;
    numbers++;
    if (c.display) displays.add(c.display);
  }
  const display = combinedDisplay([...displays]);
  const average = numbers > 0 ? sum / numbers : null;
  // An average of whole counts is rarely whole: two decimals at least.
  const averageDisplay = {
    ...display,
    minDecimals: Math.max(display.minDecimals, 2),
    maxDecimals: Math.max(display.maxDecimals, 2),
  };
  return {
    cells: cells.length,
    numbers,
    sum,
    average,
    sumText: formatNumber(sum, display),
    averageText: average === null ? '' : formatNumber(average, averageDisplay),
  };
}
