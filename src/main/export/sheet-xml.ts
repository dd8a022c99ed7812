/**
 * Renders data rows as SpreadsheetML text for exceljs's worksheet stream. exceljs builds a Row and a
 * Cell object per value and looks up a style per cell; at 100,000 × 88 cells that costs several times
 * what the file's bytes cost, so data rows are rendered here while exceljs keeps doing the rest (zip,
 * styles, sheet views, autofilter, workbook parts).
 */
import {
  EXCEL_MAX_CELL_CHARS,
  fitExcelText,
  parseDecimalText,
  parseEpochText,
  parseIsoDateText,
  toExcelValue,
} from './cell-values';
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

export interface RowStyleIds {
  /** Style id for a date cell of the column (date or date-time format). */
  date: readonly number[];
}

/** Where the row renderer reports text it had to cut at Excel's cell limit (column index). */
export type CutSink = (columnIndex: number) => void;

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

type WellFormed = { isWellFormed(): boolean; toWellFormed(): string };

/** Anything escapeXmlText would change, or a surrogate (which may be lone and need replacing). */
// eslint-disable-next-line no-control-regex
const UNUSUAL_TEXT = /[<>&\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** `open` is `<c r="B7"` or just `<c` (see createRowRenderer). */
function stringCell(open: string, text: string): string {
  if (text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32) {
    return `${open} t="inlineStr"><is><t xml:space="preserve">${escapeXmlText(text)}</t></is></c>`;
  }
  return `${open} t="str"><v>${escapeXmlText(text)}</v></c>`;
}

/** The cell of a value that is not a plain string (numbers, nulls, odd types): the general rules. */
function generalCell(
  open: string,
  value: unknown,
  column: ExportColumn,
  dateStyle: number,
  cut: () => void,
): string {
  let v = toExcelValue(value, column.type);
  if (v === null) return '';
  if (typeof v === 'number') return `${open}><v>${v}</v></c>`;
  if (v instanceof Date) return `${open} s="${dateStyle}"><v>${excelSerial(v)}</v></c>`;
  if (v.length > EXCEL_MAX_CELL_CHARS) {
    v = fitExcelText(v).text;
    cut();
  }
  return stringCell(open, v);
}

/**
 * One row straight from a source row to XML, with the same typing as `toExcelValue` + `rowXml`
 * but without the intermediate values, Date objects and per-cell dispatch: the data sheet's hot loop.
 */
export function createRowRenderer(
  columns: readonly ExportColumn[],
  letters: readonly string[],
  styles: RowStyleIds,
): (rowNumber: number, row: ExportRow, onCut: CutSink) => string {
  const types = columns.map((c) => c.type);
  const count = columns.length;
  return (rowNumber, row, onCut) => {
    const n = String(rowNumber);
    let xml = `<row r="${n}">`;
    // A cell right after the previous one needs no address (SpreadsheetML's r is optional there, and
    // every reader we check with, exceljs included, takes the next column); leaving it out saves a
    // quarter of the sheet's bytes. The first cell of a row and any cell after a gap keep theirs.
    let last = -2;
    for (let i = 0; i < count; i++) {
      const v = row[i];
      if (v === null || v === undefined || v === '') continue;
      const open = last === i - 1 ? '<c' : '<c r="' + (letters[i] as string) + n + '"';
      last = i;
      if (typeof v !== 'string') {
        const cell = generalCell(open, v, columns[i] as ExportColumn, styles.date[i] as number, () =>
          onCut(i),
        );
        if (cell === '') last = -2;
        xml += cell;
        continue;
      }
      const type = types[i];
      if (type === 'decimal' || type === 'integer') {
        const num = parseDecimalText(v);
        if (num !== null) {
          // A plain number's text is already a valid xsd:double, so unless it has blanks to trim or
          // thousands commas it is written as is, which spares converting the number back to text.
          const plain = v.charCodeAt(0) > 32 && v.charCodeAt(v.length - 1) > 32 && v.indexOf(',') < 0;
          xml += open + '><v>' + (plain ? v : String(num)) + '</v></c>';
          continue;
        }
      } else if (type === 'date') {
        let serial = isoDateSerial(v);
        if (serial === null) {
          const d = parseIsoDateText(v);
          if (d) serial = excelSerial(d);
        }
        if (serial !== null) {
          xml += `${open} s="${styles.date[i]}"><v>${serial}</v></c>`;
          continue;
        }
      } else if (type === 'epoch') {
        const d = parseEpochText(v);
        if (d) {
          xml += `${open} s="${styles.date[i]}"><v>${excelSerial(d)}</v></c>`;
          continue;
        }
      }
      // The common case (plain text, no blank at an edge, nothing to escape, short) in one regex test.
      if (
        v.length <= EXCEL_MAX_CELL_CHARS &&
        v.charCodeAt(0) > 32 &&
        v.charCodeAt(v.length - 1) > 32 &&
        !UNUSUAL_TEXT.test(v)
      ) {
        xml += open + ' t="str"><v>' + v + '</v></c>';
        continue;
      }
      let text = (v as unknown as WellFormed).isWellFormed()
        ? v
        : (v as unknown as WellFormed).toWellFormed();
      if (text.length > EXCEL_MAX_CELL_CHARS) {
        text = fitExcelText(text).text;
        onCut(i);
      }
      xml += stringCell(open, text);
    }
    return xml + '</row>';
  };
}
