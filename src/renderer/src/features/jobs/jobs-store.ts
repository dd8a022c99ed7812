import type { JobFinished, JobProgress } from '@shared/jobs/jobs-contract';
import { limitEndsAt, serviceDidNotAnswer, type BridgeError } from '@shared/ipc/errors';
import type { DatasetKind, EquivalentView } from '@shared/library/library-contract';
import type { JobEstimateView, JobView } from '@shared/jobs/jobs-contract';
import type { ShipmentFilter } from '@shared/spec';
import { useShallow } from 'zustand/react/shallow';
import { getApi } from '../../bridge/api';
import {
  checkHsCodes,
  currentAccountContext,
  onDatasetRemoved,
  openSavedCopy,
  useAccountContext,
  useSessionStore,
  useUsageStore,
  type HsCodeCheck,
} from '../../session';
import { defineStore } from '../../store';

/** A running job as the tray shows it: the last progress event, or the list entry before the first one. */
export interface RunningJob {
  id: string;
  /** A fetch (`shipments`, `firms`: paused, resumed, cancelled with the jobs calls), an export or an import. */
  kind: JobProgress['kind'];
  /** What the job is now, e.g. "Excel export of Steel: summary sheets". */
  label: string;
  /** What the job is, without the step it is at: the name its finished entry keeps. */
  title: string;
  done: number;
  total: number | null;
  unit: string;
  etaSeconds: number | null;
  windowsDone: number | null;
  windowsKnown: number | null;
  recordsStored: number | null;
  waitingSeconds: number | null;
  /** When a rate-limit wait ends (epoch ms): the tray counts down to it between progress events. */
  waitingUntil: number | null;
  /** Since when the job waits for a service that stopped answering (epoch ms); null while it answers. */
  waitingForServiceSince: number | null;
  /**
   * When the job should end (epoch ms), smoothed over main's estimates so the time left counts down
   * steadily instead of jumping with each request's pace; null while unknown.
   */
  etaEnd: number | null;
  /** When main last said anything of this job (epoch ms): a job that falls silent is shown as such. */
  updatedAt: number;
  cancelling: boolean;
  pausing: boolean;
}

/** The question before downloaded records are thrown away (Cancel of a running fetch, Discard of a stopped one). */
export interface DiscardQuestion {
  jobId: string;
  label: string;
  /** Records (or firms) the job holds: what discarding loses. */
  records: number;
  /** Cancel of a running job: it is paused while the question is open, so "Go on fetching" resumes it. */
  running: boolean;
}

export type FinishedJob = JobFinished & { label: string };

/** The confirm step before a fetch-all spends downloads. */
export interface FetchAllDialog {
  kind: DatasetKind;
  request: ShipmentFilter;
  /** Records (shipments) or pages (firms) the search reported for this filter: the preview then costs nothing. */
  knownTotal: number | null;
  name: string;
  /** `blocked`: the filter names more new HS codes than the account may still search; nothing was sent. */
  state: 'estimating' | 'ready' | 'starting' | 'error' | 'blocked';
  estimate: JobEstimateView | null;
  /** A complete saved answer to the same question, offered before anything is spent. */
  saved: EquivalentView | null;
  error: BridgeError | null;
  /** When a check the service refused for a limit may be asked again (epoch ms); null otherwise. */
  againAt: number | null;
}

export interface JobsData {
  running: Record<string, RunningJob>;
  resumable: JobView[];
  finished: FinishedJob[];
  dialog: FetchAllDialog | null;
  /** The last failed tray action; stays until dismissed or another tray action succeeds. */
  error: BridgeError | null;
  /** Set when the error came from listing jobs: the next good list clears it. */
  errorFromList: boolean;
  discardQuestion: DiscardQuestion | null;
  /** The jobs tray (the drawer opened from the status bar). */
  trayOpen: boolean;
}

export interface JobsActions {
  openTray(): void;
  closeTray(): void;
  refresh(): Promise<void>;
  /** `knownTotal`: the records (or pages) the search of this filter reported; without it the size is probed. */
  askFetchAll(
    kind: DatasetKind,
    request: ShipmentFilter & { size?: number; page?: number },
    knownTotal?: number,
  ): Promise<void>;
  /** Works out what the fetch-all will cost: from the known total for free, else with one small request. */
  estimate(): Promise<void>;
  /** Opens the offered saved copy, or another complete copy if that one was deleted; else goes on to the estimate. */
  openSaved(): Promise<void>;
  /** The offered copy was deleted: offers another complete copy, or goes on to the estimate. */
  recheckSaved(): Promise<void>;
  setName(name: string): void;
  confirm(): Promise<void>;
  dismissDialog(): void;
  /** Cancel pressed: a fetch holding records asks first; anything else stops at once. */
  askCancel(jobId: string): Promise<void>;
  /** Stops a running job and throws away what it fetched (after `askCancel`). */
  cancel(jobId: string): Promise<void>;
  /** Stops a running fetch, keeping everything it fetched; resumable later. */
  pause(jobId: string): Promise<void>;
  resume(jobId: string): Promise<void>;
  /** Discard pressed on a stopped job: asks first when it holds records. */
  askDiscard(jobId: string): Promise<void>;
  discard(jobId: string): Promise<void>;
  /** "Keep": the job stays stopped (paused) with everything it fetched, to resume later. */
  keepDownloads(): Promise<void>;
  /** "Discard": throws the records away. */
  confirmDiscard(): Promise<void>;
  /** "Go on fetching" (after Cancel of a running job): resumes it; otherwise just closes the question. */
  dismissQuestion(): Promise<void>;
  dismissError(): void;
  dismissFinished(jobId: string): void;
  /** A progress event of main: the job's row shows it. */
  applyProgress(p: JobProgress): void;
  /** A job ended: it leaves the running list for the finished one. */
  applyFinished(f: JobFinished): void;
}

export type JobsState = JobsData & JobsActions;

const initialState: JobsData = {
  running: {},
  resumable: [],
  finished: [],
  dialog: null,
  error: null,
  errorFromList: false,
  discardQuestion: null,
  trayOpen: false,
};

function fromView(v: JobView): RunningJob {
  const now = Date.now();
  return {
    id: v.id,
    kind: v.kind,
    label: v.label,
    title: v.label,
    done: v.done,
    total: v.total,
    unit: v.unit,
    etaSeconds: v.etaSeconds,
    windowsDone: v.windowsDone,
    windowsKnown: v.windowsKnown,
    recordsStored: v.recordsStored,
    waitingSeconds: null,
    waitingUntil: null,
    waitingForServiceSince: v.waitingForServiceSince ?? null,
    etaEnd: v.etaSeconds === null ? null : now + v.etaSeconds * 1000,
    updatedAt: now,
    cancelling: false,
    pausing: false,
  };
}

/** How far a new estimate moves the end shown: a third of the way, so one slow request does not jump it. */
const ETA_WEIGHT = 0.3;

/**
 * The end time to show after a progress event. A rate-limit wait is a known delay, taken as it is;
 * otherwise the new estimate is blended into the previous end.
 */
export function nextEtaEnd(
  prevEnd: number | null,
  p: { etaSeconds: number | null; waitingSeconds: number | null; waitingUntil: number | null },
  now: number,
): number | null {
  if (p.etaSeconds === null) return null;
  const waitMs = p.waitingUntil === null ? 0 : Math.max(0, p.waitingUntil - now);
  const workMs = Math.max(0, p.etaSeconds - (p.waitingSeconds ?? 0)) * 1000;
  const fresh = now + waitMs + workMs;
  if (prevEnd === null || waitMs > 0) return fresh;
  return Math.round(prevEnd + (fresh - prevEnd) * ETA_WEIGHT);
}

function stripPaging(request: ShipmentFilter & { size?: number; page?: number }): ShipmentFilter {
  const { size: _size, page: _page, ...filter } = request;
  return filter;
}

/** A complete saved answer to the fetch-all's question, if the library holds one. */
async function findSaved(kind: DatasetKind, filter: ShipmentFilter): Promise<EquivalentView | null> {
  const probe = kind === 'firms' ? { ...filter, page: 1 } : { ...filter, size: 10_000 };
  const eq = await getApi().library.findEquivalent({ kind, request: probe });
  return eq.ok && eq.value && eq.value.dataset.status === 'complete' ? eq.value : null;
}

export const useJobsStore = defineStore<JobsData, JobsActions>(initialState, (set, get) => ({
  openTray() {
    set({ trayOpen: true });
  },
  closeTray() {
    set({ trayOpen: false });
  },
  async refresh() {
    const r = await getApi().jobs.list();
    if (!r.ok) {
      set({ error: r.error, errorFromList: true });
      return;
    }
    set((s) => {
      const running: Record<string, RunningJob> = {};
      // The list holds fetches only: an export or an import stays until its finished event.
      for (const j of Object.values(s.running)) if (!isFetch(j)) running[j.id] = j;
      // A progress event may be newer than the list: keep it.
      for (const v of r.value.running) running[v.id] = s.running[v.id] ?? fromView(v);
      // An action's error (a resume without credentials) must outlive the list refresh that follows it.
      return {
        running,
        resumable: r.value.resumable,
        ...(s.errorFromList ? { error: null, errorFromList: false } : {}),
      };
    });
  },
  async askFetchAll(kind, request, knownTotal) {
    const filter = stripPaging(request);
    set({
      dialog: {
        kind,
        request: filter,
        knownTotal: knownTotal ?? null,
        name: '',
        state: 'estimating',
        estimate: null,
        saved: null,
        error: null,
        againAt: null,
      },
    });
    const saved = await findSaved(kind, filter);
    if (saved) {
      // No repeat spending: not even the estimate's probe is made until the user chooses to fetch again.
      const d = get().dialog;
      if (d?.request === filter) set({ dialog: { ...d, state: 'ready', saved } });
      return;
    }
    await get().estimate();
  },
  async estimate() {
    const d0 = get().dialog;
    if (!d0) return;
    const filter = d0.request;
    const kind = d0.kind;
    // A probe names the filter's HS codes too: past the allowance of distinct codes it would be refused
    // (and counted), so nothing is sent and the dialog says why.
    if (d0.knownTotal === null && fetchAllHsCodes(filter)?.state === 'exceeds') {
      set({ dialog: { ...d0, state: 'blocked', saved: null } });
      return;
    }
    // Asked again before the limit's wait is over, it would only be refused again, and counted.
    if (d0.againAt !== null && Date.now() < d0.againAt) return;
    set({ dialog: { ...d0, state: 'estimating', saved: null, error: null, againAt: null } });
    const r = await getApi().jobs.estimate({
      kind,
      request: filter,
      ...(d0.knownTotal !== null ? { knownTotal: d0.knownTotal } : {}),
    });
    const d = get().dialog;
    if (!d || d.request !== filter) return;
    set({
      dialog: r.ok
        ? { ...d, state: 'ready', estimate: r.value }
        : { ...d, state: 'error', error: r.error, againAt: limitEndsAt(r.error, Date.now()) },
    });
  },
  async openSaved() {
    const d = get().dialog;
    if (!d?.saved) return;
    const copy = await openSavedCopy(d.saved, () => findSaved(d.kind, d.request));
    if (get().dialog?.request !== d.request) return;
    if (copy) set({ dialog: null });
    else await get().estimate();
  },
  async recheckSaved() {
    const d = get().dialog;
    if (!d?.saved) return;
    const copy = await findSaved(d.kind, d.request);
    const now = get().dialog;
    if (!now || now.request !== d.request || now.saved !== d.saved) return;
    if (copy) set({ dialog: { ...now, saved: copy } });
    else await get().estimate();
  },
  setName(name) {
    const d = get().dialog;
    if (d) set({ dialog: { ...d, name } });
  },
  async confirm() {
    const d = get().dialog;
    if (!d || d.state !== 'ready' || !d.estimate) return;
    if (fetchAllHsCodes(d.request)?.state === 'exceeds') return;
    set({ dialog: { ...d, state: 'starting', error: null } });
    const r = await getApi().jobs.start({
      kind: d.kind,
      request: d.request,
      ...(d.name.trim() ? { name: d.name.trim() } : {}),
    });
    if (!r.ok) {
      // The estimate still holds: the dialog stays ready, its name kept, so Start fetching (or Enter)
      // tries again once the cause is gone (the library writable again, the keychain back).
      const now = get().dialog;
      if (now && now.request === d.request) set({ dialog: { ...now, state: 'ready', error: r.error } });
      return;
    }
    // The analyst asked for a long job: the tray opens on it (Escape closes it; it runs on).
    set({ dialog: null, trayOpen: true });
    await get().refresh();
  },
  dismissDialog() {
    set({ dialog: null });
  },
  async askCancel(jobId) {
    const j = get().running[jobId];
    const records = j?.recordsStored ?? 0;
    // Only a fetch holds paid-for records; an export, or a fetch with nothing stored yet, has nothing to lose.
    if (!(j && isFetch(j) && records > 0)) {
      await get().cancel(jobId);
      return;
    }
    // Paused while the question is open: a job left running could finish meanwhile (the answer would
    // then be about nothing) or be discarded nearly done, and the count asked about would be stale.
    set((s) => ({ discardQuestion: null, running: { ...s.running, [jobId]: { ...j, pausing: true } } }));
    const r = await getApi().jobs.pause({ jobId });
    // NotFound: it ended before the pause took (finished or failed); its own outcome says which.
    if (!r.ok && r.error.kind !== 'NotFound') set(actionResult(r));
    await get().refresh();
    const paused = get().resumable.find((x) => x.id === jobId);
    if (!paused) return;
    set({
      discardQuestion: {
        jobId,
        label: paused.label,
        records: paused.recordsStored ?? records,
        running: true,
      },
    });
  },
  async cancel(jobId) {
    set((s) => {
      const j = s.running[jobId];
      return {
        discardQuestion: null,
        ...(j ? { running: { ...s.running, [jobId]: { ...j, cancelling: true } } } : {}),
      };
    });
    const r = await cancelCall(get().running[jobId]?.kind ?? 'shipments', jobId);
    set(actionResult(r));
    await get().refresh();
  },
  async pause(jobId) {
    set((s) => {
      const j = s.running[jobId];
      return {
        discardQuestion: null,
        ...(j ? { running: { ...s.running, [jobId]: { ...j, pausing: true } } } : {}),
      };
    });
    const r = await getApi().jobs.pause({ jobId });
    set(actionResult(r));
    await get().refresh();
  },
  async resume(jobId) {
    const r = await getApi().jobs.resume({ jobId });
    set(actionResult(r));
    await get().refresh();
  },
  async askDiscard(jobId) {
    const j = get().resumable.find((x) => x.id === jobId);
    const records = j?.recordsStored ?? 0;
    if (j && records > 0) {
      set({ discardQuestion: { jobId, label: j.label, records, running: false } });
      return;
    }
    await get().discard(jobId);
  },
  async discard(jobId) {
    set({ discardQuestion: null });
    const r = await getApi().jobs.discard({ jobId });
    set(actionResult(r));
    await get().refresh();
  },
  async keepDownloads() {
    // The job is already stopped (paused by askCancel, or stopped before): it stays resumable.
    set({ discardQuestion: null });
  },
  async confirmDiscard() {
    const q = get().discardQuestion;
    if (!q) return;
    await get().discard(q.jobId);
  },
  async dismissQuestion() {
    const q = get().discardQuestion;
    set({ discardQuestion: null });
    if (q?.running) await get().resume(q.jobId);
  },
  dismissError() {
    set({ error: null, errorFromList: false });
  },
  dismissFinished(jobId) {
    set((s) => ({ finished: s.finished.filter((f) => f.jobId !== jobId) }));
  },
  applyProgress(p) {
    set((s) => {
      const prev = s.running[p.jobId];
      const now = Date.now();
      const detail = progressDetail(p, now);
      const sameTotal = prev !== undefined && prev.total === p.total && prev.unit === p.unit;
      // A job that runs again (resumed after a failure, a pause or a restart) has not ended: its old
      // "failed" or "paused" entry, with its "The job can be resumed", no longer says what it is doing.
      const stale = s.finished.some((f) => f.jobId === p.jobId);
      return {
        ...(stale ? { finished: s.finished.filter((f) => f.jobId !== p.jobId) } : {}),
        running: {
          ...s.running,
          [p.jobId]: {
            id: p.jobId,
            kind: p.kind,
            label: p.label,
            // Later events may name a step ("…: finishing"); the first one names the job.
            title: prev?.title ?? p.label,
            // The count never runs backwards (events of one job can cross on the way).
            done: sameTotal ? Math.max(prev.done, p.done) : p.done,
            total: p.total,
            unit: p.unit,
            etaSeconds: p.etaSeconds,
            ...detail,
            etaEnd: nextEtaEnd(prev?.etaEnd ?? null, { etaSeconds: p.etaSeconds, ...detail }, now),
            updatedAt: now,
            cancelling: prev?.cancelling ?? false,
            pausing: prev?.pausing ?? false,
          },
        },
      };
    });
  },
  applyFinished(f) {
    set((s) => {
      const { [f.jobId]: gone, ...running } = s.running;
      const label = gone?.title ?? 'A background job';
      return {
        running,
        finished: [{ ...f, label }, ...s.finished.filter((x) => x.jobId !== f.jobId)].slice(0, 10),
      };
    });
    void get().refresh();
  },
}));

/**
 * Whether the Fetch all dialog offers Try again: its cost check failed because the service did not
 * answer (no connection, or it answered that it is having trouble), or refused it for a limit whose
 * wait it gave (`againAt`: Try again is enabled once the wait is over), all of which pass by
 * themselves. Like the Watched cost check's, it is the analyst's to run again, not waited out.
 */
export function offersEstimateAgain(d: Pick<FetchAllDialog, 'state' | 'error' | 'againAt'> | null): boolean {
  return d?.state === 'error' && (serviceDidNotAnswer(d.error) || d.againAt !== null);
}

/** When the dialog's Try again may run (epoch ms), when it is offered after a limit; null otherwise. */
export function estimateAgainAt(
  d: Pick<FetchAllDialog, 'state' | 'error' | 'againAt'> | null,
): number | null {
  return d && offersEstimateAgain(d) ? d.againAt : null;
}

/** The ids of the running jobs, in start order: changes when a job starts or ends, not on its progress. */
export function useRunningJobIds(): string[] {
  return useJobsStore(useShallow((s) => Object.keys(s.running)));
}

/**
 * Follows main's job events and deleted datasets for the rest of the session; called by the app
 * (connectStores), never on import. Returns the disconnect.
 */
export function connectJobsStore(): () => void {
  const api = getApi();
  const { applyProgress, applyFinished } = useJobsStore.getState();
  const offProgress = api.on('jobs.progress', (p) => applyProgress(p));
  const offFinished = api.on('jobs.finished', (f) => applyFinished(f));
  const offRemoved = onDatasetRemoved((id) => {
    if (useJobsStore.getState().dialog?.saved?.dataset.id === id) void useJobsStore.getState().recheckSaved();
  });
  // The host is back after an absence: jobs may have ended (or been stopped by its restart) meanwhile.
  const offHost = useSessionStore.subscribe((st, prev) => {
    if (st.host.up && !prev.host.up) void useJobsStore.getState().refresh();
  });
  void useJobsStore.getState().refresh();
  return () => {
    offProgress();
    offFinished();
    offRemoved();
    offHost();
  };
}

/**
 * A finished job as one sentence: "CSV export of Steel: Exported 2,000 rows to …", or
 * "Shipments TR steel failed: … The job can be resumed." Main's messages already say what happened.
 */
export function describeFinished(f: Pick<FinishedJob, 'label' | 'outcome' | 'message'>): string {
  return f.outcome === 'failed' ? `${f.label} failed: ${f.message}` : `${f.label}: ${f.message}`;
}

/** A tray action's result: a failure is shown; a success clears an earlier failure. */
function actionResult(r: { ok: true } | { ok: false; error: BridgeError }): Partial<JobsState> {
  return r.ok ? { error: null, errorFromList: false } : { error: r.error, errorFromList: false };
}

/** A fetch job (records or firm pages), as opposed to an export or an import, which have nothing paid for to keep. */
export function isFetch(j: Pick<RunningJob, 'kind'>): boolean {
  switch (j.kind) {
    case 'shipments':
    case 'firms':
      return true;
    case 'export':
    case 'import':
      return false;
  }
}

/**
 * Who stops a running job: a fetch the jobs call (it discards what it fetched), an export the export
 * call (no file stays behind), an import the library (the pending dataset goes).
 */
function cancelCall(
  kind: RunningJob['kind'],
  jobId: string,
): Promise<{ ok: true } | { ok: false; error: BridgeError }> {
  switch (kind) {
    case 'shipments':
    case 'firms':
      return getApi().jobs.cancel({ jobId });
    case 'export':
      return getApi().export.cancel({ jobId });
    case 'import':
      return getApi().library.cancelImport(undefined);
  }
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/**
 * How far a records fetch is through the date ranges it is cut into (the service gives at most 10,000
 * records a request): " · date range 2 of 5". A firm fetch goes page by page, which its count says already.
 */
export function describeSlices(job: Pick<RunningJob, 'unit' | 'windowsDone' | 'windowsKnown'>): string {
  if (job.unit !== 'records' || !job.windowsKnown) return '';
  return ` · date range ${fmt(Math.min(job.windowsDone ?? 0, job.windowsKnown))} of ${fmt(job.windowsKnown)}`;
}

/** What the tray shows beyond done/total: a fetch's windows, records and rate-limit wait; nothing for the others. */
function progressDetail(
  p: JobProgress,
  now: number,
): Pick<
  RunningJob,
  | 'windowsDone'
  | 'windowsKnown'
  | 'recordsStored'
  | 'waitingSeconds'
  | 'waitingUntil'
  | 'waitingForServiceSince'
> {
  switch (p.kind) {
    case 'shipments':
    case 'firms':
      return {
        windowsDone: p.windowsDone,
        windowsKnown: p.windowsKnown,
        recordsStored: p.recordsStored,
        waitingSeconds: p.waitingSeconds ?? null,
        // An absolute end, so the countdown runs on between events; a bare number of seconds counts from now.
        waitingUntil: p.waitingUntil ?? (p.waitingSeconds ? now + p.waitingSeconds * 1000 : null),
        waitingForServiceSince: p.waitingForServiceSince ?? null,
      };
    case 'export':
    case 'import':
      return {
        windowsDone: null,
        windowsKnown: null,
        recordsStored: null,
        waitingSeconds: null,
        waitingUntil: null,
        waitingForServiceSince: null,
      };
  }
}

/**
 * The rate-limit wait left and the time left at `now`, counted down to the smoothed end between
 * events (null when unknown).
 */
export function liveTimes(
  j: Pick<RunningJob, 'etaEnd' | 'waitingUntil'>,
  now: number,
): { waitSeconds: number | null; etaSeconds: number | null } {
  const wait = j.waitingUntil === null ? 0 : Math.max(0, Math.ceil((j.waitingUntil - now) / 1000));
  const eta = j.etaEnd === null ? null : Math.max(0, Math.ceil((j.etaEnd - now) / 1000));
  return { waitSeconds: wait > 0 ? wait : null, etaSeconds: eta };
}

/**
 * Time left as a person says it, coarse enough not to flicker: "a few seconds", "about 45 s" (5-s
 * steps), "about 3 min 10 s" (10-s steps), "about 2 h 5 min".
 */
export function describeTimeLeft(s: number): string {
  if (s < 10) return 'a few seconds';
  if (s < 60) return `about ${Math.ceil(s / 5) * 5} s`;
  if (s < 600) {
    const t = Math.ceil(s / 10) * 10;
    const sec = t % 60;
    return `about ${Math.floor(t / 60)} min${sec ? ` ${sec} s` : ''}`;
  }
  if (s < 3600) return `about ${Math.ceil(s / 60)} min`;
  return `about ${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/**
 * The HS codes a fetch-all would name for the first time against the account's allowance of distinct
 * codes (the account the filter names, else the profile's default); null when none are new.
 */
export function fetchAllHsCodes(
  request: ShipmentFilter,
  summary = useUsageStore.getState().summary,
  accounts = currentAccountContext(),
): HsCodeCheck | null {
  const account = request.account_name?.trim() || accounts.defaultAccount;
  return checkHsCodes(summary, account, request.hs_codes ?? []);
}

/** For the dialog: the same check, re-rendered when usage or the profile changes. */
export function useFetchAllHsCodes(): HsCodeCheck | null {
  const request = useJobsStore((s) => s.dialog?.request ?? null);
  const summary = useUsageStore((s) => s.summary);
  const accounts = useAccountContext();
  return request ? fetchAllHsCodes(request, summary, accounts) : null;
}
