import { randomUUID } from 'node:crypto';
import { AppError } from '@shared/ipc/errors';
import { SHIPMENT_SEARCH_MAX_SIZE, SHIPMENT_SEARCH_MIN_SIZE, type ShipmentFilter } from '@shared/spec/filter';
import { filterCheckedList } from '@shared/spec/records';
import type { FirmSearchResponse } from '@shared/spec/responses';
import { metricLabel } from '@shared/spec/usage';
import {
  RESUMABLE_JOB_STATES,
  defaultDatasetName,
  storageError,
  libraryNotWritableError,
  type Library,
  type RecordObject,
} from '../library';
import { runFirmPager } from './firm-pager';
import {
  knownTotal,
  toJobRow,
  type FirmState,
  type JobInput,
  type JobRow,
  type JobState,
  type ShipmentState,
} from './job-state';
import {
  limitInfo,
  OutOfDownloads,
  RequestPolicy,
  ServiceDidNotAnswer,
  type RequestPolicyOptions,
  type RequestWait,
} from './request-policy';
import { eitherSignal, runShipmentSweep, type DoneWindow } from './shipment-sweep';
import type {
  FirmSource,
  JobKind,
  JobOutcome,
  JobProgressInfo,
  JobStats,
  RunOptions,
  ShipmentSource,
} from './types';
import { DEFAULT_SLICE_FILL, rootWindow, windowFilter, windowKey } from './windows';

export type { JobInput } from './job-state';

export interface ShipmentJobInput extends JobInput {
  /** A size-10 probe already made (by `estimate`) of the whole filter: saves a request. */
  probe?: { total: number; shipments: readonly RecordObject[] };
}

export interface FirmJobInput extends JobInput {
  /** Page 1 of the same filter, already fetched (and paid for) by `estimate`: not fetched again. */
  firstPage?: FirmSearchResponse;
}

export interface JobRunnerOptions extends RequestPolicyOptions {
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
}

/** Thrown at a step boundary once `RunOptions.pause` has fired. */
class PauseRequested extends Error {
  constructor() {
    super('Paused.');
    this.name = 'PauseRequested';
  }
}

function isAbort(e: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const err = e as { name?: unknown; kind?: unknown };
  return err?.name === 'AbortError' || err?.kind === 'Cancelled';
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function messageOf(e: unknown): string {
  // A full disk (the library could not take the step's rows) in the analyst's words, not DuckDB's.
  return (
    (storageError(e) ?? libraryNotWritableError(e))?.message ?? (e instanceof Error ? e.message : String(e))
  );
}

/**
 * Runs long fetches in the main process: all pages of a firm search (`firm-pager`), and shipment
 * searches beyond the 10,000-record cap by slicing (`shipment-sweep`, deciding with `planner`), each
 * request within the `RequestPolicy`. Every step stores its rows together with the job's state in one
 * unit of work of the library, so a crash loses at most the step in flight and `resume` continues with
 * only what is missing. The dataset stays `pending` (invisible) until the final unit flips it.
 */
export class JobRunner {
  private readonly library: Library;
  private readonly cap: number;
  private readonly probeSize: number;
  private readonly fill: number;
  private readonly policy: RequestPolicy;

  constructor(opts: JobRunnerOptions) {
    this.library = opts.library;
    this.cap = opts.cap ?? SHIPMENT_SEARCH_MAX_SIZE;
    this.probeSize = opts.probeSize ?? SHIPMENT_SEARCH_MIN_SIZE;
    this.fill = opts.fill ?? DEFAULT_SLICE_FILL;
    this.policy = new RequestPolicy(opts);
  }

  // ---- starting and resuming ----

  async startShipments(
    input: ShipmentJobInput,
    source: ShipmentSource,
    run: RunOptions = {},
  ): Promise<JobOutcome> {
    const { probe, ...jobInput } = input;
    const filter = stripPaging(jobInput.filter);
    const state: ShipmentState = {
      kind: 'shipments',
      rootTotal: null,
      ...(input.plannedTotal !== undefined ? { plannedTotal: input.plannedTotal } : {}),
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
    const job = await this.createJob('shipments', { ...jobInput, filter }, state);
    run.onStarted?.(job.id);
    if (probe) {
      // The estimate's probe of the unsliced filter counts as this job's first request.
      state.requests = 1;
      state.downloads = probe.shipments.length;
      state.rootTotal = probe.total;
    }
    // What is known at once (the probe's or the plan's size) is said before the first request goes out.
    run.onProgress?.(progressOf(job, state));
    if (probe) {
      const root = rootWindow(filter);
      if (probe.shipments.length >= probe.total) {
        state.frontier = [];
        await this.commitShipmentStep(
          job,
          state,
          [{ window: root, total: probe.total, records: probe.shipments, complete: true }],
          new Set(),
        );
      } else {
        state.frontier = [{ window: root, total: probe.total }];
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
      ...(input.plannedTotal !== undefined ? { plannedTotal: input.plannedTotal } : {}),
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
    }
    // What is known at once (the first page's or the plan's page count) is said before the next request.
    run.onProgress?.(progressOf(job, state));
    if (firstPage) await this.commitFirmPage(job, state, firstPage.firms);
    return this.runFirms(job, source, run);
  }

  /** Continues an interrupted, paused or failed job; fetches only windows/pages not yet stored. */
  async resume(
    jobId: string,
    source: ShipmentSource & FirmSource,
    run: RunOptions = {},
  ): Promise<JobOutcome> {
    const job = toJobRow(await this.library.jobs.get(jobId));
    if (!(RESUMABLE_JOB_STATES as readonly string[]).includes(job.status)) {
      throw new AppError('Conflict', `That job is ${job.status} and cannot be resumed.`);
    }
    await this.library.write((tx) => tx.jobs.setStatus(job.id, 'running', null));
    run.onStarted?.(job.id);
    // Where it stopped, said at once: the tray does not start a resumed job from nothing.
    run.onProgress?.(progressOf(job, job.state));
    return job.state.kind === 'shipments'
      ? this.runShipments(job, source, run)
      : this.runFirms(job, source, run);
  }

  // ---- storing ----

  private async createJob(kind: JobKind, input: JobInput, state: JobState): Promise<JobRow> {
    const id = randomUUID();
    const label = input.name?.trim() || defaultDatasetName(kind, input.filter as Record<string, unknown>);
    const datasetId = await this.library.write(async (tx) => {
      const datasetId = await tx.createDataset({
        kind,
        request: input.filter as Record<string, unknown>,
        name: label,
        profileId: input.profileId ?? null,
        profileName: input.profileName ?? null,
        account: input.account ?? null,
        jobId: id,
      });
      await tx.jobs.insert({ id, kind, label, datasetId, input, state });
      return datasetId;
    });
    return { id, kind, label, status: 'running', datasetId, input, state };
  }

  /** Stores the records of finished windows (deduplicated by hashId) and the job state, in one unit. */
  private async commitShipmentStep(
    job: JobRow,
    state: ShipmentState,
    windows: DoneWindow[],
    seen: Set<string>,
  ): Promise<void> {
    const added = new Set<string>();
    await this.library.write(async (tx) => {
      for (const w of windows) {
        // The records the job does not hold yet, still vouched for by the client's one check of the
        // response, so the library lays them out without checking them again.
        const fresh = filterCheckedList(w.records, (r) => {
          const h = typeof r.hashId === 'string' ? r.hashId : '';
          if (h && (seen.has(h) || added.has(h))) {
            state.duplicates++;
            return false;
          }
          if (h) added.add(h);
          return true;
        });
        await tx.appendRecords('shipments', job.datasetId, state.stored, fresh);
        state.stored += fresh.length;
        state.coveredRecords += w.total;
        const filter = windowFilter(w.window);
        state.covered.push({ filter, total: w.total, complete: w.complete });
        await tx.jobs.addWindow(job.id, {
          key: windowKey(w.window),
          filter,
          total: w.total,
          rowsAdded: fresh.length,
          complete: w.complete,
        });
      }
      await tx.jobs.saveState(job.id, state);
    });
    // Only after the commit: a rolled-back step must not hide its records from the retry. (A failed
    // step also fails the job, whose state is then reloaded from the file on resume.)
    for (const h of added) seen.add(h);
  }

  private async commitFirmPage(job: JobRow, state: FirmState, firms: readonly RecordObject[]): Promise<void> {
    await this.library.write(async (tx) => {
      await tx.appendRecords('firms', job.datasetId, state.stored, firms);
      state.stored += firms.length;
      state.nextPage += 1;
      await tx.jobs.saveState(job.id, state);
    });
  }

  /** The final unit: the dataset appears in the library, the job has succeeded. */
  private async finish(
    job: JobRow,
    state: JobState,
    dataset: {
      status: 'complete' | 'partial';
      reportedTotal?: number | null;
      reported: Record<string, unknown>;
    },
  ): Promise<void> {
    await this.library.write(async (tx) => {
      await tx.finishDataset(job.datasetId, {
        status: dataset.status,
        storedRows: state.stored,
        ...(dataset.reportedTotal !== undefined ? { reportedTotal: dataset.reportedTotal } : {}),
        ...(state.kind === 'shipments' ? { windows: state.covered } : {}),
      });
      await tx.setReported(job.datasetId, dataset.reported);
      await tx.jobs.saveState(job.id, state);
      await tx.jobs.setStatus(job.id, 'succeeded');
    });
  }

  // ---- running ----

  private checkStop(run: RunOptions): () => void {
    return () => {
      if (run.signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
      if (run.pause?.aborted) throw new PauseRequested();
    };
  }

  private async runShipments(job: JobRow, source: ShipmentSource, run: RunOptions): Promise<JobOutcome> {
    const state = job.state as ShipmentState;
    const fetching = fetchingTime(state.elapsedMs);
    const seen = await this.library.shipmentHashIds(job.datasetId);
    const progress = (wait?: RequestWait): void => {
      state.elapsedMs = fetching(wait);
      run.onProgress?.(progressOf(job, state, wait));
    };
    try {
      await runShipmentSweep(job, state, source, run, {
        cap: this.cap,
        probeSize: this.probeSize,
        fill: this.fill,
        policy: this.policy,
        commit: (windows) => this.commitShipmentStep(job, state, windows, seen),
        progress,
        checkStop: this.checkStop(run),
      });
      const partial = state.covered.some((c) => !c.complete) || state.gaps.length > 0;
      await this.finish(job, state, {
        status: partial ? 'partial' : 'complete',
        reportedTotal: state.rootTotal,
        reported: {
          total: state.rootTotal,
          requests: state.requests,
          downloads: state.downloads,
          gaps: state.gaps,
        },
      });
      return {
        jobId: job.id,
        status: 'succeeded',
        datasetId: job.datasetId,
        stats: this.shipmentStats(state),
        // How much arrived, in the tray and the toast: "Fetched." alone leaves the analyst to open the dataset to know.
        message: partial
          ? `Fetched ${fmt(state.stored)} records, but some date ranges could not be fetched whole.`
          : `Fetched ${fmt(state.stored)} records.`,
      };
    } catch (e) {
      return this.stopped(job, e, run, this.shipmentStats(state));
    }
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

  private async runFirms(job: JobRow, source: FirmSource, run: RunOptions): Promise<JobOutcome> {
    const state = job.state as FirmState;
    const fetching = fetchingTime(state.elapsedMs);
    const stats = (): JobStats => ({
      requests: state.requests,
      downloads: state.downloads,
      optimumRequests: state.totalPages,
      total: state.totalPages,
      stored: state.stored,
      duplicates: 0,
    });
    try {
      await runFirmPager(job, state, source, run, {
        policy: this.policy,
        commit: (firms) => this.commitFirmPage(job, state, firms),
        checkStop: this.checkStop(run),
        progress: (wait) => {
          state.elapsedMs = fetching(wait);
          run.onProgress?.(progressOf(job, state, wait));
        },
      });
      await this.finish(job, state, {
        status: 'complete',
        reported: { total_pages: state.totalPages, total_shipment: state.totalShipment },
      });
      return {
        jobId: job.id,
        status: 'succeeded',
        datasetId: job.datasetId,
        stats: stats(),
        message: `Fetched ${fmt(state.stored)} ${state.stored === 1 ? 'firm' : 'firms'}.`,
      };
    } catch (e) {
      return this.stopped(job, e, run, stats());
    }
  }

  // ---- ending badly ----

  /**
   * Cancel (`signal`): the pending dataset and its rows go in one unit, so no half dataset is ever left;
   * the caller asks the user first, since those downloads were paid for. Pause, or a used-up limit: the
   * job keeps its stored windows as pending data (invisible in the library) and is `paused`. Any other
   * failure: the same, but `failed`. Both are listed as resumable.
   */
  private async stopped(job: JobRow, e: unknown, run: RunOptions, stats: JobStats): Promise<JobOutcome> {
    // Only the cancel signal throws data away: any other abort (a pause ending a wait) keeps it.
    if (run.signal?.aborted) {
      await discardJobData(this.library, job.id, job.datasetId);
      return {
        jobId: job.id,
        status: 'cancelled',
        datasetId: null,
        stats,
        message: `Cancelled; ${fmt(stats.stored)} downloaded records were discarded.`,
      };
    }
    const kept = `${fmt(stats.stored)} ${job.kind === 'firms' ? 'firms' : 'records'} kept`;
    const setStatus = (status: 'paused' | 'interrupted' | 'failed', error: string | null) =>
      this.library.write((tx) => tx.jobs.setStatus(job.id, status, error)).catch(() => undefined);
    if (e instanceof PauseRequested || isAbort(e, run.pause)) {
      await setStatus('paused', null);
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
      await setStatus('paused', message.slice(0, 1000));
      return { jobId: job.id, status: 'paused', datasetId: null, stats, message };
    }
    if (e instanceof ServiceDidNotAnswer) {
      // Stopped as a restart stops it: nothing is wrong with the job, the service was away too long.
      const message = `${e.message} ${kept}; resume it once the service answers again.`;
      await setStatus('interrupted', message.slice(0, 1000));
      return { jobId: job.id, status: 'interrupted', datasetId: null, stats, message };
    }
    const message = messageOf(e);
    await setStatus('failed', message.slice(0, 1000));
    return {
      jobId: job.id,
      status: 'failed',
      datasetId: null,
      stats,
      message: `${message} The job can be resumed.`,
    };
  }
}

/** Gives a job up: its pending rows go and it is cancelled, in one unit. */
export async function discardJobData(library: Library, jobId: string, datasetId: string): Promise<void> {
  await library.write(async (tx) => {
    await tx.deleteDataset(datasetId);
    await tx.jobs.setStatus(jobId, 'cancelled');
  });
}

/**
 * Names the job's account in a service refusal that could not (the request had no `account_name`, so
 * the service charged the caller's first account, which the job knows from its profile).
 */
function withAccount(message: string, e: unknown, account: string | null | undefined): string {
  const metric = (e as { metric?: unknown }).metric;
  if (!account || typeof metric !== 'string') return message;
  const bare = `${metricLabel(metric)} limit reached (429)`;
  return message.startsWith(bare)
    ? `${metricLabel(metric)} limit reached for account ${account} (429)${message.slice(bare.length)}`
    : message;
}

/**
 * Where a job stands, from its state: what it covered of its size (its own answers' total, else the
 * planned one), the windows or pages done and known, and what it spent.
 */
function progressOf(job: JobRow, state: JobState, wait?: RequestWait): JobProgressInfo {
  const total = knownTotal(state);
  const shipments = state.kind === 'shipments';
  const done = shipments ? Math.min(state.coveredRecords, total ?? state.coveredRecords) : state.nextPage - 1;
  const left = total === null ? null : Math.max(0, total - done);
  const waitMs = wait && 'rateLimitMs' in wait ? wait.rateLimitMs : undefined;
  return {
    jobId: job.id,
    label: job.label,
    done,
    total,
    unit: shipments ? 'records' : 'pages',
    etaSeconds: etaSeconds(state.elapsedMs, done, left, waitMs),
    windowsDone: shipments ? state.covered.length : done,
    windowsKnown: shipments ? state.covered.length + state.frontier.length : (state.totalPages ?? done),
    recordsStored: state.stored,
    requestsUsed: state.requests,
    downloadsUsed: state.downloads,
    ...waiting(waitMs),
    ...(wait && 'serviceSince' in wait ? { waitingForServiceSince: wait.serviceSince } : {}),
  };
}

/**
 * The time a run has spent fetching, from what an earlier run spent: its wall time less the waits for a
 * service that did not answer, told by each progress report's wait. The pace of the time left is the
 * fetching's alone: an outage of ten minutes would otherwise make every later window seem ten minutes
 * slower. A rate limit's wait stays in: it recurs as the job goes on, so it is part of the pace.
 */
function fetchingTime(spentBefore: number): (wait?: RequestWait) => number {
  const startedAt = Date.now();
  let waited = 0;
  let outageSince: number | null = null;
  let lastOutageEnd = 0;
  return (wait) => {
    const now = Date.now();
    if (wait && 'serviceSince' in wait) {
      // One request's outages share their first `serviceSince`: the part waited already is not counted twice.
      outageSince ??= Math.max(wait.serviceSince, lastOutageEnd);
    } else if (outageSince !== null) {
      waited += now - outageSince;
      outageSince = null;
      lastOutageEnd = now;
    }
    const waiting = outageSince === null ? 0 : now - outageSince;
    return spentBefore + Math.max(0, now - startedAt - waited - waiting);
  };
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

export { eitherSignal };
