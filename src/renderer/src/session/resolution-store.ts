import type { ResolutionStatus } from '@shared/resolution/resolution-contract';
import { getApi } from '../bridge/api';
import { defineStore, latestWins } from '../store';

/**
 * The library's firm resolution as every page sees it: the last status main reported (the review
 * queue's count for the navigation) and a counter that moves each time main announces a new
 * resolution, so views that show resolved firms (Analysis, the dataset grid, the Firms page) read again.
 */
export interface ResolutionData {
  status: ResolutionStatus | null;
  /** Bumped on every `resolution.changed`: a decision, an alias import, or a resolution after new data. */
  version: number;
}

export interface ResolutionActions {
  /** Reads the status main keeps (no resolution runs). */
  refresh(): Promise<void>;
  /** Main announced a resolution (or a call answered with a newer status than the one shown). */
  changed(status: ResolutionStatus): void;
}

export const useResolutionStore = defineStore<ResolutionData, ResolutionActions>(
  { status: null, version: 0 },
  (set, get, { onReset }) => {
    const reads = latestWins();
    onReset(() => reads.supersede());
    return {
      async refresh() {
        const turn = reads.begin();
        const r = await getApi().resolution.status();
        if (turn.current && r.ok) set({ status: r.value });
      },
      changed(status) {
        reads.supersede();
        const before = get().status;
        // An answer that only repeats the status shown changes nothing (no read again anywhere).
        if (before && sameStatus(before, status)) return;
        set((s) => ({ status, version: s.version + 1 }));
      },
    };
  },
);

function sameStatus(a: ResolutionStatus, b: ResolutionStatus): boolean {
  return a.resolvedAt === b.resolvedAt && a.decisions === b.decisions && a.review === b.review;
}

/** The review queue's size, for the navigation (null before anything is known). */
export const selectReviewCount = (s: ResolutionData): number | null => s.status?.review ?? null;

/** Follows main's announcements; reads the status once. Called by the app (connectStores). */
export function connectResolutionStore(): () => void {
  const off = getApi().on('resolution.changed', (status) => useResolutionStore.getState().changed(status));
  void useResolutionStore.getState().refresh();
  return off;
}
