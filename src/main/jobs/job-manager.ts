import { AppError } from '@shared/ipc/errors';
import type {
  FetchFinished,
  FetchProgress,
  JobEstimateView,
  JobView,
  JobsList,
} from '@shared/jobs/jobs-contract';
import type { DatasetKind } from '@shared/library/library-contract';
import type { ShipmentFilter } from '@shared/spec/filter';
import type { FirmSearchResponse } from '@shared/spec/responses';
import { remaining, type UsageSummary } from '@shared/spec/usage';
import { filterKey, type Library, type RecordObject } from '../library';
import type { Logger } from '../log';
import { checkQuota, estimateShipments, planShipmentFetch, type ShipmentEstimate } from './estimate';
import { summaryOf } from './job-state';
import { RateLimiter } from './rate-limiter';
import { JobRunner, discardJobData } from './runner';
import type {
  FirmSource,
  JobOutcome,
  JobProgressInfo,
  JobSummary,
  RunOptions,
  ShipmentSource,
  UsageSource,
} from './types';

/** Progress events per job per second, at most: enough for a smooth bar, little enough for the bridge. */
const PROGRESS_PER_SECOND = 5;
/** How long an estimate's probe may stand in for the job's first request. */
const PROBE_TTL_MS = 10 * 60_000;

/**
 * A signed client for one profile, as the handlers make it; `untilAnswers` resolves once the profile's
 * service answers again (see `RequestPolicyOptions.untilServiceAnswers`).
 */
export type JobClient = ShipmentSource &
  FirmSource &
  UsageSource & { untilAnswers?: (signal?: AbortSignal) => Promise<void> };

/** Whose job it is: the profile and the account it is charged to, for provenance and for limits. */
export interface JobOwner {
  profileId: string;
  profileName: string;
  account: string | null;
}

export interface JobManagerDeps {
  /** The app's one library instance. */
  library: () => Promise<Library>;
  /** Longest wait for a service that stopped answering before a job stops (default 10 minutes). */
  maxServiceWaitMs?: number;
  /** Where progress and outcomes go (the window, through the host). */
  onProgress: (p: FetchProgress) => void;
  /** `profileId`: the profile the job ran for (null when it is not known). */
  onFinished: (f: FetchFinished, profileId: string | null) => void;
  logger: Logger;
}

interface RunningJob {
  /** Cancel: stops at once and discards what the job fetched. */
  controller: AbortController;
  /** Pause: stops after the request in flight and keeps everything, resumable. */
  pauser: AbortController;
  kind: DatasetKind;
  profileId: string | null;
  createdAt: string;
  progress: JobProgressInfo | null;
  outcome: Promise<JobOutcome>;
  lastEmitAt: number;
  timer: NodeJS.Timeout | null;
}

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

/** Downloads left of one metric for the account (the first one when none is named); null = unlimited. */
function downloadsLeftOf(
  usage: UsageSummary,
  account: string | null,
  metric: 'shipments/search' | 'firms/search',
): number | null {
  const name = account && usage[account] ? account : Object.keys(usage)[0];
  const m = name ? usage[name]?.[metric] : undefined;
  return m ? finite(remaining(m)) : null;
}

function viewOfSummary(s: JobSummary): JobView {
  return {
    id: s.id,
    kind: s.kind,
    label: s.label,
    status: s.status === 'failed' || s.status === 'paused' ? s.status : 'interrupted',
    profileId: s.profileId,
    done: s.done,
    total: s.total,
    unit: s.kind === 'firms' ? 'pages' : 'records',
    etaSeconds: null,
    windowsDone: null,
    windowsKnown: null,
    // What discarding the job would throw away, for the question asked first.
    recordsStored: s.stored,
    error: s.error,
    createdAt: s.createdAt,
  };
}

/** The saved jobs that did not finish (interrupted by a crash or quit, paused, or failed), oldest first. */
export async function resumableJobs(library: Library): Promise<JobSummary[]> {
  return (await library.jobs.listResumable()).map(summaryOf);
}

export interface JobManager {
  estimate(
    owner: JobOwner,
    client: JobClient,
    kind: DatasetKind,
    filter: ShipmentFilter,
    signal?: AbortSignal,
    /** Records (shipments) or pages (firms) a search of the same filter reported: then nothing is spent. */
    knownTotal?: number,
  ): Promise<JobEstimateView>;
  start(
    owner: JobOwner,
    client: JobClient,
    kind: DatasetKind,
    filter: ShipmentFilter,
    name?: string,
  ): Promise<{ jobId: string }>;
  cancel(jobId: string): Promise<void>;
  pause(jobId: string): Promise<void>;
  list(): Promise<JobsList>;
  /** `connect` makes the client of the job's profile (null: the active one). */
  resume(
    jobId: string,
    connect: (profileId: string | null) => Promise<{ owner: JobOwner; client: JobClient }>,
  ): Promise<{ jobId: string }>;
  discard(jobId: string): Promise<void>;
}

/**
 * Long fetches (all pages of a firm search, shipment searches past the 10,000 cap) run here in main,
 * on the shared library, one `JobRunner` run per job; the window follows them through progress and
 * finished events. The manager keeps what runs, throttles its progress, and reuses what an estimate
 * already paid for (the probe, a firm search's first page) when the job starts.
 */
export function createJobManager(deps: JobManagerDeps): JobManager {
  const log = deps.logger.child('jobs');
  const running = new Map<string, RunningJob>();
  const probes = new Map<
    string,
    { at: number; probe: { total: number; shipments: readonly RecordObject[] } }
  >();
  // The firm estimate pays for page 1 to learn the page count; the job then starts from page 2.
  const firstPages = new Map<string, { at: number; page: FirmSearchResponse }>();
  // An estimate from the total a search reported: the job shows that size from its start.
  const plans = new Map<string, { at: number; total: number }>();
  /** What an estimate left for the job of this filter (a probe, a first page, a planned size), taken once. */
  const takeFresh = <T>(map: Map<string, { at: number } & T>, key: string): T | undefined => {
    const kept = map.get(key);
    map.delete(key);
    return kept && Date.now() - kept.at < PROBE_TTL_MS ? kept : undefined;
  };

  const probeKey = (owner: JobOwner, filter: ShipmentFilter, kind: DatasetKind = 'shipments') =>
    JSON.stringify([owner.profileId, owner.account, filterKey(kind, filter as Record<string, unknown>)]);

  function emitProgress(job: RunningJob, force = false): void {
    const p = job.progress;
    if (!p) return;
    const now = Date.now();
    const gap = 1000 / PROGRESS_PER_SECOND;
    if (!force && now - job.lastEmitAt < gap) {
      // Throttled, but the latest figures still go out once the gap has passed.
      job.timer ??= setTimeout(
        () => {
          job.timer = null;
          emitProgress(job, true);
        },
        gap - (now - job.lastEmitAt),
      );
      return;
    }
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
    job.lastEmitAt = now;
    deps.onProgress({
      jobId: p.jobId,
      label: p.label,
      done: p.done,
      total: p.total,
      unit: p.unit,
      etaSeconds: p.etaSeconds,
      kind: job.kind,
      windowsDone: p.windowsDone,
      windowsKnown: p.windowsKnown,
      recordsStored: p.recordsStored,
      requestsUsed: p.requestsUsed,
      downloadsUsed: p.downloadsUsed,
      ...(p.waitingSeconds !== undefined ? { waitingSeconds: p.waitingSeconds } : {}),
      ...(p.waitingUntil !== undefined ? { waitingUntil: p.waitingUntil } : {}),
      ...(p.waitingForServiceSince !== undefined ? { waitingForServiceSince: p.waitingForServiceSince } : {}),
    });
  }

  async function usageOf(client: UsageSource): Promise<UsageSummary | null> {
    try {
      return await client.usage();
    } catch (e) {
      // Without usage the job still runs; the service's own limits then answer instead of ours.
      log.warn('usage unavailable for a job', { error: e instanceof Error ? e.message : String(e) });
      return null;
    }
  }

  /** Starts `run` in the background; resolves with the job id once the job is saved. */
  function launch(
    kind: DatasetKind,
    profileId: string | null,
    run: (
      opts: Required<Pick<RunOptions, 'signal' | 'pause' | 'onProgress' | 'onStarted'>>,
    ) => Promise<JobOutcome>,
  ): Promise<{ jobId: string }> {
    const controller = new AbortController();
    const pauser = new AbortController();
    let job: RunningJob | null = null;
    return new Promise<{ jobId: string }>((resolve, reject) => {
      const outcome = run({
        signal: controller.signal,
        pause: pauser.signal,
        onStarted: (jobId) => {
          job = {
            controller,
            pauser,
            kind,
            profileId,
            createdAt: new Date().toISOString(),
            progress: null,
            outcome,
            lastEmitAt: 0,
            timer: null,
          };
          running.set(jobId, job);
          resolve({ jobId });
        },
        onProgress: (p) => {
          const j = running.get(p.jobId);
          if (!j) return;
          j.progress = p;
          emitProgress(j);
        },
      });
      outcome.then(
        (o) => {
          const j = running.get(o.jobId);
          if (j) {
            emitProgress(j, true);
            if (j.timer) clearTimeout(j.timer);
          }
          running.delete(o.jobId);
          deps.onFinished(
            { kind, jobId: o.jobId, outcome: o.status, message: o.message, datasetId: o.datasetId },
            profileId,
          );
          log.info('job finished', {
            jobId: o.jobId,
            status: o.status,
            requests: o.stats.requests,
            stored: o.stats.stored,
          });
          resolve({ jobId: o.jobId });
        },
        (e: unknown) => {
          log.error('job crashed', { error: e instanceof Error ? e.message : String(e) });
          if (!job) reject(e instanceof Error ? e : new AppError('Internal', 'The job could not start.'));
        },
      );
    });
  }

  /** What an estimate says about the account's standing, the same for shipments and firms. */
  const quotaView = (quota: ReturnType<typeof checkQuota>, account: string | null) => ({
    remainingDownloads: finite(quota.remainingDownloads),
    remainingDailyRequests: finite(quota.remainingDailyRequests),
    enough: quota.enough,
    problems: quota.problems,
    account,
  });

  async function runnerFor(client: JobClient, account: string | null, kind: DatasetKind): Promise<JobRunner> {
    const usage = await usageOf(client);
    const limiter = usage ? RateLimiter.fromUsage(usage, account) : RateLimiter.unlimited();
    // The job sizes its last windows to the downloads left instead of being refused at the limit.
    const downloadsLeft = usage
      ? downloadsLeftOf(usage, account, kind === 'firms' ? 'firms/search' : 'shipments/search')
      : null;
    return new JobRunner({
      library: await deps.library(),
      limiter,
      downloadsLeft,
      ...(client.untilAnswers ? { untilServiceAnswers: client.untilAnswers } : {}),
      ...(deps.maxServiceWaitMs !== undefined ? { maxServiceWaitMs: deps.maxServiceWaitMs } : {}),
    });
  }

  async function resumableOne(jobId: string): Promise<JobSummary | undefined> {
    return (await resumableJobs(await deps.library())).find((s) => s.id === jobId);
  }

  return {
    async estimate(owner, client, kind, filter, signal, knownTotal) {
      const opts = signal ? { signal } : {};
      const { account } = owner;
      // The usage figures come from what main keeps (the service is asked at most once a minute).
      if (kind === 'firms') {
        let pages = knownTotal;
        if (pages !== undefined)
          plans.set(probeKey(owner, filter, 'firms'), { at: Date.now(), total: pages });
        else {
          // Learning the page count costs a page; the first page is what the firm search already fetched.
          const first = await client.firmSearch({ ...filter, page: 1 }, opts);
          firstPages.set(probeKey(owner, filter, 'firms'), { at: Date.now(), page: first });
          pages = first.total_pages;
        }
        const usage = await client.usage(opts);
        const quota = checkQuota(
          { estimatedDownloads: 0, estimatedRequests: pages },
          usage,
          account,
          'firms/search',
        );
        return {
          kind,
          total: pages,
          unit: 'pages',
          optimumRequests: pages,
          estimatedRequests: pages,
          estimatedDownloads: null,
          probed: knownTotal === undefined,
          ...quotaView(quota, account),
        };
      }
      // With the total of a search the analyst already ran, the preview costs nothing: the job makes
      // its size probe only when it starts, and the estimate counts it.
      let estimate: Omit<ShipmentEstimate, 'probe'>;
      if (knownTotal !== undefined) {
        estimate = planShipmentFetch(knownTotal);
        plans.set(probeKey(owner, filter), { at: Date.now(), total: knownTotal });
      } else {
        const probed = await estimateShipments(filter, client, opts);
        probes.set(probeKey(owner, filter), { at: Date.now(), probe: probed.probe });
        estimate = probed;
      }
      const usage = await client.usage(opts);
      const quota = checkQuota(estimate, usage, account, 'shipments/search');
      return {
        kind,
        total: estimate.total,
        unit: 'records',
        optimumRequests: estimate.optimumRequests,
        estimatedRequests: estimate.estimatedRequests,
        estimatedDownloads: estimate.estimatedDownloads,
        probed: knownTotal === undefined,
        ...quotaView(quota, account),
      };
    },

    async start(owner, client, kind, filter, name) {
      const runner = await runnerFor(client, owner.account, kind);
      const input = { filter, ...owner, ...(name ? { name } : {}) };
      const key = probeKey(owner, filter, kind);
      const plannedTotal = takeFresh(plans, key)?.total;
      const planned = { ...input, ...(plannedTotal !== undefined ? { plannedTotal } : {}) };
      if (kind === 'firms') {
        const firstPage = takeFresh(firstPages, key)?.page;
        return launch('firms', owner.profileId, (run) =>
          runner.startFirms({ ...planned, ...(firstPage ? { firstPage } : {}) }, client, run),
        );
      }
      const probe = takeFresh(probes, key)?.probe;
      return launch('shipments', owner.profileId, (run) =>
        runner.startShipments({ ...planned, ...(probe ? { probe } : {}) }, client, run),
      );
    },

    async cancel(jobId) {
      const job = running.get(jobId);
      if (!job) throw new AppError('NotFound', 'That job is not running (it may have finished already).');
      job.controller.abort();
      // Returns once the job's rows are gone, so a list right after shows no trace of it.
      await job.outcome.catch(() => undefined);
    },

    async pause(jobId) {
      const job = running.get(jobId);
      if (!job) throw new AppError('NotFound', 'That job is not running (it may have finished already).');
      job.pauser.abort();
      // Returns once the request in flight is stored and the job is listed as resumable.
      await job.outcome.catch(() => undefined);
    },

    async list() {
      const resumable = (await resumableJobs(await deps.library()))
        .filter((s) => !running.has(s.id))
        .map(viewOfSummary);
      const now: JobView[] = [...running.entries()].map(([id, j]) => ({
        id,
        kind: j.kind,
        label: j.progress?.label ?? 'Starting…',
        status: 'running',
        profileId: j.profileId,
        done: j.progress?.done ?? 0,
        total: j.progress?.total ?? null,
        unit: j.kind === 'firms' ? 'pages' : 'records',
        etaSeconds: j.progress?.etaSeconds ?? null,
        windowsDone: j.progress?.windowsDone ?? null,
        windowsKnown: j.progress?.windowsKnown ?? null,
        recordsStored: j.progress?.recordsStored ?? null,
        error: null,
        createdAt: j.createdAt,
        // A window opened (or reloaded) during an outage learns it here: no event comes while it waits.
        ...(j.progress?.waitingForServiceSince !== undefined
          ? { waitingForServiceSince: j.progress.waitingForServiceSince }
          : {}),
      }));
      return { running: now, resumable };
    },

    async resume(jobId, connect) {
      if (running.has(jobId)) throw new AppError('Conflict', 'That job is already running.');
      const summary = await resumableOne(jobId);
      if (!summary)
        throw new AppError(
          'NotFound',
          'That job cannot be resumed (it finished, was discarded, or never existed).',
        );
      const { owner, client } = await connect(summary.profileId);
      const runner = await runnerFor(client, owner.account, summary.kind);
      return launch(summary.kind, owner.profileId, (run) => runner.resume(jobId, client, run));
    },

    async discard(jobId) {
      if (running.has(jobId)) throw new AppError('Conflict', 'That job is running: cancel it instead.');
      const library = await deps.library();
      if (!(await resumableOne(jobId)))
        throw new AppError('NotFound', 'That job is not waiting to be resumed.');
      const job = await library.jobs.get(jobId);
      await discardJobData(library, jobId, job.datasetId);
    },
  };
}
