import type { ShipmentSearchResponse } from '@shared/spec/responses';
import type { RecordObject } from '../library';
import type { JobRow, ShipmentState } from './job-state';
import { carveCut, fetchWindow, nextSweepStep, type FrontierItem } from './planner';
import type { RequestPolicy, RequestWait } from './request-policy';
import type { RunOptions, ShipmentSource } from './types';
import { adjoins, applyWindow, splitByFacet, windowKey, type SliceWindow } from './windows';

/** A window the sweep has finished: what it held, its records, and whether it was fetched whole. */
export interface DoneWindow {
  window: SliceWindow;
  total: number;
  records: readonly RecordObject[];
  complete: boolean;
}

export interface SweepOptions {
  cap: number;
  probeSize: number;
  fill: number;
  policy: RequestPolicy;
  /** Stores finished windows (deduplicated) and the job's state in one unit of work. */
  commit: (windows: DoneWindow[]) => Promise<void>;
  /** Reports progress; `wait` while a rate-limit wait or a wait for the service is under way. */
  progress: (wait?: RequestWait) => void;
  /** Thrown between steps: cancel and pause. */
  checkStop: () => void;
}

/**
 * Runs a shipment job's slicing sweep until its frontier is empty: asks the planner for the next step,
 * makes its request within the request policy, and commits what it learnt before the next step, so a
 * crash loses at most the request in flight.
 */
export async function runShipmentSweep(
  job: JobRow,
  state: ShipmentState,
  source: ShipmentSource,
  run: RunOptions,
  opts: SweepOptions,
): Promise<void> {
  const filter = job.input.filter;
  const { policy, cap, probeSize, fill } = opts;
  const signal = run.signal;
  const waitSignal = eitherSignal(run.signal, run.pause);
  const downloadsAtStart = state.downloads;
  const budget = (): number => policy.budget(downloadsAtStart, state.downloads);
  const today = new Date().toISOString().slice(0, 10);
  // The part probed last: its density sizes the slice after it (the sweep runs forward in time).
  // Kept in memory only; after a resume the first slice assumes an even spread instead.
  let lastPart: FrontierItem | null = null;

  /** `cost`: what the request will be charged when known (the sum of the windows it fetches). */
  const search = async (w: SliceWindow, size: number, cost = size): Promise<ShipmentSearchResponse> => {
    // The service refuses a search that would pass the download limit whole (and charges nothing),
    // so one that cannot fit is not sent: the job pauses with what it has.
    if (cost > budget()) throw policy.outOfDownloads(job.input.account, 'shipments/search', budget(), cost);
    const res = await policy.call(
      (attempts) =>
        source.shipmentSearch(
          { ...applyWindow(filter, w), size },
          { ...(signal ? { signal } : {}), ...attempts },
        ),
      waitSignal,
      (wait) => opts.progress(wait ?? undefined),
      () => {
        // Served and charged, though unread: counted at what it could have cost (the service returns
        // at most `cost` here), so the downloads left stay on the safe side.
        state.requests++;
        state.downloads += cost;
        if (cost > budget())
          throw policy.outOfDownloads(job.input.account, 'shipments/search', budget(), cost);
      },
    );
    state.requests++;
    state.downloads += res.shipments.length;
    return res;
  };

  const probeAt = async (index: number): Promise<void> => {
    const item = state.frontier[index]!;
    const probe = await search(item.window, probeSize);
    if (state.rootTotal === null) state.rootTotal = probe.total;
    const next = state.frontier[index + 1];
    if (
      index === 0 &&
      probe.shipments.length >= probe.total &&
      !(next && adjoins(item.window, next.window))
    ) {
      // A probe that returned its whole window and has nothing to join: done.
      state.frontier.shift();
      await opts.commit([
        { window: item.window, total: probe.total, records: probe.shipments, complete: true },
      ]);
    } else {
      // Otherwise its records are fetched again with its neighbours (at most `probeSize` downloads).
      item.total = probe.total;
      lastPart = item;
      await opts.commit([]);
    }
  };

  /** Probes a prefix of the part at `index` sized to hold about `want` records; the part becomes prefix + rest. */
  const carve = async (index: number, want: number): Promise<void> => {
    const item = state.frontier[index]!;
    const total = item.total!;
    const { prefix, rest } = carveCut(item, want, today, lastPart);
    const probe = await search(prefix, probeSize);
    // A prefix larger than the whole means the data changed since: the rest must be probed.
    lastPart = { window: prefix, total: probe.total };
    state.frontier.splice(index, 1, lastPart, {
      window: rest,
      total: probe.total <= total ? total - probe.total : null,
    });
    await opts.commit([]);
  };

  /**
   * Fetches the first `n` parts, which adjoin and hold `sum` ≤ cap records together, in one request over
   * their joined days with size = the exact sum: known parts are never fetched blindly, and empty or
   * small parts cost no request of their own.
   */
  const fetchRun = async (n: number, sum: number): Promise<void> => {
    const joined = fetchWindow(state.frontier, n);
    if (sum === 0) {
      // Every part was probed or derived empty: nothing to download.
      state.frontier.splice(0, n);
      await opts.commit([{ window: joined, total: 0, records: [], complete: true }]);
      return;
    }
    const res = await search(joined, Math.max(probeSize, sum), sum);
    if (res.shipments.length >= res.total) {
      state.frontier.splice(0, n);
      await opts.commit([{ window: joined, total: res.total, records: res.shipments, complete: true }]);
    } else {
      // The run grew since it was probed: it becomes one window with its new total and goes round again.
      state.frontier.splice(0, n, { window: joined, total: res.total });
      await opts.commit([]);
    }
  };

  /** Splits a single day over the cap by HS code or country (date windows are carved by the sweep). */
  const split = async (): Promise<void> => {
    const item = state.frontier[0]!;
    const parentTotal = item.total!;
    const w = item.window;
    const done: DoneWindow[] = [];
    const next: FrontierItem[] = [];
    const parts = splitByFacet(filter, w);
    if (parts === null) {
      // Nothing left to split by: take what one call returns and say the window is not whole.
      const res = await search(w, cap);
      done.push({ window: w, total: res.total, records: res.shipments, complete: false });
    } else {
      let sum = 0;
      for (const part of parts) {
        const probe = await search(part, probeSize);
        sum += probe.total;
        if (probe.shipments.length >= probe.total)
          done.push({ window: part, total: probe.total, records: probe.shipments, complete: true });
        else next.push({ window: part, total: probe.total });
      }
      const refined =
        (w.hs_codes ?? filter.hs_codes ?? []).length <= 1 && parts.every((p) => p.hs_codes?.length === 1);
      if (refined && sum < parentTotal) {
        state.gaps.push(
          `${windowKey(w)}: ${parentTotal - sum} record(s) with an HS code no longer prefix could not be reached`,
        );
      }
    }
    state.frontier.splice(0, 1, ...next);
    await opts.commit(done);
  };

  opts.progress();
  for (;;) {
    const step = nextSweepStep(state.frontier, { cap, probeSize, fill, budget: budget() });
    if (step.kind === 'done') return;
    opts.checkStop();
    switch (step.kind) {
      case 'probe':
        await probeAt(step.index);
        break;
      case 'carve':
        await carve(step.index, step.want);
        break;
      case 'split':
        await split();
        break;
      case 'fetch':
        await fetchRun(step.count, step.sum);
        break;
      case 'out-of-downloads':
        throw policy.outOfDownloads(job.input.account, 'shipments/search', budget(), step.needs);
    }
    opts.progress();
  }
}

/** One signal that fires when either does (waits end on cancel and on pause). */
export function eitherSignal(
  a: AbortSignal | undefined,
  b: AbortSignal | undefined,
): AbortSignal | undefined {
  if (!a) return b;
  if (!b) return a;
  return AbortSignal.any([a, b]);
}
