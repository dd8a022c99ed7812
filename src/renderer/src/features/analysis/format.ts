/** Number and count text of the analysis views. */

export const num = (n: number | null, digits = 0): string =>
  n === null
    ? '—'
    : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;

/** "1 shipment", "2 shipments": analysts read these counts aloud in reports, so the grammar matters. */
export const count = (n: number, one: string, many = `${one}s`): string =>
  `${num(n)} ${n === 1 ? one : many}`;
