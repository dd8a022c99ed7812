import type { Preset, PresetsImportResult, PresetsSetAside } from '@shared/presets/presets-contract';
import type { BridgeError, BridgeResult } from '@shared/ipc/errors';
import { presetNameProblem } from '@shared/presets/preset-name';
import { getApi } from '../../bridge/api';
import { defineStore } from '../../store';
import { draftToFilter, validateDraft } from '../filters';
import { filterStore, type FilterStore } from '../filters';

export interface PresetsData {
  presets: Preset[];
  loaded: boolean;
  error: BridgeError | null;
  lastImport: PresetsImportResult | null;
  /** The preset last loaded into the form, to offer "update" rather than only "save as new". */
  activeId: string | null;
  /** Presets main could not read on start; shown until the user dismisses it. */
  setAside: PresetsSetAside | null;
  /** The side list's search text. */
  query: string;
  /** The preset whose name is being edited in place. */
  renamingId: string | null;
}

export interface PresetsActions {
  load(): Promise<boolean>;
  dismissSetAside(): void;
  dismissImportReport(): void;
  /** Saves the form's filter as a new preset. */
  saveCurrent(name: string, store?: FilterStore): Promise<boolean>;
  /** Replaces a preset's filter with the form's. */
  overwrite(id: string, name: string, store?: FilterStore): Promise<boolean>;
  rename(id: string, name: string): Promise<boolean>;
  duplicate(id: string): Promise<boolean>;
  remove(id: string): Promise<boolean>;
  move(id: string, direction: 'up' | 'down'): Promise<boolean>;
  /** Drag and drop: puts the preset at `toIndex` of the full list. */
  moveTo(id: string, toIndex: number): Promise<boolean>;
  setQuery(query: string): void;
  startRename(id: string): void;
  cancelRename(): void;
  /** Saves the new name; false (and the field stays open) when main refuses it. */
  commitRename(id: string, name: string): Promise<boolean>;
  dismissError(): void;
  useInForm(id: string, store?: FilterStore): void;
  importText(text: string): Promise<void>;
  /** Exports through a Blob link: works the same in Electron and in the browser host, no dialog needed. */
  exportToDownload(): Promise<void>;
}

export type PresetsState = PresetsData & PresetsActions;

const initialState: PresetsData = {
  presets: [],
  loaded: false,
  error: null,
  lastImport: null,
  activeId: null,
  setAside: null,
  query: '',
  renamingId: null,
};

/** Presets whose name holds every word of the query, in list order, with their place in the full list. */
export function filterPresets(
  presets: readonly Preset[],
  query: string,
): { preset: Preset; index: number }[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return presets
    .map((preset, index) => ({ preset, index }))
    .filter(({ preset }) => words.every((w) => preset.name.toLowerCase().includes(w)));
}

/** The set-aside notice as the analyst reads it. */
export function describeSetAside({ count, file }: PresetsSetAside): string {
  if (count === null) return `Your saved presets could not be read and were kept in ${file}.`;
  return count === 1
    ? `1 preset could not be read and was kept in ${file}. Your other presets are safe.`
    : `${count} presets could not be read and were kept in ${file}. Your other presets are safe.`;
}

/** A name main would refuse is caught here, so the user sees why at the field instead of a bridge error. */
function refuseBadName(name: string): boolean {
  return presetNameProblem(name) !== null;
}

export const usePresetsStore = defineStore<PresetsData, PresetsActions>(initialState, (set, get) => {
  async function apply(r: Promise<BridgeResult<Preset[]>>): Promise<boolean> {
    const res = await r;
    if (res.ok) set({ presets: res.value, loaded: true, error: null, lastImport: null });
    else set({ error: res.error });
    return res.ok;
  }
  return {
    setQuery: (query) => set({ query }),
    startRename: (id) => set({ renamingId: id }),
    cancelRename: () => set({ renamingId: null }),
    async commitRename(id, name) {
      const current = get().presets.find((p) => p.id === id);
      if (current && current.name === name.trim()) {
        set({ renamingId: null });
        return true;
      }
      const ok = await get().rename(id, name);
      if (ok && get().renamingId === id) set({ renamingId: null });
      return ok;
    },
    dismissError: () => set({ error: null }),
    moveTo: (id, toIndex) => apply(getApi().presets.reorder({ id, toIndex })),
    async load() {
      const r = await getApi().presets.list();
      if (!r.ok) {
        set({ error: r.error });
        return false;
      }
      // Main hands the notice out once; keep an earlier one that is still on screen.
      const setAside = r.value.setAside ?? get().setAside;
      set({ presets: r.value.presets, loaded: true, error: null, setAside });
      return true;
    },
    dismissSetAside: () => set({ setAside: null }),
    dismissImportReport: () => set({ lastImport: null }),
    async saveCurrent(name, store = filterStore) {
      if (refuseBadName(name)) return false;
      const ok = await apply(getApi().presets.save({ name, filter: draftToFilter(store.getState().draft) }));
      if (ok) {
        const list = get().presets;
        set({ activeId: list[list.length - 1]?.id ?? null });
      }
      return ok;
    },
    overwrite(id, name, store = filterStore) {
      if (refuseBadName(name)) return Promise.resolve(false);
      return apply(getApi().presets.save({ id, name, filter: draftToFilter(store.getState().draft) }));
    },
    rename: (id, name) =>
      refuseBadName(name) ? Promise.resolve(false) : apply(getApi().presets.rename({ id, name })),
    duplicate: (id) => apply(getApi().presets.duplicate({ id })),
    async remove(id) {
      const ok = await apply(getApi().presets.delete({ id }));
      if (ok && get().activeId === id) set({ activeId: null });
      return ok;
    },
    move: (id, direction) => apply(getApi().presets.reorder({ id, direction })),
    useInForm(id, store = filterStore) {
      const p = get().presets.find((x) => x.id === id);
      if (!p) return;
      store.getState().load(p.filter);
      set({ activeId: id });
    },
    async importText(text) {
      const r = await getApi().presets.import({ text });
      if (r.ok) set({ presets: r.value.presets, lastImport: r.value, error: null });
      else set({ error: r.error, lastImport: null });
    },
    async exportToDownload() {
      const r = await getApi().presets.export({});
      if (!r.ok) {
        set({ error: r.error });
        return;
      }
      const url = URL.createObjectURL(new Blob([r.value], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `portolan-presets-${new Date().toISOString().slice(0, 10)}.json`;
      a.dataset.testid = 'presets-export-link';
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  };
});

/**
 * Restores the last used filter on start and keeps it saved while the user edits. Only valid filters
 * are saved (main rejects others), debounced so typing does not write a file per keystroke. Called by
 * the app (connectStores); returns the disconnect.
 */
export function connectLastFilter(store: FilterStore = filterStore): () => void {
  let live = true;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let unsubscribe: (() => void) | null = null;
  void getApi()
    .presets.getLast()
    .then((last) => {
      if (!live) return;
      if (last.ok && last.value && store.getState().version === 0) store.getState().load(last.value);
      unsubscribe = store.subscribe((s, prev) => {
        if (s.version === prev.version) return;
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          const { draft } = store.getState();
          if (validateDraft(draft, 'filter').valid)
            void getApi().presets.setLast({ filter: draftToFilter(draft) });
        }, 600);
      });
    });
  return () => {
    live = false;
    if (timer) clearTimeout(timer);
    unsubscribe?.();
  };
}
