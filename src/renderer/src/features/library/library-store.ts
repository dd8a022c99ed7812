import { create } from 'zustand';
import type { BridgeError } from '@shared/ipc/errors';
import type { DatasetKind, DatasetView, EquivalentView, GridFilterModel } from '@shared/library/library-contract';
import { api } from '../../bridge/api';
import { useAppStore } from '../../app/app-store';

export interface LibraryQuery {
  search: string;
  kind: DatasetKind | '';
  tag: string;
}

/** What the open dataset grid starts with: a filter handed over by a drill-down or a saved-copy offer. */
export interface OpenRequest {
  id: string;
  filterModel: GridFilterModel | null;
  /** Shown above the grid ("Importer ACME Ltd"). */
  label: string | null;
  /** Bumped on every open, so opening the same dataset again re-applies the filter. */
  seq: number;
}

export interface LibraryState {
  query: LibraryQuery;
  datasets: DatasetView[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: BridgeError | null;
  open: OpenRequest | null;
  importStatus: { state: 'idle' | 'running' | 'done' | 'error'; message: string | null; error: BridgeError | null };
  setQuery(q: Partial<LibraryQuery>): void;
  refresh(): Promise<void>;
  openDataset(id: string, opts?: { filterModel?: GridFilterModel | null; label?: string | null }): void;
  closeDataset(): void;
  rename(id: string, name: string): Promise<BridgeError | null>;
  setTags(id: string, tags: string[]): Promise<BridgeError | null>;
  setNotes(id: string, notes: string): Promise<BridgeError | null>;
  remove(id: string): Promise<BridgeError | null>;
  importFile(file: File): Promise<void>;
}

let listSeq = 0;
let openSeq = 0;

/** Neither host hands the renderer a picked file's path: its bytes travel as base64. */
async function toBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** Splits "steel, q1 ,, 2024" into tags. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];
}

export const useLibraryStore = create<LibraryState>()((set, get) => {
  function replace(d: DatasetView): void {
    set((s) => ({ datasets: s.datasets.map((x) => (x.id === d.id ? d : x)) }));
  }
  async function edit(p: Promise<{ ok: true; value: DatasetView } | { ok: false; error: BridgeError }>): Promise<BridgeError | null> {
    const r = await p;
    if (!r.ok) return r.error;
    replace(r.value);
    return null;
  }
  return {
    query: { search: '', kind: '', tag: '' },
    datasets: [],
    status: 'idle',
    error: null,
    open: null,
    importStatus: { state: 'idle', message: null, error: null },
    setQuery(q) {
      set((s) => ({ query: { ...s.query, ...q } }));
      void get().refresh();
    },
    async refresh() {
      const mine = ++listSeq;
      const { search, kind, tag } = get().query;
      set({ status: get().datasets.length ? 'ready' : 'loading' });
      const r = await api.library.list({
        ...(search.trim() ? { search: search.trim() } : {}),
        ...(kind ? { kind } : {}),
        ...(tag.trim() ? { tag: tag.trim() } : {}),
      });
      if (mine !== listSeq) return;
      if (r.ok) set({ datasets: r.value, status: 'ready', error: null });
      else set({ status: 'error', error: r.error });
    },
    openDataset(id, opts = {}) {
      set({ open: { id, filterModel: opts.filterModel ?? null, label: opts.label ?? null, seq: ++openSeq } });
    },
    closeDataset() {
      set({ open: null });
    },
    rename: (id, name) => edit(api.library.rename({ id, name })),
    setTags: (id, tags) => edit(api.library.setTags({ id, tags })),
    setNotes: (id, notes) => edit(api.library.setNotes({ id, notes })),
    async remove(id) {
      const r = await api.library.delete({ id });
      if (!r.ok) return r.error;
      set((s) => ({ datasets: s.datasets.filter((d) => d.id !== id), open: s.open?.id === id ? null : s.open }));
      return null;
    },
    async importFile(file) {
      set({ importStatus: { state: 'running', message: `Importing ${file.name}…`, error: null } });
      const r = await api.library.import({ fileName: file.name, contentBase64: await toBase64(file) });
      if (r.ok) {
        set({
          importStatus: { state: 'done', message: `Imported ${r.value.rows.toLocaleString('en-US')} rows from ${file.name}`, error: null },
        });
        await get().refresh();
      } else {
        set({ importStatus: { state: 'error', message: null, error: r.error } });
      }
    },
  };
});

/** From anywhere (search page offer, jobs tray): go to the Library page with a dataset open. */
export function showDataset(id: string, opts: { filterModel?: GridFilterModel | null; label?: string | null } = {}): void {
  useLibraryStore.getState().openDataset(id, opts);
  useAppStore.getState().navigate('library');
}

/** After main saved a result: the list is stale. */
export function libraryChanged(): void {
  void useLibraryStore.getState().refresh();
}

/** "3 h ago", "2 days ago": how old a saved copy is, in the unit a person would use. */
export function describeAge(seconds: number): string {
  if (seconds < 60) return 'just now';
  const m = Math.round(seconds / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(seconds / 3600);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(seconds / 86_400)} days ago`;
}

export type { EquivalentView };
