/**
 * Renders data rows as SpreadsheetML text for exceljs's worksheet stream. exceljs builds a Row and a
 * Cell object per value and looks up a style per cell; at 100,000 × 88 cells that costs several times
 * what the file's bytes cost, so data rows are rendered here while exceljs keeps doing the rest (zip,
 * styles, sheet views, autofilter, workbook parts).
 */
import type { CellValue } from './cell-values';

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

/** One `<row>`; `letters[i]` is column i's letter. Empty values write no cell. */
export function rowXml(
  rowNumber: number,
  values: readonly CellValue[],
  letters: readonly string[],
  styles: RowStyleIds,
): string {
  let xml = `<row r="${rowNumber}">`;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    const ref = `${letters[i]}${rowNumber}`;
    if (typeof v === 'string') {
      // t="str" with <v> is what exceljs itself writes without shared strings, and half the bytes of an
      // inline string. Text with blanks at an edge takes the inline form, the one place xml:space is
      // allowed, since a reader may otherwise drop them (and " " is a filler worth keeping).
      if (v.charCodeAt(0) <= 32 || v.charCodeAt(v.length - 1) <= 32) {
        xml += `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXmlText(v)}</t></is></c>`;
      } else {
        xml += `<c r="${ref}" t="str"><v>${escapeXmlText(v)}</v></c>`;
      }
    } else if (typeof v === 'number') {
      xml += `<c r="${ref}"><v>${v}</v></c>`;
    } else {
      xml += `<c r="${ref}" s="${styles.date[i]}"><v>${excelSerial(v)}</v></c>`;
    }
  }
  return xml + '</row>';
}
