import { SHIPMENT_SEARCH_MAX_SIZE, SHIPMENT_SEARCH_MIN_SIZE, type ShipmentFilter } from '@shared/spec/filter';
import type { ShipmentSearchRequest } from '@shared/spec/operations';
import type { ShipmentSearchResponse } from '@shared/spec/responses';
import type { DateWindow, RecordObject } from '../library';

/** What a refresh needs of a service client (`createServiceClient` satisfies it). */
export interface ShipmentSource {
  shipmentSearch(
    req: ShipmentSearchRequest,
    opts?: { signal?: AbortSignal },
  ): Promise<ShipmentSearchResponse>;
}

/** The cheapest look at a window: one size-10 search (its records are kept, not fetched again). */
export interface WindowProbe {
  window: DateWindow;
  total: number;
  records: readonly RecordObject[];
}

export interface WindowFetch {
  window: DateWindow;
  /** What the service reported for the window. */
  total: number;
  /** Its records, each hashId once. */
  records: RecordObject[];
  /** Set when a single day held more than one search returns: the part not fetched whole. */
  incomplete: DateWindow | null;
  requests: number;
  downloads: number;
}

/** The query with its dates narrowed to `w` (and the end to `end` when given), without `size`. */
export function windowFilter(query: ShipmentFilter, w: DateWindow, end?: string): ShipmentFilter {
  const { start_date: _s, end_date: _e, ...rest } = query as ShipmentFilter & { size?: number };
  delete (rest as { size?: number }).size;
  const last = end ?? w.end;
  return { ...rest, ...(w.start ? { start_date: w.start } : {}), ...(last ? { end_date: last } : {}) };
}

const dateOf = (r: RecordObject): string => (typeof r.arrivalDate === 'string' ? r.arrivalDate : '');
/** The key a record is de-duplicated by: its hashId, or (without one) the record itself. */
export const recordKey = (r: RecordObject): string =>
  typeof r.hashId === 'string' && r.hashId ? r.hashId : JSON.stringify(r);

/**
 * Records arrive newest first, so a result cut at the cap (or a probe) holds whole days down to its
 * oldest day, which it may hold only in part. The rest of the window is that day and everything
 * before it: its size is the total less the records of the later days.
 */
function restAfter(total: number, records: readonly RecordObject[]): { before: string; size: number } | null {
  if (records.length >= total || records.length === 0) return null;
  let oldest = dateOf(records[0]!);
  for (const r of records) if (dateOf(r) < oldest) oldest = dateOf(r);
  const later = records.filter((r) => dateOf(r) > oldest).length;
  return { before: oldest, size: total - later };
}

/**
 * Downloads fetching the rest of a probed window will cost: exact while the rest fits one search (the
 * service returns exactly that many), and a lower bound beyond (each further search fetches again the
 * records of the day it starts on). `exact` says which.
 */
export function plannedDownloads(
  probe: WindowProbe,
  cap = SHIPMENT_SEARCH_MAX_SIZE,
): { downloads: number; requests: number; exact: boolean } {
  const rest = restAfter(probe.total, probe.records);
  if (!rest) return { downloads: 0, requests: 0, exact: true };
  return { downloads: rest.size, requests: Math.ceil(rest.size / cap), exact: rest.size <= cap };
}

/** The search a probe of window `w` sends: the query narrowed to the window, at the smallest size. */
export function probeRequest(query: ShipmentFilter, w: DateWindow): ShipmentSearchRequest {
  return { ...windowFilter(query, w), size: SHIPMENT_SEARCH_MIN_SIZE };
}

export async function probeWindow(
  query: ShipmentFilter,
  w: DateWindow,
  source: ShipmentSource,
  signal?: AbortSignal,
): Promise<WindowProbe> {
  const res = await source.shipmentSearch(probeRequest(query, w), signal ? { signal } : {});
  return { window: w, total: res.total, records: res.shipments };
}

/**
 * Fetches what a probe did not return: the probe's oldest day and the days before it, newest first, one
 * search per at most `cap` records, each sized to exactly what is left. A single day holding more than
 * one search returns cannot be narrowed by date: what came is kept and the window is reported
 * incomplete (the next refresh tries it again).
 */
export async function fetchRest(
  query: ShipmentFilter,
  probe: WindowProbe,
  source: ShipmentSource,
  opts: { cap?: number; signal?: AbortSignal } = {},
): Promise<WindowFetch> {
  const cap = opts.cap ?? SHIPMENT_SEARCH_MAX_SIZE;
  const byKey = new Map<string, RecordObject>();
  for (const r of probe.records) byKey.set(recordKey(r), r);
  const out: WindowFetch = {
    window: probe.window,
    total: probe.total,
    records: [],
    incomplete: null,
    requests: 0,
    downloads: 0,
  };
  let rest = restAfter(probe.total, probe.records);
  while (rest) {
    const size = Math.max(SHIPMENT_SEARCH_MIN_SIZE, Math.min(cap, rest.size));
    const res = await source.shipmentSearch(
      { ...windowFilter(query, probe.window, rest.before), size },
      opts.signal ? { signal: opts.signal } : {},
    );
    out.requests++;
    out.downloads += res.shipments.length;
    for (const r of res.shipments) byKey.set(recordKey(r), r);
    const next = restAfter(res.total, res.shipments);
    if (next && next.before === rest.before) {
      // One day over the cap: nothing narrower to ask by date.
      out.incomplete = { ...(probe.window.start ? { start: probe.window.start } : {}), end: rest.before };
      break;
    }
    rest = next;
  }
  out.records = [...byKey.values()];
  return out;
}
