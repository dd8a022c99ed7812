import {
  adjoins,
  dayCount,
  dayNumber,
  evenRate,
  isoDay,
  joinWindows,
  prefixEnd,
  type SliceWindow,
} from './windows';

/*
 * The slicing sweep's decisions, as pure functions of the job's frontier and what may still be spent:
 * the runner asks `nextSweepStep` what to do, does it (requests, commits) and asks again. Nothing here
 * sends a request or touches the library, so every decision is unit-tested on its own.
 *
 * Constants tuned on `npm run bench -- jobs-slicing` (results were flat within ±1 request around
 * these values).
 */

/** Room (as a share of the cap) worth a probe to fill: below it, filling saves less than the probe costs. */
export const MIN_ROOM_TO_FILL = 0.3;
/** Share of a run's free room a probe that fills it aims at: overshooting the room wastes the probe. */
export const ROOM_SAFETY = 0.9;
/** A density just before a cut below this share of the window's average is taken for the edge of the data. */
export const LOCAL_RATE_FLOOR = 0.5;
/**
 * Fewest records a slice cut to fit the downloads left should hold: a smaller one spends most of its
 * cost on the probe that cuts it (whose records are downloaded again by the fetch).
 */
export const MIN_BUDGET_SLICE = 100;

/** A part of the job's filter still to fetch; `total` is null until a probe has counted it. */
export interface FrontierItem {
  window: SliceWindow;
  total: number | null;
}

export interface SweepLimits {
  /** Most records one call returns. */
  cap: number;
  /** Size of a probe call. */
  probeSize: number;
  /** How full a date slice is aimed to be (below 1). */
  fill: number;
  /** Downloads this run may still spend; Infinity when unlimited or unknown. */
  budget: number;
}

/** What the sweep does next. */
export type SweepStep =
  | { kind: 'done' }
  /** Count the part at `index` with a probe (its records are kept when they are all of it). */
  | { kind: 'probe'; index: number }
  /** Cut a date prefix holding about `want` records off the part at `index`, with one probe. */
  | { kind: 'carve'; index: number; want: number }
  /** The head is a single day over the cap: split it by HS code or country. */
  | { kind: 'split' }
  /** Fetch the first `count` parts, which adjoin and hold `sum` ≤ cap records, in one request. */
  | { kind: 'fetch'; count: number; sum: number }
  /** The next request cannot be paid for with the downloads left (it would need about `needs`). */
  | { kind: 'out-of-downloads'; needs: number };

/** What each slice aims at when `left` records remain: the fewest slices under `fill` of the cap, evened out. */
function aim(left: number, limits: SweepLimits): number {
  return left / Math.ceil(left / (limits.cap * limits.fill));
}

/** Records in the run of adjoining known parts that starts at frontier[index]. */
export function runTotal(frontier: readonly FrontierItem[], index: number): number {
  let sum = frontier[index]!.total ?? 0;
  for (
    let i = index + 1;
    i < frontier.length &&
    frontier[i]!.total !== null &&
    adjoins(frontier[i - 1]!.window, frontier[i]!.window);
    i++
  )
    sum += frontier[i]!.total!;
  return sum;
}

/** The next step of the sweep over `frontier` (oldest part first) within `limits`. */
export function nextSweepStep(frontier: readonly FrontierItem[], limits: SweepLimits): SweepStep {
  const head = frontier[0];
  if (!head) return { kind: 'done' };
  const { cap, probeSize, fill, budget } = limits;
  // What one request may hold: the cap, or less when fewer downloads are left.
  const room = Math.min(cap, budget);
  // Cut to the downloads left, a prefix leaves room for the probe that cuts it.
  const budgetSlice = budget - probeSize;
  if (head.total === null) return { kind: 'probe', index: 0 };
  if (head.total > room && room < cap) {
    // Short of downloads: fetch what is left of them as a date prefix of the head, then pause.
    if (dayCount(head.window) > 1 && budgetSlice >= MIN_BUDGET_SLICE)
      return {
        kind: 'carve',
        index: 0,
        want: Math.min(budgetSlice * ROOM_SAFETY, aim(runTotal(frontier, 0), limits)),
      };
    return { kind: 'out-of-downloads', needs: Math.min(head.total, cap) };
  }
  if (head.total > cap) {
    if (dayCount(head.window) > 1)
      return { kind: 'carve', index: 0, want: Math.min(head.total, aim(runTotal(frontier, 0), limits)) };
    return { kind: 'split' };
  }
  // The longest run of adjoining known parts from the head that fits in one request.
  let n = 1;
  let sum = head.total;
  for (; n < frontier.length; n++) {
    const it = frontier[n]!;
    if (it.total === null || sum + it.total > room || !adjoins(frontier[n - 1]!.window, it.window)) break;
    sum += it.total;
  }
  const next = frontier[n];
  // Room worth a probe: filling it saves about its share of a window (a probe and a fetch), so a small
  // remainder of room is cheaper left empty.
  const adjoining = next !== undefined && adjoins(frontier[n - 1]!.window, next.window);
  // Aimed short of the room: a part that overshoots it cannot join, and leaves the run as underfilled as
  // it was. With few downloads left, the room is what they pay for after the probe.
  const want = Math.min(
    adjoining && next.total !== null ? aim(runTotal(frontier, 0), limits) - sum : cap * fill - sum,
    (cap - sum) * ROOM_SAFETY,
    (budgetSlice - sum) * ROOM_SAFETY,
  );
  const worthFilling = adjoining && want >= cap * MIN_ROOM_TO_FILL;
  if (worthFilling && next.total === null) return { kind: 'probe', index: n };
  if (worthFilling && next.total! > cap && dayCount(next.window) > 1)
    return { kind: 'carve', index: n, want };
  return { kind: 'fetch', count: n, sum };
}

/**
 * Where a carve cuts the part `item` (of known total) to hold about `want` records: the prefix to probe
 * and the rest. `before` is the part probed last, whose density predicts the days after it better than
 * the part's average when data trends; far below the average it more likely marks where the data
 * starts, so the average wins. Day slices are disjoint, so the rest holds what the prefix leaves.
 */
export function carveCut(
  item: FrontierItem,
  want: number,
  today: string,
  before: FrontierItem | null,
): { prefix: SliceWindow; rest: SliceWindow } {
  const w = item.window;
  const total = item.total!;
  const even = evenRate(w, total, today);
  const local =
    before && before.total !== null && before.total > 0 && adjoins(before.window, w)
      ? before.total / dayCount(before.window)
      : null;
  const rate = local !== null && local >= even * LOCAL_RATE_FLOOR ? local : even;
  const end = prefixEnd(w, total, want, today, rate)!;
  return { prefix: { ...w, end }, rest: { ...w, start: isoDay(dayNumber(end) + 1) } };
}

/** The window one fetch of the first `count` parts asks for: their days joined. */
export function fetchWindow(frontier: readonly FrontierItem[], count: number): SliceWindow {
  return joinWindows(frontier[0]!.window, frontier[count - 1]!.window);
}
