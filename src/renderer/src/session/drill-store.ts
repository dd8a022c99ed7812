import { create } from 'zustand';
import type { Drill } from '@shared/analysis/analysis-contract';
import { useSessionStore } from './session-store';

/**
 * The hand-over from the analysis views to the dataset grid: a drill-down puts a Drill here and goes
 * to the Library page, which reads `pending` (dataset id + grid filterModel + label), opens that
 * dataset with the filterModel applied, and calls `take()` so it is applied once.
 */
export interface DrillState {
  pending: Drill | null;
  /** Every drill the user asked for, newest last (the Library page may show "back to analysis"). */
  history: Drill[];
  open(drill: Drill): void;
  take(): Drill | null;
}

export const useDrillStore = create<DrillState>()((set, get) => ({
  pending: null,
  history: [],
  open(drill) {
    set((s) => ({ pending: drill, history: [...s.history.slice(-19), drill] }));
    useSessionStore.getState().navigate('library');
  },
  take() {
    const p = get().pending;
    if (p) set({ pending: null });
    return p;
  },
}));
