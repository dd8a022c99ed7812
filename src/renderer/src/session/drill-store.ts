import type { Drill } from '@shared/analysis/analysis-contract';
import { defineStore } from '../store';
import { useSessionStore } from './session-store';

/**
 * The hand-over from the analysis views to the dataset grid: a drill-down puts a Drill here and goes
 * to the Library page, which reads `pending` (dataset id + grid filterModel + label), opens that
 * dataset with the filterModel applied, and calls `take()` so it is applied once.
 */
export interface DrillData {
  pending: Drill | null;
  /** Every drill the user asked for, newest last (the Library page may show "back to analysis"). */
  history: Drill[];
}

export interface DrillActions {
  open(drill: Drill): void;
  take(): Drill | null;
}

export type DrillState = DrillData & DrillActions;

export const useDrillStore = defineStore<DrillData, DrillActions>(
  { pending: null, history: [] },
  (set, get) => ({
    open(drill) {
      set((s) => ({ pending: drill, history: [...s.history.slice(-19), drill] }));
      useSessionStore.getState().navigate('library');
    },
    take() {
      const p = get().pending;
      if (p) set({ pending: null });
      return p;
    },
  }),
);
