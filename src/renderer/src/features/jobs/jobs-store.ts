import { create } from 'zustand';
import type { JobFinished, JobProgress } from '@shared/ipc/contract';
import type { BridgeError } from '@shared/ipc/errors';
import type { DatasetKind, EquivalentView, JobEstimateView, JobView } from '@shared/library/library-contract';
import type { ShipmentFilter } from '@shared/spec';
import { api } from '../../bridge/api';
import { libraryChanged } from '../library/library-store';
import { refreshUsage } from '../usage/usage-store';

/** A running job as the tray shows it: the last progress event, or the list entry before the first one. */
export interface RunningJob {
  id: string;
  kind: DatasetKind;
  label: string;
  done: number;
  total: number | null;
  unit: string;
  etaSeconds: number | null;
  windowsDone: number | null;
  windowsKnown: number | null;
  recordsStored: number | null;
  waitingSeconds: number | null;
  cancelling: boolean;
}

export interface FinishedJob extends JobFinished {
  label: string;
}

/** The confirm step before a fetch-all spends downloads. */
export interface FetchAllDialog {
  kind: DatasetKind;
  request: ShipmentFilter;
  name: string;
  state: 'estimating' | 'ready' | 'starting' | 'error';
  estimate: JobEstimateView | null;
  /** A complete saved answer to the same question, offered before anything is spent. */
  saved: EquivalentView | null;
  error: BridgeError | null;
}

export interface JobsState {
  running: Record<string, RunningJob>;
  resumable: JobView[];
  finished: FinishedJob[];
  dialog: FetchAllDialog | null;
  error: BridgeError | null;
  refresh(): Promise<void>;
  askFetchAll(kind: DatasetKind, request: ShipmentFilter & { size?: number; page?: number }): Promise<void>;
  /** Asks the service what the fetch-all will cost (one small request). */
  estimate(): Promise<void>;
  setName(name: string): void;
  confirm(): Promise<void>;
  dismissDialog(): void;
  cancel(jobId: string): Promise<void>;
  resume(jobId: string): Promise<void>;
  discard(jobId: string): Promise<void>;
  dismissFinished(jobId: string): void;
}

function fromView(v: JobView): RunningJob {
  return {
    id: v.id,
    kind: v.kind,
    label: v.label,
    done: v.done,
    total: v.total,
    unit: v.unit,
    etaSeconds: v.etaSeconds,
    windowsDone: v.windowsDone,
    windowsKnown: v.windowsKnown,
    recordsStored: v.recordsStored,
    waitingSeconds: null,
    cancelling: false,
  };
}

function stripPaging(request: ShipmentFilter & { size?: number; page?: number }): ShipmentFilter {
  const { size: _size, page: _page, ...filter } = request;
  return filter;
}

export const useJobsStore = create<JobsState>()((set, get) => ({
  running: {},
  resumable: [],
  finished: [],
  dialog: null,
  error: null,
  async refresh() {
    const r = await api.jobs.list();
    if (!r.ok) {
      set({ error: r.error });
      return;
    }
    set((s) => {
      const running: Record<string, RunningJob> = {};
      // A progress event may be newer than the list: keep it.
      for (const v of r.value.running) running[v.id] = s.running[v.id] ?? fromView(v);
      return { running, resumable: r.value.resumable, error: null };
    });
  },
  async askFetchAll(kind, request) {
    const filter = stripPaging(request);
    set({ dialog: { kind, request: filter, name: '', state: 'estimating', estimate: null, saved: null, error: null } });
    const probe = kind === 'firms' ? { ...filter, page: 1 } : { ...filter, size: 10_000 };
    const eq = await api.library.findEquivalent({ kind, request: probe });
    const saved = eq.ok && eq.value && eq.value.dataset.status === 'complete' ? eq.value : null;
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
    set({ dialog: { ...d0, state: 'estimating', saved: null } });
    const r = await api.jobs.estimate({ kind, request: filter });
    const d = get().dialog;
    if (!d || d.request !== filter) return;
    set({ dialog: r.ok ? { ...d, state: 'ready', estimate: r.value } : { ...d, state: 'error', error: r.error } });
    void refreshUsage();
  },
  setName(name) {
    const d = get().dialog;
    if (d) set({ dialog: { ...d, name } });
  },
  async confirm() {
    const d = get().dialog;
    if (!d || d.state !== 'ready' || !d.estimate) return;
    set({ dialog: { ...d, state: 'starting' } });
    const r = await api.jobs.start({ kind: d.kind, request: d.request, ...(d.name.trim() ? { name: d.name.trim() } : {}) });
    if (!r.ok) {
      set({ dialog: { ...d, state: 'error', error: r.error } });
      return;
    }
    set({ dialog: null });
    await get().refresh();
  },
  dismissDialog() {
    set({ dialog: null });
  },
  async cancel(jobId) {
    set((s) => {
      const j = s.running[jobId];
      return j ? { running: { ...s.running, [jobId]: { ...j, cancelling: true } } } : {};
    });
    const r = await api.jobs.cancel({ jobId });
    if (!r.ok) set({ error: r.error });
    await get().refresh();
  },
  async resume(jobId) {
    const r = await api.jobs.resume({ jobId });
    if (!r.ok) set({ error: r.error });
    await get().refresh();
  },
  async discard(jobId) {
    const r = await api.jobs.discard({ jobId });
    if (!r.ok) set({ error: r.error });
    await get().refresh();
  },
  dismissFinished(jobId) {
    set((s) => ({ finished: s.finished.filter((f) => f.jobId !== jobId) }));
  },
}));

function onProgress(p: JobProgress): void {
  useJobsStore.setState((s) => {
    const prev = s.running[p.jobId];
    return {
      running: {
        ...s.running,
        [p.jobId]: {
          id: p.jobId,
          kind: p.kind ?? prev?.kind ?? 'shipments',
          label: p.label,
          done: p.done,
          total: p.total,
          unit: p.unit,
          etaSeconds: p.etaSeconds,
          windowsDone: p.windowsDone ?? null,
          windowsKnown: p.windowsKnown ?? null,
          recordsStored: p.recordsStored ?? null,
          waitingSeconds: p.waitingSeconds ?? null,
          cancelling: prev?.cancelling ?? false,
        },
      },
    };
  });
}

function onFinished(f: JobFinished): void {
  useJobsStore.setState((s) => {
    const { [f.jobId]: gone, ...running } = s.running;
    const label = gone?.label ?? 'Fetch job';
    return { running, finished: [{ ...f, label }, ...s.finished.filter((x) => x.jobId !== f.jobId)].slice(0, 10) };
  });
  if (f.outcome === 'succeeded') libraryChanged();
  void useJobsStore.getState().refresh();
  void refreshUsage();
}

let subscribed = false;
/** Listens to main's job events for the rest of the session; safe to call from every page that shows jobs. */
export function startJobEvents(): void {
  if (subscribed) return;
  subscribed = true;
  api.on('jobs.progress', onProgress);
  api.on('jobs.finished', onFinished);
  void useJobsStore.getState().refresh();
}

/** "2 min 10 s", "45 s". */
export function describeSeconds(s: number): string {
  if (s < 60) return `${Math.max(0, Math.round(s))} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
