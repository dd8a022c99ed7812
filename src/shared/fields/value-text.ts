/**
 * How the text of a record's value is read as a number, a calendar day or an instant: one rule for
 * the search grid, the library's SQL and every exporter and importer. The service sends every value
 * as text; these functions decide which texts are numbers, and nothing else does.
 *
 * Decimal text (decided once): surrounding ASCII blanks are ignored, then either
 * - a plain number: optional sign, digits with an optional fraction (or a bare fraction like ".5"),
 *   optional exponent — "1234.50", "-3", ".5", "1.5e3"; or
 * - a number with thousands commas in groups of three and an optional fraction — "1,234.50",
 *   "12,345,678". The service writes some values this way and they are the same numbers.
 * Anything else is text, not a number: a decimal comma ("12,5"), irregular groups ("1,23"), spaces or
 * dots as thousands separators, "inf", "NaN", "1_000", hexadecimal, or a value too large for a double.
 * A regional file ("1.234,5") is read as numbers only by an import whose locale says so.
 */

/** The blanks trimmed around a value: ASCII only, as DuckDB's casts do (a no-break space is text). */
const BLANKS = '[ \\t\\n\\v\\f\\r]*';
/** A plain decimal number as JavaScript's Number() and DuckDB's DOUBLE cast both read it. */
export const PLAIN_DECIMAL_SOURCE = '[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?';
/** A number with thousands commas: "1,234", "-12,345,678.50". */
export const GROUPED_DECIMAL_SOURCE = '[+-]?\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?';
/** A whole value holding a number with thousands commas, blanks around allowed (RE2 and JavaScript). */
export const GROUPED_DECIMAL_TEXT_SOURCE = `${BLANKS}${GROUPED_DECIMAL_SOURCE}${BLANKS}`;

const PLAIN = new RegExp(`^${BLANKS}${PLAIN_DECIMAL_SOURCE}${BLANKS}$`);
const GROUPED = new RegExp(`^${GROUPED_DECIMAL_TEXT_SOURCE}$`);
function hasComma(text: string): boolean {
  return text.indexOf(',') >= 0;
}

/** The number a decimal text stands for, or null when the text is not a number under the rule above. */
export function parseDecimalText(text: unknown): number | null {
  if (typeof text !== 'string' || text === '') return null;
  let n: number;
  if (PLAIN.test(text)) n = Number(text);
  else if (hasComma(text) && GROUPED.test(text)) n = Number(text.replace(/,/g, ''));
  else return null;
  return Number.isFinite(n) ? n : null;
}

/** How a decimal text is written: its fraction digits and whether it groups thousands with commas. */
export interface DecimalShape {
  value: number;
  /** Digits after the decimal point as written ("1.50" → 2, "3" → 0, "3." → 0). */
  decimals: number;
  grouped: boolean;
}

/**
 * The number and the shape of a decimal text when the text is exactly what writing that number with
 * that shape gives back (`formatDecimal`): no blanks, no exponent, no "+" sign, no leading zeros, no
 * "-0", at most 15 significant digits (what a double holds without changing a digit). Those are the
 * values a typed cell can carry without altering them; any other number stays text.
 */
export function exactDecimalShape(text: string): DecimalShape | null {
  const value = parseDecimalText(text);
  if (value === null) return null;
  const point = text.indexOf('.');
  const decimals = point < 0 ? 0 : text.length - point - 1;
  const grouped = hasComma(text);
  if (decimals > 20) return null;
  const shape = { value, decimals, grouped };
  if (formatDecimal(shape) !== text) return null;
  const digits = text.replace(/[^\d]/g, '').replace(/^0+/, '');
  return digits.length <= 15 ? shape : null;
}

/** Writes a number with a given number of decimals, grouping thousands with commas when asked. */
export function formatDecimal(shape: DecimalShape): string {
  const fixed = shape.value.toFixed(shape.decimals);
  if (!shape.grouped) return fixed;
  const negative = fixed.startsWith('-');
  const body = negative ? fixed.slice(1) : fixed;
  const point = body.indexOf('.');
  const whole = point < 0 ? body : body.slice(0, point);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (negative ? '-' : '') + grouped + (point < 0 ? '' : body.slice(point));
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0));
}

/** A day written as yyyy-MM-dd that exists in the calendar ("2023-02-30" does not), blanks around allowed. */
export function parseIsoDay(text: unknown): CalendarDay | null {
  if (typeof text !== 'string') return null;
  const m = ISO_DAY.exec(text.length === 10 ? text : text.trim());
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return isCalendarDay(year, month, day) ? { year, month, day } : null;
}

/** Unix seconds (with a fraction) from an epoch field's text, under the decimal rule; null otherwise. */
export function parseEpochSeconds(text: unknown): number | null {
  return parseDecimalText(text);
}
