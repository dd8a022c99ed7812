import { MAX_SUMMARY_LIMIT, type FirmRole, type UnitValues } from '@shared/analysis/analysis-contract';
import type { BridgeError } from '@shared/ipc/errors';
import { getApi } from '../../bridge/api';
import { useDrillStore } from '../../session';
import { defineStore, latestWins } from '../../store';
import { useAnalysisStore } from './analysis-store';
import { unitValuesTable } from './table-export';

export interface UnitValuesData {
  role: FirmRole;
  /** HS digits the view is narrowed to ("" for all). */
  hs: string;
  value: UnitValues | null;
  /** The HS digits `value` was read with (the field may have changed since without Enter). */
  valueHs: string;
  loading: boolean;
  error: BridgeError | null;
}

export interface UnitValuesActions {
  load(): Promise<void>;
  setRole(role: FirmRole): Promise<void>;
  setHs(hs: string): void;
  drill(index: number): void;
  exportXlsx(): Promise<void>;
}

export const useUnitValuesStore = defineStore<UnitValuesData, UnitValuesActions>(
  { role: 'importer', hs: '', value: null, valueHs: '', loading: false, error: null },
  (set, get, tools) => {
    const turns = latestWins();
    tools.onReset(() => turns.supersede());
    return {
      async load() {
        const datasetId = useAnalysisStore.getState().datasetId;
        if (!datasetId) return;
        const { role, hs } = get();
        if (hs && !/^\d{1,6}$/.test(hs)) {
          set({ error: { kind: 'InvalidInput', message: 'HS code: up to 6 digits.' } });
          return;
        }
        const turn = turns.begin();
        set({ loading: true, error: null });
        const r = await getApi().analysis.unitValues({ datasetId, role, ...(hs ? { hs } : {}) });
        if (!turn.current) return;
        set(
          r.ok
            ? { value: r.value, valueHs: hs, loading: false }
            : { value: null, loading: false, error: r.error },
        );
      },
      async setRole(role) {
        set({ role });
        await get().load();
      },
      setHs(hs) {
        set({ hs: hs.trim() });
      },
      drill(index) {
        const row = get().value?.rows[index];
        if (row) useDrillStore.getState().open(row.drill);
      },
      async exportXlsx() {
        const shown = get().value;
        if (!shown) return;
        // The view reads the groups furthest from their median; the file has every group, as many as fit.
        let v = shown;
        if (shown.groups > shown.rows.length) {
          const r = await getApi().analysis.unitValues({
            datasetId: shown.datasetId,
            role: shown.role,
            limit: MAX_SUMMARY_LIMIT,
            ...(get().valueHs ? { hs: get().valueHs } : {}),
          });
          if (!r.ok) {
            set({ error: r.error });
            return;
          }
          v = r.value;
        }
        const name = useAnalysisStore.getState().datasets.value?.find((d) => d.id === v.datasetId)?.name;
        await useAnalysisStore.getState().exportTable(unitValuesTable(v, name));
      },
    };
  },
);
