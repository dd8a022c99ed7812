import { create } from 'zustand';
import type { ShipmentSearchRequest, ShipmentSearchResponse } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
import type { EquivalentView } from '@shared/library/library-contract';
import { api } from '../../bridge/api';
import { currentFilter, validateCurrent } from '../filters/filter-store';
import { refreshUsage } from '../usage/usage-store';
import { saveToLibrary } from './library-boundary';

export type SearchStatus = 'idle' | 'running' | 'done' | 'error' | 'cancelled';

export interface SearchState {
  size: number;
  status: SearchStatus;
  /** The request that produced `result` (not the one running now), so truncation is described truthfully. */
  request: ShipmentSearchRequest | null;
  result: ShipmentSearchResponse | null;
  error: BridgeError | null;
  startedAt: number | null;
  /** Milliseconds from the click to the answer, for the status line (and the benchmark). */
  elapsedMs: number | null;
  /** The user acknowledged that this run passes the account's limit. */
  overLimitConfirmed: boolean;
  /** The library already answers the question asked: offered before anything is spent. */
  offer: (EquivalentView & { request: ShipmentSearchRequest }) | null;
  /** The library dataset holding `result`. */
  datasetId: string | null;
  /** How many answers (results or errors) the service has given; lets observers tell a new answer from the last. */
  answers: number;
  setSize(size: number): void;
  confirmOverLimit(yes: boolean): void;
  /** `fresh`: fetch even when the library holds a saved copy (the user chose to spend). */
  run(opts?: { fresh?: boolean }): Promise<void>;
  dismissOffer(): void;
  cancel(): void;
}

let runSeq = 0;

export const useSearchStore = create<SearchState>()((set, get) => ({
  size: 1000,
  status: 'idle',
  request: null,
  result: null,
  error: null,
  startedAt: null,
  elapsedMs: null,
  overLimitConfirmed: false,
  offer: null,
  datasetId: null,
  answers: 0,
  dismissOffer: () => set({ offer: null }),
  setSize: (size) => set({ size, overLimitConfirmed: false }),
  confirmOverLimit: (yes) => set({ overLimitConfirmed: yes }),
  async run(opts = {}) {
    const { size } = get();
    if (!validateCurrent('shipmentSearch', { size }).valid) return;
    const request: ShipmentSearchRequest = { ...currentFilter(), size };
    const mine = ++runSeq;
    const startedAt = performance.now();
    set({ status: 'running', error: null, startedAt, elapsedMs: null, offer: null });
    if (!opts.fresh) {
      // No repeat spending: a saved answer to the same question is offered first.
      const saved = await api.library.findEquivalent({ request });
      if (mine !== runSeq) return;
      if (saved.ok && saved.value) {
        set({ status: get().result ? 'done' : 'idle', offer: { ...saved.value, request }, elapsedMs: null });
        return;
      }
    }
    const r = await api.shipments.search({ request });
    // A cancelled or superseded run's answer is dropped: the screen shows what the user last asked for.
    if (mine !== runSeq) return;
    const elapsedMs = performance.now() - startedAt;
    if (r.ok) {
      set({ status: 'done', request, result: r.value, error: null, elapsedMs, overLimitConfirmed: false, answers: get().answers + 1 });
      set({ datasetId: await saveToLibrary('shipments.search', request, r.value) });
    } else {
      set({ status: 'error', error: r.error, elapsedMs, answers: get().answers + 1 });
    }
    void refreshUsage();
  },
  cancel() {
    if (get().status !== 'running') return;
    runSeq++;
    set({ status: 'cancelled', elapsedMs: null });
  },
}));
