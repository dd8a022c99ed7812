import { create } from 'zustand';
import type { BridgeError } from '@shared/ipc/errors';
import {
  MAX_IMPORT_BYTES,
  checkName,
  checkNotes,
  checkTags,
  importTooLargeMessage,
  uniqueTags,
} from '@shared/library/dataset-fields';
import type {
  DatasetKind,
  DatasetView,
  EquivalentView,
  GridFilterModel,
} from '@shared/library/library-contract';
import { api } from '../../bridge/api';
import { useSessionStore } from '../../session/session-store';

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

/**
 * The open dataset's own metadata, fetched by id: the list may be filtered so that it no longer
 * shows the open dataset, and that must not close it.
 */
export interface OpenMeta {
  state: 'loading' | 'ready' | 'missing' | 'error';
  dataset: DatasetView | null;
  error: BridgeError | null;
}

export type EditField = 'name' | 'tags' | 'notes';

/** The editor's last outcome. Kept here because the editor remounts when the saved values change. */
export interface EditNotice {
  id: string;
  field: EditField;
  ok: boolean;
  text: string;
}

export interface LibraryState {
  query: LibraryQuery;
  datasets: DatasetView[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: BridgeError | null;
  open: OpenRequest | null;
  openMeta: OpenMeta | null;
  editNotice: EditNotice | null;
  /** The one dataset whose delete is being confirmed. */
  confirmingDelete: string | null;
  importStatus: {
    state: 'idle' | 'running' | 'done' | 'error';
    message: string | null;
    error: BridgeError | null;
    /** Values the import kept that will not sort or filter as dates or numbers: one sentence each. */
    warnings?: readonly string[];
  };
  setQuery(q: Partial<LibraryQuery>): void;
  refresh(): Promise<void>;
  openDataset(id: string, opts?: { filterModel?: GridFilterModel | null; label?: string | null }): void;
  /** Fetches the open dataset's metadata again (main changed the library). */
  reloadOpen(): Promise<void>;
  closeDataset(): void;
  /** Each resolves to whether the change was saved; what to tell the analyst is in `editNotice`. */
  rename(id: string, name: string): Promise<boolean>;
  setTags(id: string, text: string): Promise<boolean>;
  setNotes(id: string, notes: string): Promise<boolean>;
  clearEditNotice(field: EditField): void;
  askDelete(id: string): void;
  cancelDelete(): void;
  remove(id: string): Promise<BridgeError | null>;
  /** How a file to import is picked: in the page and uploaded (browser host), or in main's dialog (desktop). */
  importPicker: 'upload' | 'dialog';
  /** The browser host: a file picked in the page, uploaded to the host, then imported by its handle. */
  importFile(file: File): Promise<void>;
  /** Electron: main's open dialog picks the file; it is imported by the handle main issues. */
  chooseAndImport(): Promise<void>;
}

let listSeq = 0;
let openSeq = 0;
let metaSeq = 0;

/** Splits "steel, Steel, q1 ,, 2024" into tags: trimmed, no empties, no case duplicates. */
export function parseTags(text: string): string[] {
  return uniqueTags(text.split(','));
}

type RemovalListener = (id: string) => void;
const removalListeners = new Set<RemovalListener>();

/** Tells holders of a dataset id (a saved-copy offer) that it was deleted here. */
export function onDatasetRemoved(listener: RemovalListener): () => void {
  removalListeners.add(listener);
  return () => {
    removalListeners.delete(listener);
  };
}

const SAVED: Record<EditField, string> = { name: 'Name saved', tags: 'Tags saved', notes: 'Notes saved' };

export const useLibraryStore = create<LibraryState>()((set, get) => {
  /** Imports the file main holds behind `handle`, then says what came in. */
  async function runImport(handle: string, fileName: string): Promise<void> {
    const r = await api.library.import({ file: handle });
    if (r.ok) {
      set({
        importStatus: {
          state: 'done',
          message: `Imported ${r.value.rows.toLocaleString('en-US')} ${r.value.rows === 1 ? 'row' : 'rows'} from ${fileName}`,
          error: null,
          warnings: (r.value.warnings ?? []).map((w) => w.message),
        },
      });
      await get().refresh();
    } else {
      set({ importStatus: { state: 'error', message: null, error: r.error } });
    }
  }

  function replace(d: DatasetView): void {
    set((s) => ({
      datasets: s.datasets.map((x) => (x.id === d.id ? d : x)),
      openMeta: s.openMeta?.dataset?.id === d.id ? { ...s.openMeta, dataset: d } : s.openMeta,
    }));
  }
  async function edit(
    id: string,
    field: EditField,
    problem: string | null,
    send: () => Promise<{ ok: true; value: DatasetView } | { ok: false; error: BridgeError }>,
  ): Promise<boolean> {
    if (problem) {
      set({ editNotice: { id, field, ok: false, text: problem } });
      return false;
    }
    const r = await send();
    if (!r.ok) {
      set({ editNotice: { id, field, ok: false, text: r.error.message } });
      return false;
    }
    replace(r.value);
    set({ editNotice: { id, field, ok: true, text: SAVED[field] } });
    return true;
  }
  return {
    query: { search: '', kind: '', tag: '' },
    datasets: [],
    status: 'idle',
    error: null,
    open: null,
    openMeta: null,
    editNotice: null,
    confirmingDelete: null,
    importStatus: { state: 'idle', message: null, error: null },
    importPicker: api.fileTransfer ? 'upload' : 'dialog',
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
      const s = get();
      // Shown at once when already known; the fetch by id below brings it up to date.
      const known =
        s.datasets.find((d) => d.id === id) ?? (s.openMeta?.dataset?.id === id ? s.openMeta.dataset : null);
      set({
        open: { id, filterModel: opts.filterModel ?? null, label: opts.label ?? null, seq: ++openSeq },
        openMeta: { state: known ? 'ready' : 'loading', dataset: known, error: null },
        editNotice: s.editNotice?.id === id ? s.editNotice : null,
      });
      void get().reloadOpen();
    },
    async reloadOpen() {
      const id = get().open?.id;
      if (!id) return;
      const mine = ++metaSeq;
      const r = await api.library.get({ id });
      if (mine !== metaSeq || get().open?.id !== id) return;
      if (r.ok) set({ openMeta: { state: 'ready', dataset: r.value, error: null } });
      else if (r.error.kind === 'NotFound')
        set({ openMeta: { state: 'missing', dataset: null, error: r.error } });
      // A failed refresh keeps what is already shown.
      else
        set((s) => ({
          openMeta: s.openMeta?.dataset ? s.openMeta : { state: 'error', dataset: null, error: r.error },
        }));
    },
    closeDataset() {
      metaSeq++;
      set({ open: null, openMeta: null, editNotice: null });
    },
    rename: (id, name) =>
      edit(id, 'name', checkName(name), () => api.library.rename({ id, name: name.trim() })),
    setTags(id, text) {
      const tags = parseTags(text);
      return edit(id, 'tags', checkTags(tags), () => api.library.setTags({ id, tags }));
    },
    setNotes: (id, notes) => edit(id, 'notes', checkNotes(notes), () => api.library.setNotes({ id, notes })),
    clearEditNotice(field) {
      if (get().editNotice?.field === field) set({ editNotice: null });
    },
    askDelete(id) {
      set({ confirmingDelete: id });
    },
    cancelDelete() {
      set({ confirmingDelete: null });
    },
    async remove(id) {
      const r = await api.library.delete({ id });
      set((s) => ({ confirmingDelete: s.confirmingDelete === id ? null : s.confirmingDelete }));
      if (!r.ok) return r.error;
      const closing = get().open?.id === id;
      if (closing) metaSeq++;
      set((s) => ({
        datasets: s.datasets.filter((d) => d.id !== id),
        ...(closing ? { open: null, openMeta: null, editNotice: null } : {}),
      }));
      for (const l of removalListeners) l(id);
      return null;
    },
    async importFile(file) {
      if (get().importStatus.state === 'running') return;
      const transfer = api.fileTransfer;
      // Refused before a byte is sent: sending a file this big only to be refused took seconds.
      if (file.size > MAX_IMPORT_BYTES || !transfer) {
        set({
          importStatus: {
            state: 'error',
            message: null,
            error: transfer
              ? { kind: 'InvalidInput', message: importTooLargeMessage(file.name) }
              : { kind: 'Conflict', message: 'Choose the file with Import a file….' },
          },
        });
        return;
      }
      set({ importStatus: { state: 'running', message: `Importing ${file.name}…`, error: null } });
      const uploaded = await transfer.upload(file, file.name);
      if (!uploaded.ok) {
        set({ importStatus: { state: 'error', message: null, error: uploaded.error } });
        return;
      }
      await runImport(uploaded.value.handle, file.name);
    },
    async chooseAndImport() {
      if (get().importStatus.state === 'running') return;
      const chosen = await api.library.chooseImportFile();
      if (!chosen.ok) {
        set({ importStatus: { state: 'error', message: null, error: chosen.error } });
        return;
      }
      if (!chosen.value) return; // the analyst cancelled the dialog
      const { handle, name } = chosen.value;
      set({ importStatus: { state: 'running', message: `Importing ${name}…`, error: null } });
      await runImport(handle, name);
    },
  };
});

/** From anywhere (search page offer, jobs tray): go to the Library page with a dataset open. */
export function showDataset(
  id: string,
  opts: { filterModel?: GridFilterModel | null; label?: string | null } = {},
): void {
  useLibraryStore.getState().openDataset(id, opts);
  useSessionStore.getState().navigate('library');
}

/** After main saved a result: the list, and maybe the open dataset (a job finished it), are stale. */
export function libraryChanged(): void {
  void useLibraryStore.getState().refresh();
  void useLibraryStore.getState().reloadOpen();
}

/**
 * Opens an offered saved copy after checking it is still in the library (it may have been deleted
 * since it was offered); if it is gone, opens the copy `findAgain` finds instead. Resolves to the
 * copy opened, or null when no copy answers any more.
 */
export async function openSavedCopy(
  offer: EquivalentView,
  findAgain: () => Promise<EquivalentView | null>,
): Promise<EquivalentView | null> {
  const r = await api.library.get({ id: offer.dataset.id });
  const copy = r.ok || r.error.kind !== 'NotFound' ? offer : await findAgain();
  if (copy) showDataset(copy.dataset.id);
  return copy;
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
