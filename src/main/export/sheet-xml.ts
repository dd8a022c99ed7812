/**
 * Renders data rows as SpreadsheetML text for exceljs's worksheet stream. exceljs builds a Row and a
 * Cell object per value and looks up a style per cell; at 100,000 × 88 cells that costs several times
 * what the file's bytes cost, so data rows are rendered here while exceljs keeps doing the rest (zip,
 * styles, sheet views, autofilter, workbook parts).
 */
import { EXCEL_MAX_CELL_CHARS } from './cell-values';
import { excelCell } from './excel-cells';
import type { ExportColumn, ExportRow } from './types';

// Characters XML 1.0 cannot carry are dropped, as exceljs does. A carriage return is written as a
// reference because XML readers turn a literal CR LF into LF, and the cell must keep the original text.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[<>&\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex
const ESCAPES = /[<>&\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]/g;
const MS_PER_DAY = 86_400_000;
/** 1970-01-01 as an Excel serial day (1900 date system). */
const UNIX_EPOCH_SERIAL = 25_569;

function escapeChar(c: string): string {
  if (c === '<') return '&lt;';
  if (c === '>') return '&gt;';
  if (c === '&') return '&amp;';
  if (c === '\r') return '&#13;';
  return '';
}

export function escapeXmlText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPES, escapeChar) : text;
}

export function excelSerial(date: Date): number {
  return UNIX_EPOCH_SERIAL + date.getTime() / MS_PER_DAY;
}

/** exceljs's style id for a number format (registered on first use). */
export interface RowStyleIds {
  id(format: string): number;
}

/** Where the row renderer reports a cell it had to change: cut at Excel's limit, or characters removed. */
export interface CellReports {
  cut(columnIndex: number): void;
  altered(columnIndex: number): void;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** 1900-03-01 and 9999-12-31 23:59:59 as serials: the dates Excel's 1900 system shows correctly. */
const MIN_SERIAL = UNIX_EPOCH_SERIAL + daysFromCivil(1900, 3, 1);
const MAX_SERIAL = UNIX_EPOCH_SERIAL + Date.UTC(9999, 11, 31, 23, 59, 59) / MS_PER_DAY;

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1000;
}

/**
 * The serial of a plain `yyyy-MM-dd` without building a Date (the common case); null when the text
 * is not exactly that shape, so the caller falls back to the general parser.
 */
export function isoDateSerial(s: string): number | null {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return null;
  const y = digit(s, 0) * 1000 + digit(s, 1) * 100 + digit(s, 2) * 10 + digit(s, 3);
  const m = digit(s, 5) * 10 + digit(s, 6);
  const d = digit(s, 8) * 10 + digit(s, 9);
  if (y < 0 || m < 1 || m > 12 || d < 1) return null;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (d > (m === 2 && leap ? 29 : (DAYS_IN_MONTH[m - 1] ?? 0))) return null;
  const serial = UNIX_EPOCH_SERIAL + daysFromCivil(y, m, d);
  return serial >= MIN_SERIAL && serial <= MAX_SERIAL ? serial : null;
}

export { MIN_SERIAL, MAX_SERIAL };

/** `open` is `<c r="B7"` or just `<c` (see createRowRenderer). */
function stringCell(open: string, text: string): string {
  if (text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32) {
    return `${open} t="inlineStr"><is><t xml:space="preserve">${escapeXmlText(text)}</t></is></c>`;
  }
  return `${open} t="str"><v>${escapeXmlText(text)}</v></c>`;
}

/** Anything escapeXmlText would change, or what excelCell looks at (surrogates, `_xHHHH_`). */
// eslint-disable-next-line no-control-regex
const UNUSUAL_TEXT = /[<>&\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uD800-\uDFFF\uFFFE\uFFFF]|_x/;

/**
 * One row straight from a source row to XML, typed exactly as `excelCell` decides (excel-cells.ts),
 * without intermediate objects for the common plain text: the data sheet's hot loop.
 */
export function createRowRenderer(
  columns: readonly ExportColumn[],
  letters: readonly string[],
  styles: RowStyleIds,
): (rowNumber: number, row: ExportRow, reports: CellReports) => string {
  const types = columns.map((c) => c.type);
  const count = columns.length;
  const ids = new Map<string, number>();
  const styleOf = (format: string): number => {
    let id = ids.get(format);
    if (id === undefined) {
      id = styles.id(format);
      ids.set(format, id);
    }
    return id;
  };
  return (rowNumber, row, reports) => {
    const n = String(rowNumber);
    let xml = `<row r="${n}">`;
    // A cell right after the previous one needs no address (SpreadsheetML's r is optional there, and
    // every reader we check with takes the next column); leaving it out saves a quarter of the sheet's
    // bytes. The first cell of a row and any cell after a gap keep theirs.
    let last = -2;
    for (let i = 0; i < count; i++) {
      const v = row[i];
      if (v === null || v === undefined || v === '') continue;
      const type = types[i];
      // The common case (plain text, no blank at an edge, nothing to escape, short) in one regex test.
      if (
        type === 'text' &&
        typeof v === 'string' &&
        v.length <= EXCEL_MAX_CELL_CHARS &&
        v.charCodeAt(0) > 32 &&
        v.charCodeAt(v.length - 1) > 32 &&
        !UNUSUAL_TEXT.test(v)
      ) {
        xml +=
          (last === i - 1 ? '<c' : '<c r="' + (letters[i] as string) + n + '"') +
          ' t="str"><v>' +
          v +
          '</v></c>';
        last = i;
        continue;
      }
      const cell = excelCell(v, type as ExportColumn['type']);
      if (cell.kind === 'empty') continue;
      const open = last === i - 1 ? '<c' : '<c r="' + (letters[i] as string) + n + '"';
      last = i;
      if (cell.kind === 'number') {
        xml += `${open} s="${styleOf(cell.format)}"><v>${cell.v}</v></c>`;
        continue;
      }
      if (cell.cut) reports.cut(i);
      if (cell.altered) reports.altered(i);
      xml += stringCell(open, cell.text);
    }
    return xml + '</row>';
  };
}
