import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { AppError } from '@shared/ipc/errors';
import { type ShipmentFilter, SHIPMENT_SEARCH_MAX_SIZE, SHIPMENT_SEARCH_MIN_SIZE } from '@shared/spec/filter';
import type { FirmSearchResponse, ShipmentSearchResponse } from '@shared/spec/responses';
import {
  toNumber,
  appendRecords,
  type RecordObject,
  deleteDatasetIn,
  RESUMABLE_JOB_STATES,
  type CoveredWindow,
  type Library,
  defaultDatasetName,
  storageError,
} from '../library';
import { RateLimiter } from './rate-limiter';
import { sleep as realSleep } from './sleep';
import type {
  FirmSource,
  JobKind,
  JobOutcome,
  JobStats,
  JobStatus,
  JobSummary,
  RunOptions,
  ShipmentSource,
} from './types';
import {
  DEFAULT_SLICE_FILL,
  adjoins,
  applyWindow,
  dayCount,
  dayNumber,
  evenRate,
  isoDay,
  joinWindows,
  prefixEnd,
  rootWindow,
  splitByFacet,
  windowFilter,
  windowKey,
  type SliceWindow,
} from './windows';

/*
 * Slicing constants, tuned on `npm run bench -- jobs-slicing` (results were flat within ±1 request
 * around these values). Room (as a share of the cap) worth a probe to fill: below it, filling saves
 * less than the probe costs.
 */
const MIN_ROOM_TO_FILL = 0.3;
/** Share of a run's free room a probe that fills it aims at: overshooting the room wastes the probe. */
const ROOM_SAFETY = 0.9;
/** A density just before a cut below this share of the window's average is taken for the edge of the data. */
const LOCAL_RATE_FLOOR = 0.5;
/**
 * Fewest records a slice cut to fit the downloads left should hold: a smaller one spends most of its
 * cost on the probe that cuts it (whose records are downloaded again by the fetch).
 */
const MIN_BUDGET_SLICE = 100;
/** Longest Retry-After a job waits out by itself; a longer one (the daily window) pauses the job. */
const DEFAULT_MAX_WAIT_SECONDS = 300;

export interface JobInput {
  /** The filter; `size`/`page` are ignored (the job decides them). */
  filter: ShipmentFilter;
  profileId?: string | null;
  profileName?: string | null;
  account?: string | null;
  /** Dataset name; defaults to one made from the filter. */
  name?: string;
}

export interface ShipmentJobInput extends JobInput {
  /** A size-10 probe already made (by `estimate`) of the whole filter: saves a request. */
  probe?: { total: number; shipments: readonly RecordObject[] };
}

export interface FirmJobInput extends JobInput {
  /** Page 1 of the same filter, already fetched (and paid for) by `estimate`: not fetched again. */
  firstPage?: FirmSearchResponse;
}

export interface JobRunnerOptions {
  library: Library;
  /** Most records one call returns (the spec's size maximum). */
  cap?: number;
  /** Size of a probe call (the spec's size minimum). */
  probeSize?: number;
  /**
   * How full a date slice is aimed to be; below 1 so that a slice sized from the density before it
   * rarely overshoots the cap (the estimate was within ~5 % on the simulator once data had started).
   */
  fill?: number;
  /** Client-side request limiter; unlimited when omitted. */
  limiter?: RateLimiter;
  /** Consecutive 429 answers tolerated per request before the job stops (resumable). */
  max429Retries?: number;
  /** A Retry-After longer than this (seconds) pauses the job instead of being waited out. Default 300. */
  maxWaitSeconds?: number;
  /**
   * Downloads left of the job's metric (`shipments/search` or `firms/search`) when it starts, from the
   * usage operation; null or omitted = unlimited or unknown. The job sizes its windows to fit and
   * pauses (resumable) when the next request cannot fit, rather than being refused.
   */
  downloadsLeft?: number | null;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

interface FrontierItem {
  window: SliceWindow;
  total: number | null;
}

interface ShipmentState {
  kind: 'shipments';
  rootTotal: number | null;
  frontier: FrontierItem[];
  covered: CoveredWindow[];
  requests: number;
  downloads: number;
  stored: number;
  duplicates: number;
  /** Records of windows done (for progress), which counts duplicates across overlapping facets too. */
  coveredRecords: number;
  elapsedMs: number;
  gaps: string[];
}

interface FirmState {
  kind: 'firms';
  totalPages: number | null;
  totalShipment: number | null;
  nextPage: number;
  requests: number;
  downloads: number;
  stored: number;
  elapsedMs: number;
}

type JobState = ShipmentState | FirmState;

interface JobRow {
  id: string;
  kind: JobKind;
  label: string;
  status: JobStatus;
  datasetId: string;
  input: JobInput;
  state: JobState;
}

function isAbort(e: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const err = e as { name?: unknown; kind?: unknown };
  return err?.name === 'AbortError' || err?.kind === 'Cancelled';
}

function limitInfo(e: unknown): { retryAfterSeconds: number | undefined } | null {
  const err = e as { kind?: unknown; retryAfterSeconds?: unknown };
  if (err?.kind !== 'LimitExceeded') return null;
  return { retryAfterSeconds: typeof err.retryAfterSeconds === 'number' ? err.retryAfterSeconds : undefined };
}

/** Thrown at a step boundary once `RunOptions.pause` has fired. */
class PauseRequested extends Error {
  constructor() {
    super('Paused.');
    this.name = 'PauseRequested';
  }
}

/** Thrown before a request that the downloads left cannot pay for: the service would refuse it whole. */
class OutOfDownloads extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutOfDownloads';
  }
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function messageOf(e: unknown): string {
  // A full disk (the library could not take the step's rows) in the analyst's words, not DuckDB's.
  return storageError(e)?.message ?? (e instanceof Error ? e.message : String(e));
}

/**
 * Runs long fetches in the main process: all pages of a firm search, and shipment searches beyond
 * the 10,000-record cap by slicing. Every step commits its rows together with the job's state in one
 * transaction, so a crash loses at most the step in flight and `resume` continues with only what is
 * missing. The dataset stays `pending` (invisible) until the final transaction flips it.
 */
export class JobRunner {
  private readonly library: Library;
  private readonly cap: number;
  private readonly probeSize: number;
  private readonly fill: number;
  private readonly limiter: RateLimiter;
  private readonly max429: number;
  private readonly maxWaitSeconds: number;
  private readonly downloadsLeft: number | null;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(opts: JobRunnerOptions) {
    this.library = opts.library;
    this.cap = opts.cap ?? SHIPMENT_SEARCH_MAX_SIZE;
    this.probeSize = opts.probeSize ?? SHIPMENT_SEARCH_MIN_SIZE;
    this.fill = opts.fill ?? DEFAULT_SLICE_FILL;
    this.limiter = opts.limiter ?? RateLimiter.unlimited();
    this.max429 = opts.max429Retries ?? 5;
    this.maxWaitSeconds = opts.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS;
    const left = opts.downloadsLeft;
    this.downloadsLeft =
      left === null || left === undefined || !Number.isFinite(left) ? null : Math.max(0, left);
    this.sleep = opts.sleep ?? realSleep;
  }

  // ---- starting, listing, discarding ----

  async startShipments(
    input: ShipmentJobInput,
    source: ShipmentSource,
    run: RunOptions = {},
  ): Promise<JobOutcome> {
    const filter = stripPaging(input.filter);
    const state: ShipmentState = {
      kind: 'shipments',
      rootTotal: null,
      frontier: [{ window: rootWindow(filter), total: null }],
      covered: [],
      requests: 0,
      downloads: 0,
      stored: 0,
      duplicates: 0,
      coveredRecords: 0,
      elapsedMs: 0,
      gaps: [],
    };
    const job = await this.createJob('shipments', { ...input, filter }, state);
    run.onStarted?.(job.id);
    if (input.probe) {
      // The estimate's probe of the unsliced filter counts as this job's first request.
      const root = rootWindow(filter);
      state.requests = 1;
      state.downloads = input.probe.shipments.length;
      state.rootTotal = input.probe.total;
      if (input.probe.shipments.length >= input.probe.total) {
        state.frontier = [];
        await this.commitShipmentStep(job, state, [
          { window: root, total: input.probe.total, records: input.probe.shipments, complete: true },
        ]);
      } else {
        state.frontier = [{ window: root, total: input.probe.total }];
      }
    }
    return this.runShipments(job, source, run);
  }

  async startFirms(input: FirmJobInput, source: FirmSource, run: RunOptions = {}): Promise<JobOutcome> {
    const { firstPage, ...jobInput } = input;
    const filter = stripPaging(jobInput.filter);
    const state: FirmState = {
      kind: 'firms',
      totalPages: null,
      totalShipment: null,
      nextPage: 1,
      requests: 0,
      downloads: 0,
      stored: 0,
      elapsedMs: 0,
    };
    const job = await this.createJob('firms', { ...jobInput, filter }, state);
    run.onStarted?.(job.id);
    if (firstPage) {
      state.requests = 1;
      state.downloads = firstPage.firms.length;
      state.totalPages = firstPage.total_pages;
      state.totalShipment = firstPage.total_shipment;
      await this.library.db.transaction(async (conn) => {
        await appendRecords(conn, 'firms', job.datasetId, 0, firstPage.firms);
        state.stored = firstPage.firms.length;
        state.nextPage = 2;
        await this.saveState(conn, job, state);
      });
    }
    return this.runFirms(job, source, run);
  }

  /** Continues an interrupted or failed job; fetches only windows/pages not yet committed. */
  async resume(
    jobId: string,
    source: ShipmentSource & FirmSource,
    run: RunOptions = {},
  ): Promise<JobOutcome> {
    const job = await this.loadJob(jobId);
    if (!(RESUMABLE_JOB_STATES as readonly string[]).includes(job.status)) {
      throw new AppError('Conflict', `That job is ${job.status} and cannot be resumed.`);
    }
    await this.setStatus(job.id, 'running', null);
    run.onStarted?.(job.id);
    return job.state.kind === 'shipments'
      ? this.runShipments(job, source, run)
      : this.runFirms(job, source, run);
  }

  /** Jobs that did not finish (interrupted by a crash or quit, or stopped by an error). */
  async listResumable(): Promise<JobSummary[]> {
    const states = RESUMABLE_JOB_STATES.map((s) => `'${s}'`).join(', ');
    const rows = await this.library.db.all(
      `SELECT id, kind, label, status, input_json, state_json, error, created_at, updated_at FROM jobs
        WHERE status IN (${states}) ORDER BY created_at`,
    );
    return rows.map((r) => {
      const state = JSON.parse(String(r.state_json)) as JobState;
      const input = JSON.parse(String(r.input_json)) as JobInput;
      return {
        id: String(r.id),
        kind: r.kind === 'firms' ? 'firms' : 'shipments',
        label: String(r.label),
        // 'running' in the file means the app stopped under it (crash or quit).
        status: (r.status === 'running' ? 'interrupted' : r.status) as JobStatus,
        createdAt: String(r.created_at),
        updatedAt: String(r.updated_at),
        error: r.error === null || r.error === undefined ? null : String(r.error),
        profileId: input.profileId ?? null,
        done: state.kind === 'shipments' ? state.coveredRecords : state.nextPage - 1,
        total: state.kind === 'shipments' ? state.rootTotal : state.totalPages,
        stored: state.stored,
      };
    });
  }

  /** Gives up a resumable job: its pending rows go, in one transaction. */
  async discard(jobId: string): Promise<void> {
    const job = await this.loadJob(jobId);
    await this.library.db.transaction(async (conn) => {
      await deleteDatasetIn(conn, job.datasetId);
      await conn.run(`UPDATE jobs SET status = 'cancelled', updated_at = $2 WHERE id = $1`, [
        jobId,
        new Date().toISOString(),
      ]);
    });
  }

  // ---- persistence ----

  private async createJob(kind: JobKind, input: JobInput, state: JobState): Promise<JobRow> {
    const id = randomUUID();
    const label = input.name?.trim() || defaultDatasetName(kind, input.filter as Record<string, unknown>);
    const now = new Date().toISOString();
    const datasetId = await this.library.db.transaction(async (conn) => {
      const datasetId = await this.library.insertDataset(
        conn,
        {
          kind,
          request: input.filter as Record<string, unknown>,
          name: label,
          profileId: input.profileId ?? null,
          profileName: input.profileName ?? null,
          account: input.account ?? null,
          jobId: id,
        },
        'pending',
      );
      await conn.run(
        `INSERT INTO jobs (id, kind, label, status, dataset_id, input_json, state_json, error, created_at, updated_at)
         VALUES ($1, $2, $3, 'running', $4, $5, $6, NULL, $7, $7)`,
        [id, kind, label, datasetId, JSON.stringify(input), JSON.stringify(state), now],
      );
      return datasetId;
    });
    return { id, kind, label, status: 'running', datasetId, input, state };
  }

  private async loadJob(jobId: string): Promise<JobRow> {
    const r = await this.library.db.one(
      `SELECT id, kind, label, status, dataset_id, input_json, state_json FROM jobs WHERE id = $1`,
      [jobId],
    );
    if (!r) throw new AppError('NotFound', 'That job is not known.');
    return {
      id: String(r.id),
      kind: r.kind === 'firms' ? 'firms' : 'shipments',
      label: String(r.label),
      status: String(r.status) as JobStatus,
      datasetId: String(r.dataset_id),
      input: JSON.parse(String(r.input_json)) as JobInput,
      state: JSON.parse(String(r.state_json)) as JobState,
    };
  }

  private async saveState(conn: DuckDBConnection, job: JobRow, state: JobState): Promise<void> {
    await conn.run(`UPDATE jobs SET state_json = $2, updated_at = $3 WHERE id = $1`, [
      job.id,
      JSON.stringify(state),
      new Date().toISOString(),
    ]);
  }

  private async setStatus(jobId: string, status: JobStatus, error: string | null): Promise<void> {
    await this.library.db.transaction((conn) =>
      conn.run(`UPDATE jobs SET status = $2, error = $3, updated_at = $4 WHERE id = $1`, [
        jobId,
        status,
        error,
        new Date().toISOString(),
      ]),
    );
  }

  // ---- one request, within the limits ----

  /**
   * `waitSignal` ends waits (cancel or pause); the request itself only stops on cancel, so a pause
   * never throws away an answer the service has already charged for.
   */
  private async call<T>(
    fn: () => Promise<T>,
    waitSignal: AbortSignal | undefined,
    onWait: (ms: number) => void,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.limiter.acquire(waitSignal, onWait);
      try {
        return await fn();
      } catch (e) {
        const limit = limitInfo(e);
        // A 429 with a short wait: wait and try again. Without one (a download quota is used up) or with
        // a long one (the daily window) waiting here will not help; the job pauses and stays resumable.
        if (
          !limit ||
          limit.retryAfterSeconds === undefined ||
          limit.retryAfterSeconds > this.maxWaitSeconds ||
          attempt >= this.max429
        ) {
          throw e;
        }
        onWait(limit.retryAfterSeconds * 1000);
        await this.sleep(limit.retryAfterSeconds * 1000, waitSignal);
      }
    }
  }

  /** Downloads this run may still spend (Infinity when unlimited or unknown). */
  private budget(downloadsAtStart: number, downloadsNow: number): number {
    return this.downloadsLeft === null
      ? Number.POSITIVE_INFINITY
      : this.downloadsLeft - (downloadsNow - downloadsAtStart);
  }

  private outOfDownloads(job: JobRow, metric: string, left: number, needs: number): OutOfDownloads {
    const account = job.input.account ? ` for account ${job.input.account}` : '';
    return new OutOfDownloads(
      `${metric} limit reached${account}: ${fmt(Math.max(0, left))} downloads are left and the next request needs about ${fmt(needs)}.`,
    );
  }

  // ---- shipments ----

  private async runShipments(job: JobRow, source: ShipmentSource, run: RunOptions): Promise<JobOutcome> {
    const state = job.state as ShipmentState;
    const filter = job.input.filter;
    const startedAt = Date.now() - state.elapsedMs;
    const seen = await this.loadHashIds(job.datasetId);
    const { signal, pause } = run;
    const waitSignal = eitherSignal(signal, pause);
    const downloadsAtStart = state.downloads;
    const budget = (): number => this.budget(downloadsAtStart, state.downloads);

    const progress = (waitMs?: number): void => {
      state.elapsedMs = Date.now() - startedAt;
      const done = Math.min(state.coveredRecords, state.rootTotal ?? state.coveredRecords);
      const left = state.rootTotal === null ? null : Math.max(0, state.rootTotal - done);
      run.onProgress?.({
        jobId: job.id,
        label: job.label,
        done,
        total: state.rootTotal,
        unit: 'records',
        etaSeconds: etaSeconds(state.elapsedMs, done, left, waitMs),
        windowsDone: state.covered.length,
        windowsKnown: state.covered.length + state.frontier.length,
        recordsStored: state.stored,
        requestsUsed: state.requests,
        downloadsUsed: state.downloads,
        ...waiting(waitMs),
      });
    };

    /** `cost`: what the request will be charged when known (the sum of the windows it fetches). */
    const search = async (w: SliceWindow, size: number, cost = size): Promise<ShipmentSearchResponse> => {
      // The service refuses a search that would pass the download limit whole (and charges nothing),
      // so one that cannot fit is not sent: the job pauses with what it has.
      if (cost > budget()) throw this.outOfDownloads(job, 'shipments/search', budget(), cost);
      const res = await this.call(
        () => source.shipmentSearch({ ...applyWindow(filter, w), size }, signal ? { signal } : {}),
        waitSignal,
        (ms) => progress(ms),
      );
      state.requests++;
      state.downloads += res.shipments.length;
      return res;
    };

    const ctx = { seen, job, state };
    const today = new Date().toISOString().slice(0, 10);
    // What each slice aims at when `left` records remain to be sliced: the fewest slices that keep each
    // under `fill` of the cap, evened out, so the sweep does not end with a small leftover slice.
    const aim = (left: number): number => left / Math.ceil(left / (this.cap * this.fill));
    /** Records in the run of adjoining known parts that starts at frontier[index]. */
    const runTotal = (index: number): number => {
      const f = state.frontier;
      let sum = f[index]!.total ?? 0;
      for (
        let i = index + 1;
        i < f.length && f[i]!.total !== null && adjoins(f[i - 1]!.window, f[i]!.window);
        i++
      )
        sum += f[i]!.total!;
      return sum;
    };
    // The part probed last: its density sizes the slice after it (the sweep runs forward in time).
    // Kept in memory only; after a resume the first slice assumes an even spread instead.
    let lastPart: FrontierItem | null = null;
    const densityBefore = (w: SliceWindow): number | null =>
      lastPart && lastPart.total !== null && lastPart.total > 0 && adjoins(lastPart.window, w)
        ? lastPart.total / dayCount(lastPart.window)
        : null;

    const probeAt = async (index: number): Promise<void> => {
      const item = state.frontier[index]!;
      const probe = await search(item.window, this.probeSize);
      if (state.rootTotal === null) state.rootTotal = probe.total;
      const next = state.frontier[index + 1];
      if (
        index === 0 &&
        probe.shipments.length >= probe.total &&
        !(next && adjoins(item.window, next.window))
      ) {
        // A probe that returned its whole window and has nothing to join: done.
        state.frontier.shift();
        await this.commitShipmentStep(
          job,
          state,
          [{ window: item.window, total: probe.total, records: probe.shipments, complete: true }],
          ctx.seen,
        );
      } else {
        // Otherwise its records are fetched again with its neighbours (at most `probeSize` downloads).
        item.total = probe.total;
        lastPart = item;
        await this.commitShipmentStep(job, state, [], ctx.seen);
      }
    };

    /**
     * Probes a prefix of a window over the room left, sized to hold about `want` records, and
     * replaces the window by the prefix and the rest. Day slices are disjoint, so the rest holds what
     * the prefix leaves of the whole: one probe per cut, the fewest a date sweep can spend.
     */
    const carve = async (index: number, want: number): Promise<void> => {
      const item = state.frontier[index]!;
      const w = item.window;
      const total = item.total!;
      const even = evenRate(w, total, today);
      // The density just before the cut predicts the next days better than the window's average when data
      // trends (a window that overshot is its own last probe, so it is cut by its own average); far below
      // the average it more likely marks where the data starts, so the average wins.
      const local = densityBefore(w);
      const rate = local !== null && local >= even * LOCAL_RATE_FLOOR ? local : even;
      const end = prefixEnd(w, total, want, today, rate)!;
      const prefix: SliceWindow = { ...w, end };
      const rest: SliceWindow = { ...w, start: isoDay(dayNumber(end) + 1) };
      const probe = await search(prefix, this.probeSize);
      // A prefix larger than the whole means the data changed since: the rest must be probed.
      lastPart = { window: prefix, total: probe.total };
      state.frontier.splice(index, 1, lastPart, {
        window: rest,
        total: probe.total <= total ? total - probe.total : null,
      });
      await this.commitShipmentStep(job, state, [], ctx.seen);
    };

    /**
     * Fetches the first `n` frontier parts, which adjoin and hold `sum` ≤ cap records together, in one
     * request over their joined days with size = the exact sum: known parts are never fetched blindly,
     * and empty or small parts cost no request of their own.
     */
    const fetchRun = async (n: number, sum: number): Promise<void> => {
      const items = state.frontier.slice(0, n);
      const joined = joinWindows(items[0]!.window, items[n - 1]!.window);
      if (sum === 0) {
        // Every part was probed or derived empty: nothing to download.
        state.frontier.splice(0, n);
        await this.commitShipmentStep(
          job,
          state,
          [{ window: joined, total: 0, records: [], complete: true }],
          ctx.seen,
        );
        return;
      }
      const res = await search(joined, Math.max(this.probeSize, sum), sum);
      if (res.shipments.length >= res.total) {
        state.frontier.splice(0, n);
        await this.commitShipmentStep(
          job,
          state,
          [{ window: joined, total: res.total, records: res.shipments, complete: true }],
          ctx.seen,
        );
      } else {
        // The run grew since it was probed: it becomes one window with its new total and goes round again.
        state.frontier.splice(0, n, { window: joined, total: res.total });
        await this.commitShipmentStep(job, state, [], ctx.seen);
      }
    };

    try {
      progress();
      while (state.frontier.length > 0) {
        if (signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
        if (pause?.aborted) throw new PauseRequested();
        const frontier = state.frontier;
        const head = frontier[0]!;
        // What one request may hold: the cap, or less when fewer downloads are left.
        const room = Math.min(this.cap, budget());
        // Cut to the downloads left, a prefix leaves room for the probe that cuts it.
        const budgetSlice = budget() - this.probeSize;
        if (head.total === null) {
          await probeAt(0);
        } else if (head.total > room && room < this.cap) {
          // Short of downloads: fetch what is left of them as a date prefix of the head, then pause.
          if (dayCount(head.window) > 1 && budgetSlice >= MIN_BUDGET_SLICE)
            await carve(0, Math.min(budgetSlice * ROOM_SAFETY, aim(runTotal(0))));
          else throw this.outOfDownloads(job, 'shipments/search', budget(), Math.min(head.total, this.cap));
        } else if (head.total > this.cap) {
          if (dayCount(head.window) > 1) await carve(0, Math.min(head.total, aim(runTotal(0))));
          else await this.splitStep(head, filter, search, ctx);
        } else {
          // The longest run of adjoining known parts from the head that fits in one request.
          let n = 1;
          let sum = head.total;
          for (; n < frontier.length; n++) {
            const it = frontier[n]!;
            if (it.total === null || sum + it.total > room || !adjoins(frontier[n - 1]!.window, it.window))
              break;
            sum += it.total;
          }
          const next = frontier[n];
          // Room worth a probe: filling it saves about its share of a window (a probe and a fetch), so
          // a small remainder of room is cheaper left empty.
          const adjoining = next !== undefined && adjoins(frontier[n - 1]!.window, next.window);
          // Aimed short of the room: a part that overshoots it cannot join, and leaves the run as underfilled
          // as it was. With few downloads left, the room is what they pay for after the probe.
          const want = Math.min(
            adjoining && next.total !== null ? aim(runTotal(0)) - sum : this.cap * this.fill - sum,
            (this.cap - sum) * ROOM_SAFETY,
            (budgetSlice - sum) * ROOM_SAFETY,
          );
          const fill = adjoining && want >= this.cap * MIN_ROOM_TO_FILL;
          if (fill && next.total === null) await probeAt(n);
          else if (fill && next.total! > this.cap && dayCount(next.window) > 1) await carve(n, want);
          else await fetchRun(n, sum);
        }
        progress();
      }
      const partial = state.covered.some((c) => !c.complete) || state.gaps.length > 0;
      await this.library.db.transaction(async (conn) => {
        await this.library.finishDataset(conn, job.datasetId, {
          status: partial ? 'partial' : 'complete',
          storedRows: state.stored,
          reportedTotal: state.rootTotal,
          windows: state.covered,
        });
        await conn.run(`UPDATE datasets SET reported_json = $2 WHERE id = $1`, [
          job.datasetId,
          JSON.stringify({
            total: state.rootTotal,
            requests: state.requests,
            downloads: state.downloads,
            gaps: state.gaps,
          }),
        ]);
        await this.saveState(conn, job, state);
        await conn.run(`UPDATE jobs SET status = 'succeeded' WHERE id = $1`, [job.id]);
      });
      return {
        jobId: job.id,
        status: 'succeeded',
        datasetId: job.datasetId,
        stats: this.shipmentStats(state),
        message: partial ? 'Fetched, but some windows could not be fetched whole.' : 'Fetched.',
      };
    } catch (e) {
      return this.stopped(job, e, run, this.shipmentStats(state));
    }
  }

  /** Splits a single day over the cap by HS code or country (date windows are carved by the sweep). */
  private async splitStep(
    item: FrontierItem,
    filter: ShipmentFilter,
    search: (w: SliceWindow, size: number) => Promise<ShipmentSearchResponse>,
    ctx: { seen: Set<string>; job: JobRow; state: ShipmentState },
  ): Promise<void> {
    const { state, job } = ctx;
    const parentTotal = item.total!;
    const w = item.window;
    const done: {
      window: SliceWindow;
      total: number;
      records: readonly RecordObject[];
      complete: boolean;
    }[] = [];
    const next: FrontierItem[] = [];
    const parts = splitByFacet(filter, w);
    if (parts === null) {
      // Nothing left to split by: take what one call returns and say the window is not whole.
      const res = await search(w, this.cap);
      done.push({ window: w, total: res.total, records: res.shipments, complete: false });
    } else {
      let sum = 0;
      for (const part of parts) {
        const probe = await search(part, this.probeSize);
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
    await this.commitShipmentStep(job, state, done, ctx.seen);
  }

  /** Stores the records of finished windows (deduplicated by hashId) and the job state, atomically. */
  private async commitShipmentStep(
    job: JobRow,
    state: ShipmentState,
    windows: { window: SliceWindow; total: number; records: readonly RecordObject[]; complete: boolean }[],
    seen?: Set<string>,
  ): Promise<void> {
    const ids = seen ?? (await this.loadHashIds(job.datasetId));
    const added = new Set<string>();
    await this.library.db.transaction(async (conn) => {
      for (const w of windows) {
        const fresh: RecordObject[] = [];
        for (const r of w.records) {
          const h = typeof r.hashId === 'string' ? r.hashId : '';
          if (h && (ids.has(h) || added.has(h))) {
            state.duplicates++;
            continue;
          }
          if (h) added.add(h);
          fresh.push(r);
        }
        await appendRecords(conn, 'shipments', job.datasetId, state.stored, fresh);
        state.stored += fresh.length;
        state.coveredRecords += w.total;
        const covered: CoveredWindow = {
          filter: windowFilter(w.window),
          total: w.total,
          complete: w.complete,
        };
        state.covered.push(covered);
        await conn.run(`INSERT INTO job_windows VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
          job.id,
          windowKey(w.window),
          JSON.stringify(covered.filter),
          w.total,
          fresh.length,
          w.complete,
          new Date().toISOString(),
        ]);
      }
      await this.saveState(conn, job, state);
    });
    // Only after the commit: a rolled-back step must not hide its records from the retry. (A failed
    // step also fails the job, whose state is then reloaded from the file on resume.)
    for (const h of added) ids.add(h);
  }

  private async loadHashIds(datasetId: string): Promise<Set<string>> {
    const rows = await this.library.db.all(
      `SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1 AND "hashId" IS NOT NULL`,
      [datasetId],
    );
    return new Set(rows.map((r) => String(r.h)));
  }

  private shipmentStats(state: ShipmentState): JobStats {
    return {
      requests: state.requests,
      downloads: state.downloads,
      optimumRequests: state.rootTotal === null ? null : Math.max(1, Math.ceil(state.rootTotal / this.cap)),
      total: state.rootTotal,
      stored: state.stored,
      duplicates: state.duplicates,
    };
  }

  // ---- firms ----

  private async runFirms(job: JobRow, source: FirmSource, run: RunOptions): Promise<JobOutcome> {
    const state = job.state as FirmState;
    const filter = job.input.filter;
    const startedAt = Date.now() - state.elapsedMs;
    const { signal, pause } = run;
    const waitSignal = eitherSignal(signal, pause);
    const downloadsAtStart = state.downloads;
    const progress = (waitMs?: number): void => {
      state.elapsedMs = Date.now() - startedAt;
      const done = state.nextPage - 1;
      const left = state.totalPages === null ? null : Math.max(0, state.totalPages - done);
      run.onProgress?.({
        jobId: job.id,
        label: job.label,
        done,
        total: state.totalPages,
        unit: 'pages',
        etaSeconds: etaSeconds(state.elapsedMs, done, left, waitMs),
        windowsDone: done,
        windowsKnown: state.totalPages ?? done,
        recordsStored: state.stored,
        requestsUsed: state.requests,
        downloadsUsed: state.downloads,
        ...waiting(waitMs),
      });
    };
    const stats = (): JobStats => ({
      requests: state.requests,
      downloads: state.downloads,
      optimumRequests: state.totalPages,
      total: state.totalPages,
      stored: state.stored,
      duplicates: 0,
    });
    try {
      progress();
      while (state.totalPages === null || state.nextPage <= state.totalPages) {
        if (signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
        if (pause?.aborted) throw new PauseRequested();
        const page = state.nextPage;
        // A page costs about as many firms as the pages before it held (the spec does not say how many);
        // the last page may hold fewer, so it is always tried.
        const perPage = page > 1 ? Math.ceil(state.stored / (page - 1)) : 0;
        const left = this.budget(downloadsAtStart, state.downloads);
        if (perPage > left && page !== state.totalPages)
          throw this.outOfDownloads(job, 'firms/search', left, perPage);
        const res: FirmSearchResponse = await this.call(
          () => source.firmSearch({ ...filter, page }, signal ? { signal } : {}),
          waitSignal,
          (ms) => progress(ms),
        );
        state.requests++;
        state.downloads += res.firms.length;
        state.totalPages = res.total_pages;
        state.totalShipment = res.total_shipment;
        await this.library.db.transaction(async (conn) => {
          await appendRecords(conn, 'firms', job.datasetId, state.stored, res.firms);
          state.stored += res.firms.length;
          state.nextPage = page + 1;
          await this.saveState(conn, job, state);
        });
        progress();
        if (res.firms.length === 0) break;
      }
      await this.library.db.transaction(async (conn) => {
        await this.library.finishDataset(conn, job.datasetId, {
          status: 'complete',
          storedRows: state.stored,
        });
        await conn.run(`UPDATE datasets SET reported_json = $2 WHERE id = $1`, [
          job.datasetId,
          JSON.stringify({ total_pages: state.totalPages, total_shipment: state.totalShipment }),
        ]);
        await this.saveState(conn, job, state);
        await conn.run(`UPDATE jobs SET status = 'succeeded' WHERE id = $1`, [job.id]);
      });
      return {
        jobId: job.id,
        status: 'succeeded',
        datasetId: job.datasetId,
        stats: stats(),
        message: 'Fetched.',
      };
    } catch (e) {
      return this.stopped(job, e, run, stats());
    }
  }

  // ---- ending badly ----

  /**
   * Cancel (`signal`): the pending dataset and its rows go in one transaction, so no half dataset is ever
   * left; the caller asks the user first, since those downloads were paid for. Pause, or a used-up limit:
   * the job keeps its committed windows as pending data (invisible in the library) and is `paused`.
   * Any other failure: the same, but `failed`. Both are listed as resumable.
   */
  private async stopped(job: JobRow, e: unknown, run: RunOptions, stats: JobStats): Promise<JobOutcome> {
    // Only the cancel signal throws data away: any other abort (a pause ending a wait) keeps it.
    if (run.signal?.aborted) {
      await this.library.db.transaction(async (conn) => {
        await deleteDatasetIn(conn, job.datasetId);
        await conn.run(`UPDATE jobs SET status = 'cancelled', updated_at = $2 WHERE id = $1`, [
          job.id,
          new Date().toISOString(),
        ]);
      });
      return {
        jobId: job.id,
        status: 'cancelled',
        datasetId: null,
        stats,
        message: `Cancelled; ${fmt(stats.stored)} downloaded records were discarded.`,
      };
    }
    const kept = `${fmt(stats.stored)} ${job.kind === 'firms' ? 'firms' : 'records'} kept`;
    if (e instanceof PauseRequested || isAbort(e, run.pause)) {
      await this.setStatus(job.id, 'paused', null).catch(() => undefined);
      return {
        jobId: job.id,
        status: 'paused',
        datasetId: null,
        stats,
        message: `Paused; ${kept}. Resume to fetch the rest.`,
      };
    }
    if (e instanceof OutOfDownloads || limitInfo(e)) {
      const message = `${withAccount(messageOf(e), e, job.input.account)} Paused with ${kept}; resume when the limit allows.`;
      await this.setStatus(job.id, 'paused', message.slice(0, 1000)).catch(() => undefined);
      return { jobId: job.id, status: 'paused', datasetId: null, stats, message };
    }
    const message = messageOf(e);
    await this.setStatus(job.id, 'failed', message.slice(0, 1000)).catch(() => undefined);
    return {
      jobId: job.id,
      status: 'failed',
      datasetId: null,
      stats,
      message: `${message} The job can be resumed.`,
    };
  }
}

/**
 * Names the job's account in a service refusal that could not (the request had no `account_name`, so
 * the service charged the caller's first account, which the job knows from its profile).
 */
function withAccount(message: string, e: unknown, account: string | null | undefined): string {
  const metric = (e as { metric?: unknown }).metric;
  if (!account || typeof metric !== 'string') return message;
  const bare = `${metric} limit reached (429)`;
  return message.startsWith(bare)
    ? `${metric} limit reached for account ${account} (429)${message.slice(bare.length)}`
    : message;
}

/** One signal that fires when either does (waits end on cancel and on pause). */
function eitherSignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (!a) return b;
  if (!b) return a;
  return AbortSignal.any([a, b]);
}

/** Time left: the pace so far over what is left, plus a wait under way (it delays everything after it). */
function etaSeconds(
  elapsedMs: number,
  done: number,
  left: number | null,
  waitMs: number | undefined,
): number | null {
  if (left === null || done === 0) return null;
  return Math.round(((elapsedMs / done) * left + (waitMs ?? 0)) / 1000);
}

function waiting(waitMs: number | undefined): { waitingSeconds?: number; waitingUntil?: number } {
  if (waitMs === undefined) return {};
  return { waitingSeconds: Math.ceil(waitMs / 1000), waitingUntil: Date.now() + waitMs };
}

function stripPaging(filter: ShipmentFilter & { size?: unknown; page?: unknown }): ShipmentFilter {
  const { size: _size, page: _page, ...rest } = filter;
  return rest;
}

/** Records a job has committed so far (for tests and diagnostics). */
export async function committedRows(library: Library, jobId: string): Promise<number> {
  const r = await library.db.one(
    `SELECT count(*) AS n FROM shipment_rows WHERE dataset_id = (SELECT dataset_id FROM jobs WHERE id = $1)`,
    [jobId],
  );
  return toNumber(r?.n);
}
