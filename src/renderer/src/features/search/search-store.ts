import { create } from 'zustand';
import type { ShipmentSearchRequest, ShipmentSearchResponse } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
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
  setSize(size: number): void;
  confirmOverLimit(yes: boolean): void;
  run(): Promise<void>;
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
  setSize: (size) => set({ size, overLimitConfirmed: false }),
  confirmOverLimit: (yes) => set({ overLimitConfirmed: yes }),
  async run() {
    const { size } = get();
    if (!validateCurrent('shipmentSearch', { size }).valid) return;
    const request: ShipmentSearchRequest = { ...currentFilter(), size };
    const mine = ++runSeq;
    const startedAt = performance.now();
    set({ status: 'running', error: null, startedAt, elapsedMs: null });
    const r = await api.shipments.search({ request });
    // A cancelled or superseded run's answer is dropped: the screen shows what the user last asked for.
    if (mine !== runSeq) return;
    const elapsedMs = performance.now() - startedAt;
    if (r.ok) {
      set({ status: 'done', request, result: r.value, error: null, elapsedMs, overLimitConfirmed: false });
      await saveToLibrary('shipments.search', request, r.value);
    } else {
      set({ status: 'error', error: r.error, elapsedMs });
    }
    void refreshUsage();
  },
  cancel() {
    if (get().status !== 'running') return;
    runSeq++;
    set({ status: 'cancelled', elapsedMs: null });
  },
}));
