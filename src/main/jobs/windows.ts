import type { ShipmentFilter } from '@shared/spec/filter';

/**
 * One slice of a shipment search: the job's filter narrowed to a day range and, when one day alone
 * holds more than a call can return, to one HS code (prefix) or one country.
 */
export interface SliceWindow {
  start: string;
  end: string;
  hs_codes?: string[];
  importer_countries?: string[];
  exporter_countries?: string[];
}

/** Used when the job's filter leaves the date range open. */
export const OPEN_START = '1900-01-01';
export const OPEN_END = '2100-12-31';
/** HS codes are at most 10 digits; a prefix is refined a digit at a time below that. */
const MAX_HS_DIGITS = 10;

const DAY_MS = 86_400_000;

/**
 * How full a date slice is aimed to be: below 1 so that uneven days rarely push a slice over the
 * cap (which costs another probe), high because adjacent parts are merged into full fetches anyway.
 */
export const DEFAULT_SLICE_FILL = 0.95;

export function dayNumber(iso: string): number {
  return Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
}

export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function rootWindow(filter: ShipmentFilter): SliceWindow {
  return { start: filter.start_date ?? OPEN_START, end: filter.end_date ?? OPEN_END };
}

/** A stable identity for a window (persisted with the job). */
export function windowKey(w: SliceWindow): string {
  return JSON.stringify([
    w.start,
    w.end,
    w.hs_codes ?? null,
    w.importer_countries ?? null,
    w.exporter_countries ?? null,
  ]);
}

/** The filter fields a window overrides, for the covered-windows record of a dataset. */
export function windowFilter(w: SliceWindow): Record<string, unknown> {
  const out: Record<string, unknown> = { start_date: w.start, end_date: w.end };
  if (w.hs_codes) out.hs_codes = w.hs_codes;
  if (w.importer_countries) out.importer_countries = w.importer_countries;
  if (w.exporter_countries) out.exporter_countries = w.exporter_countries;
  return out;
}

/** The job's filter narrowed to the window. */
export function applyWindow(filter: ShipmentFilter, w: SliceWindow): ShipmentFilter {
  const out: ShipmentFilter = { ...filter, start_date: w.start, end_date: w.end };
  if (w.hs_codes) out.hs_codes = w.hs_codes;
  if (w.importer_countries) out.importer_countries = w.importer_countries;
  if (w.exporter_countries) out.exporter_countries = w.exporter_countries;
  return out;
}

/**
 * Where an open past (the filter gave no start date) is first cut: trade data is recent, so a window
 * reaching back to 1900 is cut at the latest of these inside it (then the next older one, …) before it
 * is sliced finely. Slicing two centuries evenly would spend a probe on each empty slice of history.
 */
const HISTORY_CUTS = ['2020-01-01', '2010-01-01', '2000-01-01'];

/**
 * The last day of a prefix of `w` (holding `total` records) expected to hold about `target` records,
 * or null when `w` is a single day. `rate` (records per day) is what is known of the density just
 * before `w`; without it records are assumed spread evenly up to `today` (nothing is dated later).
 * The prefix always leaves at least one day to the rest.
 */
export function prefixEnd(
  w: SliceWindow,
  total: number,
  target: number,
  today: string,
  rate?: number,
): string | null {
  const a = dayNumber(w.start);
  const b = dayNumber(w.end);
  if (b <= a) return null;
  if (w.start === OPEN_START) {
    const cut = HISTORY_CUTS.map(dayNumber).find((d) => d > a && d <= b);
    if (cut !== undefined) return isoDay(cut - 1);
  }
  const r = rate ?? evenRate(w, total, today);
  const days = r > 0 ? Math.floor(target / r) : b - a;
  return isoDay(a + Math.max(1, Math.min(b - a, days)) - 1);
}

/** Records per day of `w` if its `total` were spread evenly over its days up to `today`. */
export function evenRate(w: SliceWindow, total: number, today: string): number {
  const a = dayNumber(w.start);
  const b = dayNumber(w.end);
  const t = dayNumber(today);
  return total / ((a <= t && t < b ? t : b) - a + 1);
}

/** True when `b` starts the day after `a` ends and both narrow the same facets: one query can join them. */
export function adjoins(a: SliceWindow, b: SliceWindow): boolean {
  return (
    dayNumber(b.start) === dayNumber(a.end) + 1 &&
    JSON.stringify([a.hs_codes ?? null, a.importer_countries ?? null, a.exporter_countries ?? null]) ===
      JSON.stringify([b.hs_codes ?? null, b.importer_countries ?? null, b.exporter_countries ?? null])
  );
}

/** The window from `first`'s start to `last`'s end (callers pass adjoining runs). */
export function joinWindows(first: SliceWindow, last: SliceWindow): SliceWindow {
  return { ...first, end: last.end };
}

export function dayCount(w: SliceWindow): number {
  return dayNumber(w.end) - dayNumber(w.start) + 1;
}

/**
 * For a single day still over the cap: one window per listed HS code or country, else the HS prefix
 * refined by one more digit (the service matches HS codes by prefix). Null when nothing is left to
 * split by. Facet slices may overlap (prefix codes, a record matching two listed codes), so their
 * totals are probed, never derived, and the union is deduplicated by hashId.
 */
export function splitByFacet(filter: ShipmentFilter, w: SliceWindow): SliceWindow[] | null {
  const hs = w.hs_codes ?? filter.hs_codes ?? [];
  if (hs.length > 1) return hs.map((code) => ({ ...w, hs_codes: [code] }));
  const imp = (w.importer_countries ?? filter.importer_countries ?? []).filter((c) => c !== 'ALL');
  if (imp.length > 1) return imp.map((c) => ({ ...w, importer_countries: [c] }));
  const exp = w.exporter_countries ?? filter.exporter_countries ?? [];
  if (exp.length > 1) return exp.map((c) => ({ ...w, exporter_countries: [c] }));
  const prefix = hs[0] ?? '';
  if (prefix.length >= MAX_HS_DIGITS) return null;
  // With no HS code at all, chapters 01–99 are the first level (HS codes have at least two digits).
  const children =
    prefix === ''
      ? Array.from({ length: 99 }, (_, i) => String(i + 1).padStart(2, '0'))
      : Array.from({ length: 10 }, (_, d) => `${prefix}${d}`);
  return children.map((code) => ({ ...w, hs_codes: [code] }));
}
