import type { DateWindow } from '../library';

/** Days before the newest record held that a refresh fetches again: records arrive up to weeks late. */
export const DEFAULT_OVERLAP_DAYS = 30;
export const MAX_OVERLAP_DAYS = 366;

const DAY_MS = 86_400_000;

/** `date` moved by `days` (yyyy-MM-dd in, yyyy-MM-dd out). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whether two windows overlap or touch (one ends the day before the other starts). */
function meets(a: DateWindow, b: DateWindow): boolean {
  // Sorted by start, so a.start <= b.start: they meet unless a ends before the day b starts.
  if (a.end === undefined || b.start === undefined) return true;
  return addDays(a.end, 1) >= b.start;
}

const later = (a?: string, b?: string): string | undefined =>
  a === undefined || b === undefined ? undefined : a > b ? a : b;

/** Windows sorted by start and merged where they overlap or touch. */
export function mergeWindows(windows: readonly DateWindow[]): DateWindow[] {
  const sorted = [...windows].sort((a, b) => (a.start ?? '').localeCompare(b.start ?? ''));
  const out: DateWindow[] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && meets(last, w)) {
      const end = later(last.end, w.end);
      out[out.length - 1] = { ...(last.start ? { start: last.start } : {}), ...(end ? { end } : {}) };
    } else out.push({ ...w });
  }
  return out;
}

/** A window clipped to the query's own dates; null when nothing of it is left. */
function clip(w: DateWindow, query: DateWindow): DateWindow | null {
  const start =
    w.start && query.start ? (w.start > query.start ? w.start : query.start) : (w.start ?? query.start);
  const end = w.end && query.end ? (w.end < query.end ? w.end : query.end) : (w.end ?? query.end);
  if (start && end && start > end) return null;
  return { ...(start ? { start } : {}), ...(end ? { end } : {}) };
}

export interface LastSnapshot {
  newestDate: string | null;
  incomplete: readonly DateWindow[];
}

/**
 * The arrival-date windows a refresh fetches: everything after the last snapshot's newest record, from
 * `overlapDays` before it (records published late, removed or corrected there are seen), plus every
 * window the last snapshot could not fetch whole; merged, within the query's own dates. With no
 * snapshot yet (or none with a record), the whole query.
 */
export function refreshWindows(
  query: { start_date?: unknown; end_date?: unknown },
  last: LastSnapshot | null,
  overlapDays: number,
): DateWindow[] {
  const own: DateWindow = {
    ...(typeof query.start_date === 'string' && query.start_date ? { start: query.start_date } : {}),
    ...(typeof query.end_date === 'string' && query.end_date ? { end: query.end_date } : {}),
  };
  if (!last || last.newestDate === null) return [own];
  const fresh = clip({ start: addDays(last.newestDate, -overlapDays) }, own);
  const windows = [...(fresh ? [fresh] : []), ...last.incomplete.map((w) => clip(w, own))].filter(
    (w): w is DateWindow => w !== null,
  );
  return mergeWindows(windows);
}

/** A window in the analyst's words: "2025-06-01 – 2025-06-30", "from 2025-06-01", "all dates". */
export function describeWindow(w: DateWindow): string {
  if (w.start && w.end) return w.start === w.end ? w.start : `${w.start} – ${w.end}`;
  if (w.start) return `from ${w.start}`;
  if (w.end) return `until ${w.end}`;
  return 'all dates';
}

/** Whether a date (yyyy-MM-dd) is inside a window. */
export function inWindow(date: string, w: DateWindow): boolean {
  return (w.start === undefined || date >= w.start) && (w.end === undefined || date <= w.end);
}

/**
 * What makes a comparison of two snapshots less than it seems, in the analyst's words: a snapshot that
 * could not fetch every window whole misses records, which then show as new (or lost) in the other.
 */
export function snapshotWarnings(
  ...snapshots: readonly { no: number; status: 'complete' | 'partial'; incomplete: readonly string[] }[]
): string[] {
  return snapshots
    .filter((s) => s.status === 'partial')
    .map(
      (s) =>
        `Snapshot ${s.no} is incomplete: ${s.incomplete.join(', ') || 'some dates'} could not be fetched whole, ` +
        'so records of those dates may be missing from it and show as new or lost here.',
    );
}
