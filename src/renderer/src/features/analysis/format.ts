/** Number and count text of the analysis views. */

export const num = (n: number | null, digits = 0): string =>
  n === null
    ? '—'
    : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;

/** "1 shipment", "2 shipments": analysts read these counts aloud in reports, so the grammar matters. */
export const count = (n: number, one: string, many = `${one}s`): string =>
  `${num(n)} ${n === 1 ? one : many}`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "Dec 2025" for the month key "2025-12", as analysts write months in a report; anything that is not
 * such a key (the row of invalid dates) is shown as it is. Only the words change: rows keep the
 * key's order, which is the calendar's.
 */
export function monthName(key: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(key);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${month} ${m[1]}` : key;
}
