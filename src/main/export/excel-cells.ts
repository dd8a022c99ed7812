/**
 * What a value becomes in an Excel cell, decided once for both ways of writing rows (sheet-xml.ts and
 * exceljs's rows): every column has one type, and a value is typed only when the cell gives back
 * exactly the text it came as.
 *
 * - Decimals: a number formatted with thousands separators and the text's own decimals
 *   (`#,##0.00`). Text written with thousands commas ("1,234.50") gets the same display with an
 *   explicit negative section (`#,##0.00;-#,##0.00`), which shows the same and tells a re-import
 *   to give the commas back. A value no number and format reproduces ("1e3", "007", 17 digits)
 *   stays text.
 * - Epoch seconds: a date-time at full precision (serial computed exactly, see excel-serial.ts),
 *   shown to the second. The text's decimals (6 from the service) ride in the format: nothing for 6,
 *   otherwise empty literals (`""`) that show nothing and tell a re-import how many.
 * - Dates: yyyy-MM-dd as date cells. Firm counts: whole numbers with separators.
 * - Text: as is, except what a spreadsheet cannot hold: characters XML forbids (control
 *   characters) are removed and the cell is reported as altered; text past Excel's cell limit is
 *   cut and reported. A literal `_xHHHH_` is escaped as Excel does (`_x005F_`), so it reads back.
 */
import {
  exactDecimalShape,
  secondsDecimals,
  secondsTextFromSerial,
  serialFromSecondsText,
} from '@shared/fields';
import { fitExcelText, parseIsoDateText } from './cell-values';
import type { ExportColumnType } from './types';

export const DATE_FORMAT = 'yyyy-mm-dd';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const MS_PER_DAY = 86_400_000;
const UNIX_EPOCH_SERIAL = 25_569;

/** The display of a decimal with `decimals` digits; `grouped` marks text that had thousands commas. */
export function decimalFormat(decimals: number, grouped: boolean): string {
  const body = decimals > 0 ? `#,##0.${'0'.repeat(decimals)}` : '#,##0';
  return grouped ? `${body};-${body}` : body;
}

/**
 * The display of an epoch date-time whose text had `decimals` digits: 6 (the service's) is the plain
 * format; any other count is written as that many plus one empty literals (`""`) after it, which
 * Excel and LibreOffice show as nothing and a re-import counts.
 */
export function epochFormat(decimals: number): string {
  if (decimals === 6) return DATE_TIME_FORMAT;
  return DATE_TIME_FORMAT + '""'.repeat(decimals + 1);
}

export type ExcelCell =
  | { kind: 'empty' }
  /** `v` is the cell's value as written in the file (a valid xsd:double). */
  | { kind: 'number'; value: number; v: string; format: string }
  | { kind: 'text'; text: string; cut: boolean; altered: boolean };

const EMPTY: ExcelCell = { kind: 'empty' };
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex
const UNUSUAL = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF\uD800-\uDFFF]|_x[0-9A-Fa-f]{4}_/;
const EXCEL_ESCAPE_LIKE = /_x([0-9A-Fa-f]{4})_/g;
/** A plain decimal whose text a number gives back as is (no leading zero, no "+", no exponent). */
const PLAIN_EXACT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

type WellFormed = { isWellFormed(): boolean; toWellFormed(): string };

/** Text as a cell can hold it, and whether anything had to change. */
export function cellText(text: string): ExcelCell {
  if (!UNUSUAL.test(text) && text.length <= 32_767) return { kind: 'text', text, cut: false, altered: false };
  let out = (text as unknown as WellFormed).isWellFormed()
    ? text
    : (text as unknown as WellFormed).toWellFormed();
  let altered = out !== text;
  const cleaned = out.replace(FORBIDDEN, '');
  if (cleaned !== out) altered = true;
  out = cleaned.replace(EXCEL_ESCAPE_LIKE, '_x005F_x$1_');
  const fit = fitExcelText(out);
  return { kind: 'text', text: fit.text, cut: fit.cut, altered };
}

function decimalCell(text: string): ExcelCell | null {
  if (PLAIN_EXACT.test(text) && text !== '-0' && !text.startsWith('-0.') && text.length <= 16) {
    const digits = text.length - (text.charCodeAt(0) === 45 ? 1 : 0) - (text.indexOf('.') >= 0 ? 1 : 0);
    if (digits <= 15) {
      const point = text.indexOf('.');
      const decimals = point < 0 ? 0 : text.length - point - 1;
      return { kind: 'number', value: Number(text), v: text, format: decimalFormat(decimals, false) };
    }
  }
  const shape = exactDecimalShape(text);
  if (!shape) return null;
  return {
    kind: 'number',
    value: shape.value,
    v: String(shape.value),
    format: decimalFormat(shape.decimals, shape.grouped),
  };
}

function epochCell(text: string): ExcelCell | null {
  const decimals = secondsDecimals(text);
  if (decimals === null) return null;
  const serial = serialFromSecondsText(text);
  if (serial === null || serial < 61 || serial >= 2_958_466) return null;
  // Only a time the cell gives back to the digit is typed; a far-future one (coarser doubles) stays text.
  if (secondsTextFromSerial(serial, decimals) !== text) return null;
  return { kind: 'number', value: serial, v: String(serial), format: epochFormat(decimals) };
}

function dateCell(text: string): ExcelCell | null {
  if (text.length !== 10) return null;
  const d = parseIsoDateText(text);
  if (!d) return null;
  const serial = UNIX_EPOCH_SERIAL + d.getTime() / MS_PER_DAY;
  return { kind: 'number', value: serial, v: String(serial), format: DATE_FORMAT };
}

/** The cell for one value of a column. */
export function excelCell(value: unknown, type: ExportColumnType): ExcelCell {
  if (value === null || value === undefined || value === '') return EMPTY;
  if (typeof value === 'number' || typeof value === 'bigint') {
    const n = Number(value);
    if (!Number.isFinite(n)) return EMPTY;
    if (type === 'text') return cellText(String(value));
    if (type === 'epoch' || type === 'date') return excelCell(String(value), type);
    return { kind: 'number', value: n, v: String(n), format: Number.isInteger(n) ? '#,##0' : 'General' };
  }
  const text =
    typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  let typed: ExcelCell | null = null;
  if (type === 'decimal' || type === 'integer') typed = decimalCell(text);
  else if (type === 'epoch') typed = epochCell(text);
  else if (type === 'date') typed = dateCell(text);
  return typed ?? cellText(text);
}
