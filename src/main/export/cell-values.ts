/**
 * Turning the service's text into typed spreadsheet values. Anything that is not clearly a number or a
 * date stays exactly as it came (fillers such as "-" or "N/A" are data about the data, never a 0).
 */
import { parseDecimalText as parseDecimalRule, parseIsoDay } from '@shared/fields';
import type { ExportColumnType } from './types';

/** Excel refuses longer cell text. */
export const EXCEL_MAX_CELL_CHARS = 32_767;
/** Appended to a cut cell so the reader sees in the cell itself that text is missing. */
export const CUT_MARKER = ' [… cut: Excel cell limit]';

/** A double holds 15 significant digits safely; longer numbers stay text so that no digit is lost. */
const MAX_SIGNIFICANT_DIGITS = 15;

/** Excel's date system starts in 1900 and ends in 9999; outside that a date stays text. */
const MIN_EXCEL_MS = Date.UTC(1900, 2, 1);
const MAX_EXCEL_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * A decimal text's number under the shared rule (@shared/fields), when a double holds it without
 * losing a digit; null for text and for numbers of more than 15 significant digits.
 */
export function parseDecimalText(text: string): number | null {
  const n = parseDecimalRule(text);
  if (n === null) return null;
  // Only text longer than 15 characters can hold more than 15 digits; most values skip the count.
  if (text.length > MAX_SIGNIFICANT_DIGITS) {
    const mantissa = text
      .trim()
      .replace(/[eE].*$/, '')
      .replace(/[^\d]/g, '')
      .replace(/^0+/, '')
      .replace(/0+$/, '');
    if (mantissa.length > MAX_SIGNIFICANT_DIGITS) return null;
  }
  return n;
}

/** A `yyyy-MM-dd` calendar day as a UTC midnight Date (exceljs writes Dates by their UTC value). */
export function parseIsoDateText(text: string): Date | null {
  const day = parseIsoDay(text);
  if (!day) return null;
  const ms = Date.UTC(day.year, day.month - 1, day.day);
  return ms >= MIN_EXCEL_MS && ms <= MAX_EXCEL_MS ? new Date(ms) : null;
}

/** Unix seconds (with a fraction) as a Date, shown in UTC since an Excel cell has no time zone. */
export function parseEpochText(text: string): Date | null {
  const seconds = parseDecimalText(text);
  if (seconds === null) return null;
  const ms = Math.round(seconds * 1000);
  return ms >= MIN_EXCEL_MS && ms <= MAX_EXCEL_MS ? new Date(ms) : null;
}

export type CellValue = string | number | Date | null;

export interface TextFit {
  text: string;
  cut: boolean;
}

/** Cuts text to Excel's limit without splitting a surrogate pair, and marks the cut. */
export function fitExcelText(text: string): TextFit {
  if (text.length <= EXCEL_MAX_CELL_CHARS) return { text, cut: false };
  let end = EXCEL_MAX_CELL_CHARS - CUT_MARKER.length;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: text.slice(0, end) + CUT_MARKER, cut: true };
}

type WellFormed = { isWellFormed(): boolean; toWellFormed(): string };

/** A lone surrogate cannot be written as XML; it becomes U+FFFD rather than breaking the file. */
function wellFormed(text: string): string {
  const s = text as unknown as WellFormed;
  return s.isWellFormed() ? text : s.toWellFormed();
}

/**
 * The Excel value for one source value of a column. Text that is not what the column type expects
 * is kept as text; an empty string is an empty cell.
 */
export function toExcelValue(value: unknown, type: ExportColumnType): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    if (type === 'epoch') return parseEpochText(String(value)) ?? value;
    return value;
  }
  if (typeof value === 'bigint') return type === 'text' ? value.toString() : Number(value);
  if (value instanceof Date) return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === '') return null;
  switch (type) {
    case 'decimal':
    case 'integer':
      return parseDecimalText(text) ?? wellFormed(text);
    case 'date':
      return parseIsoDateText(text) ?? wellFormed(text);
    case 'epoch':
      return parseEpochText(text) ?? wellFormed(text);
    case 'text':
      return wellFormed(text);
  }
}

/** The original text of a value, for CSV and Parquet: strings unchanged, null as empty. */
export function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}
