import { defineStore } from '../../store';
import type { CellRange, RangeBounds, RangeSummary } from './cell-range';

/** One grid's selected block and its figures; the record open in the record view. */
export interface GridSelection {
  range: CellRange;
  bounds: RangeBounds;
  summary: RangeSummary;
}

/** Where the record view reads its record: a grid and a displayed row. */
export interface OpenRecord {
  gridId: string;
  row: number;
}

export interface GridSelectionData {
  /** Per grid id: what is selected now (absent: nothing). */
  selections: Readonly<Record<string, GridSelection>>;
  record: OpenRecord | null;
}

export interface GridSelectionActions {
  select(gridId: string, selection: GridSelection | null): void;
  openRecord(gridId: string, row: number): void;
  closeRecord(): void;
}

/**
 * The grids' selections for the status bars and the record view. The grid's hook (`useCellRange`)
 * computes the block and its figures from ag-grid; components read them here with selectors.
 */
export const useGridSelectionStore = defineStore<GridSelectionData, GridSelectionActions>(
  { selections: {}, record: null },
  (set) => ({
    select(gridId, selection) {
      set((s) => {
        if (!selection) {
          if (!(gridId in s.selections)) return s;
          const rest = { ...s.selections };
          delete rest[gridId];
          return { selections: rest };
        }
        return { selections: { ...s.selections, [gridId]: selection } };
      });
    },
    openRecord(gridId, row) {
      set({ record: { gridId, row } });
    },
    closeRecord() {
      set({ record: null });
    },
  }),
);
