import { parseDecimalText, parseIsoDay } from '@shared/fields';
import { SHIPMENT_COLUMNS, shadowColumnName, type ColumnDef } from './fields';

export { shadowColumnName };

/**
 * Typed shadows: every shipment field whose text stands for a number, a day or an instant (decimal,
 * date, epoch) has a second, typed column beside it — DOUBLE for decimals and epoch seconds, DATE for
 * days — filled at ingest under the shared value rules (@shared/fields). The text stays the source of
 * truth (grids show it, exports and round trips write it); sorts, filters and summaries read the typed
 * column, so a query never casts text (a cast of every row on every query cost 3× a typed column).
 * A text that is not a value under the rule ("-", "n/a", "12,5") has a NULL shadow and sorts last.
 */
export interface ShadowColumn {
  /** The field the shadow types. */
  field: string;
  /** Its column in shipment_rows, after the fields and `_extra`. */
  column: string;
  sqlType: 'DOUBLE' | 'DATE';
  /** Index of the field among the kind's columns (SHIPMENT_COLUMNS). */
  index: number;
}

function isShadowed(c: ColumnDef): boolean {
  return c.type === 'decimal' || c.type === 'date' || c.type === 'epoch';
}

/** The shipment fields with a typed shadow, in field order (the order of the columns in the table). */
export const SHIPMENT_SHADOWS: readonly ShadowColumn[] = SHIPMENT_COLUMNS.flatMap((c, index) =>
  isShadowed(c)
    ? [
        {
          field: c.field,
          column: shadowColumnName(c.field),
          sqlType: c.type === 'date' ? 'DATE' : 'DOUBLE',
          index,
        },
      ]
    : [],
);

const byField: ReadonlyMap<string, ShadowColumn> = new Map(SHIPMENT_SHADOWS.map((s) => [s.field, s]));

/** The shadow of a shipment field, if it has one. */
export function shadowOf(field: string): ShadowColumn | undefined {
  return byField.get(field);
}

/** Powers of ten up to 10^15, each exactly a double. */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * The number a decimal text stands for under parseDecimalText, NaN where it stands for none. The
 * common shape — an optional minus, digits, at most one point, no more than 20 characters — is read
 * here directly: with at most 15 digits in all, the digits make a whole number a double holds exactly,
 * and dividing it by the exact power of ten of its fraction digits rounds once, to the double nearest
 * the text — the very number Number() gives (Number() reads those texts as the rule does), for a
 * fraction of its cost. Longer digit strings go through Number(), anything else through the rule
 * itself. Ingest reads ~20 of these per record, so the fast path is what keeps it cheap.
 */
export function decimalShadow(text: unknown): number {
  if (typeof text !== 'string') return NaN;
  const len = text.length;
  if (len === 0) return NaN;
  if (len <= 20) {
    const negative = text.charCodeAt(0) === 45;
    let i = negative ? 1 : 0;
    let digits = 0;
    let fraction = -1;
    let whole = 0;
    for (; i < len; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        whole = whole * 10 + (c - 48);
        digits++;
      } else if (c === 46 && fraction < 0) fraction = digits;
      else break;
    }
    if (i === len && digits > 0) {
      // 20 characters at most: always finite.
      if (digits > 15) return Number(text);
      const value = fraction < 0 ? whole : whole / POW10[digits - fraction]!;
      return negative ? -value : value;
    }
  }
  return parseDecimalText(text) ?? NaN;
}

/** Days from 1970-01-01 to a proleptic Gregorian day (DuckDB's DATE), for any year. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The day a date text stands for under parseIsoDay, as days from 1970-01-01; null where it is no day. */
export function dateShadow(text: unknown): number | null {
  const d = parseIsoDay(text);
  return d ? daysFromCivil(d.year, d.month, d.day) : null;
}
