import { create } from 'zustand';
import type { Preset, PresetsImportResult, PresetsSetAside } from '@shared/presets/presets-contract';
import type { BridgeError, BridgeResult } from '@shared/ipc/errors';
import { presetNameProblem } from '@shared/presets/preset-name';
import { api } from '../../bridge/api';
import { draftToFilter, validateDraft } from '../filters/filter-model';
import { filterStore, type FilterStore } from '../filters/filter-store';

export interface PresetsState {
  presets: Preset[];
  loaded: boolean;
  error: BridgeError | null;
  lastImport: PresetsImportResult | null;
  /** The preset last loaded into the form, to offer "update" rather than only "save as new". */
  activeId: string | null;
  /** Presets main could not read on start; shown until the user dismisses it. */
  setAside: PresetsSetAside | null;
}

export const usePresetsStore = create<PresetsState>()(() => ({
  presets: [],
  loaded: false,
  error: null,
  lastImport: null,
  activeId: null,
  setAside: null,
}));

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

async function apply(r: Promise<BridgeResult<Preset[]>>): Promise<boolean> {
  const res = await r;
  if (res.ok) usePresetsStore.setState({ presets: res.value, loaded: true, error: null });
  else usePresetsStore.setState({ error: res.error });
  return res.ok;
}

export const presetActions = {
  async load(): Promise<boolean> {
    const r = await api.presets.list();
    if (!r.ok) {
      usePresetsStore.setState({ error: r.error });
      return false;
    }
    // Main hands the notice out once; keep an earlier one that is still on screen.
    const setAside = r.value.setAside ?? usePresetsStore.getState().setAside;
    usePresetsStore.setState({ presets: r.value.presets, loaded: true, error: null, setAside });
    return true;
  },
  dismissSetAside: () => usePresetsStore.setState({ setAside: null }),
  dismissImportReport: () => usePresetsStore.setState({ lastImport: null }),
  async saveCurrent(name: string, store: FilterStore = filterStore): Promise<boolean> {
    if (refuseBadName(name)) return false;
    const ok = await apply(api.presets.save({ name, filter: draftToFilter(store.getState().draft) }));
    if (ok) {
      const list = usePresetsStore.getState().presets;
      usePresetsStore.setState({ activeId: list[list.length - 1]?.id ?? null });
    }
    return ok;
  },
  overwrite(id: string, name: string, store: FilterStore = filterStore) {
    if (refuseBadName(name)) return Promise.resolve(false);
    return apply(api.presets.save({ id, name, filter: draftToFilter(store.getState().draft) }));
  },
  rename: (id: string, name: string) =>
    refuseBadName(name) ? Promise.resolve(false) : apply(api.presets.rename({ id, name })),
  duplicate: (id: string) => apply(api.presets.duplicate({ id })),
  async remove(id: string) {
    const ok = await apply(api.presets.delete({ id }));
    if (ok && usePresetsStore.getState().activeId === id) usePresetsStore.setState({ activeId: null });
    return ok;
  },
  move: (id: string, direction: 'up' | 'down') => apply(api.presets.reorder({ id, direction })),
  useInForm(id: string, store: FilterStore = filterStore) {
    const p = usePresetsStore.getState().presets.find((x) => x.id === id);
    if (!p) return;
    store.getState().load(p.filter);
    usePresetsStore.setState({ activeId: id });
  },
  async importText(text: string): Promise<void> {
    const r = await api.presets.import({ text });
    if (r.ok) usePresetsStore.setState({ presets: r.value.presets, lastImport: r.value, error: null });
    else usePresetsStore.setState({ error: r.error, lastImport: null });
  },
  /** Exports through a Blob link: works the same in Electron and in the browser host, no dialog needed. */
  async exportToDownload(): Promise<void> {
    const r = await api.presets.export({});
    if (!r.ok) {
      usePresetsStore.setState({ error: r.error });
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

let lastSyncStarted = false;

/**
 * Restores the last used filter on start and keeps it saved while the user edits. Only valid filters
 * are saved (main rejects others), debounced so typing does not write a file per keystroke.
 */
export async function startLastFilterSync(store: FilterStore = filterStore): Promise<void> {
  if (lastSyncStarted) return;
  lastSyncStarted = true;
  const last = await api.presets.getLast();
  if (last.ok && last.value && store.getState().version === 0) store.getState().load(last.value);
  let timer: ReturnType<typeof setTimeout> | null = null;
  store.subscribe((s, prev) => {
    if (s.version === prev.version) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      const { draft } = store.getState();
      if (validateDraft(draft, 'filter').valid) void api.presets.setLast({ filter: draftToFilter(draft) });
    }, 600);
  });
}
