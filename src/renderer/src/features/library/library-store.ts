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
import { getApi } from '../../bridge/api';
import { useDatasetHandover } from '../../session';
import { defineStore, latestWins } from '../../store';
import { connectImportStore, useImportStore } from './import-store';

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

/** One dataset of the list: the newest version of its series, and how many versions it has. */
export interface LibraryEntry {
  dataset: DatasetView;
  versions: number;
}

/** A dataset's series (its versions); a dataset from an older main, without one, is its own. */
export const seriesOf = (d: DatasetView): string => d.series ?? `id:${d.id}`;

/**
 * The list's entries: one per series, the newest version first (the library lists newest first), so
 * five searches of "Shipments · all" are one dataset with five versions, not five datasets.
 */
export function groupVersions(datasets: readonly DatasetView[]): LibraryEntry[] {
  const bySeries = new Map<string, LibraryEntry>();
  for (const d of datasets) {
    const key = seriesOf(d);
    const hit = bySeries.get(key);
    if (hit) hit.versions += 1;
    else bySeries.set(key, { dataset: d, versions: 1 });
  }
  return [...bySeries.values()];
}

/** The editor's last outcome. Kept here because the editor remounts when the saved values change. */
export interface EditNotice {
  id: string;
  field: EditField;
  ok: boolean;
  text: string;
}

export interface LibraryData {
  query: LibraryQuery;
  datasets: DatasetView[];
  /** The datasets as the list shows them: one entry per series (`groupVersions`). */
  entries: LibraryEntry[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: BridgeError | null;
  /**
   * Said once the library opened: its file was damaged and kept aside, and a fresh library started.
   * `undefined` until asked; null when there is nothing to say or the analyst dismissed it.
   */
  recoveryNotice: string | null | undefined;
  open: OpenRequest | null;
  openMeta: OpenMeta | null;
  /** Every version of the open dataset, newest first (its history); empty until known. */
  versions: DatasetView[];
  /** Whether the open dataset's header shows its name, tags and notes for editing. */
  headerOpen: boolean;
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
  /**
   * How a file to import is picked: in the page and uploaded (browser host), or in main's dialog
   * (desktop). Null: as the bridge allows (see `importPickerOf`).
   */
  importPicker: 'upload' | 'dialog' | null;
  /** File → Import a File… (menu, Ctrl/⌘+O, the palette): the Library's Import button is to start its picker. */
  importRequested: boolean;
}

export interface LibraryActions {
  setQuery(q: Partial<LibraryQuery>): void;
  refresh(): Promise<void>;
  dismissRecoveryNotice(): void;
  openDataset(id: string, opts?: { filterModel?: GridFilterModel | null; label?: string | null }): void;
  /** Fetches the open dataset's metadata again (main changed the library). */
  reloadOpen(): Promise<void>;
  closeDataset(): void;
  toggleHeader(open?: boolean): void;
  /** Each resolves to whether the change was saved; what to tell the analyst is in `editNotice`. */
  rename(id: string, name: string): Promise<boolean>;
  setTags(id: string, text: string): Promise<boolean>;
  setNotes(id: string, notes: string): Promise<boolean>;
  clearEditNotice(field: EditField): void;
  askDelete(id: string): void;
  cancelDelete(): void;
  remove(id: string): Promise<BridgeError | null>;
  /** Deletes every version of the dataset's series (the list's Delete). */
  removeAllVersions(id: string): Promise<BridgeError | null>;
  /**
   * A file dropped on the page: uploaded (browser host) or adopted by main from its path (Electron),
   * then imported as a picked one is.
   */
  dropFile(file: File): Promise<void>;
  /** The browser host: a file picked in the page, uploaded to the host, then imported by its handle. */
  importFile(file: File): Promise<void>;
  /** Electron: main's open dialog picks the file; it is imported by the handle main issues. */
  chooseAndImport(): Promise<void>;
  /** Asks the Library page's Import button to pick a file, as a click on it does (it owns the page's picker). */
  requestImport(): void;
  /** True once for each request: the Import button that takes it starts its picker. */
  takeImportRequest(): boolean;
}

export type LibraryState = LibraryData & LibraryActions;

const initialState: LibraryData = {
  query: { search: '', kind: '', tag: '' },
  datasets: [],
  entries: [],
  status: 'idle',
  error: null,
  recoveryNotice: undefined,
  open: null,
  openMeta: null,
  versions: [],
  headerOpen: false,
  editNotice: null,
  confirmingDelete: null,
  importStatus: { state: 'idle', message: null, error: null },
  importPicker: null,
  importRequested: false,
};

/** Splits "steel, Steel, q1 ,, 2024" into tags: trimmed, no empties, no case duplicates. */
export function parseTags(text: string): string[] {
  return uniqueTags(text.split(','));
}

const SAVED: Record<EditField, string> = { name: 'Name saved', tags: 'Tags saved', notes: 'Notes saved' };

export const useLibraryStore = defineStore<LibraryData, LibraryActions>(
  initialState,
  (set, get, { onReset }) => {
    const lists = latestWins();
    const metas = latestWins();
    const histories = latestWins();
    /** Counts opens, so opening the same dataset again re-applies its filter. */
    let opens = 0;
    onReset(() => {
      lists.supersede();
      metas.supersede();
      histories.supersede();
    });
    const listed = (datasets: DatasetView[]) => ({ datasets, entries: groupVersions(datasets) });
    /** Reads the open dataset's versions again (a new fetch of its query, a delete). */
    async function loadVersions(id: string): Promise<void> {
      const turn = histories.begin();
      const r = await getApi().library.versions({ id });
      if (!turn.current || get().open?.id !== id) return;
      set({ versions: r.ok ? r.value : [] });
    }
    /**
     * Previews the file main holds behind `handle` and lets the analyst map it (the import dialog,
     * `useImportStore`); when the import ends, says what came in and opens the new dataset.
     */
    async function runImport(handle: string, fileName: string): Promise<void> {
      set({ importStatus: { state: 'idle', message: null, error: null } });
      await useImportStore.getState().begin({ handle, name: fileName }, (outcome) => {
        if (outcome.kind === 'closed') return;
        if (outcome.kind === 'failed') {
          set({ importStatus: { state: 'error', message: null, error: outcome.error } });
          return;
        }
        const r = outcome.result;
        set({
          importStatus: {
            state: 'done',
            message: `Imported ${r.rows.toLocaleString('en-US')} ${r.rows === 1 ? 'row' : 'rows'} from ${fileName}`,
            error: null,
            warnings: (r.warnings ?? []).map((w) => w.message),
          },
        });
        void get().refresh();
        get().openDataset(r.dataset.id);
      });
    }
    function replace(d: DatasetView): void {
      set((s) => ({
        ...listed(s.datasets.map((x) => (x.id === d.id ? d : x))),
        versions: s.versions.map((x) => (x.id === d.id ? d : x)),
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
      setQuery(q) {
        set((s) => ({ query: { ...s.query, ...q } }));
        void get().refresh();
      },
      async refresh() {
        const turn = lists.begin();
        const { search, kind, tag } = get().query;
        set({ status: get().datasets.length ? 'ready' : 'loading' });
        const r = await getApi().library.list({
          ...(search.trim() ? { search: search.trim() } : {}),
          ...(kind ? { kind } : {}),
          ...(tag.trim() ? { tag: tag.trim() } : {}),
        });
        if (!turn.current) return;
        if (r.ok) set({ ...listed(r.value), status: 'ready', error: null });
        else set({ status: 'error', error: r.error });
        if (r.ok && get().recoveryNotice === undefined) {
          const st = await getApi().library.status();
          if (st.ok && get().recoveryNotice === undefined)
            set({ recoveryNotice: st.value.recovered?.notice ?? null });
        }
      },
      dismissRecoveryNotice() {
        set({ recoveryNotice: null });
      },
      openDataset(id, opts = {}) {
        const s = get();
        // Shown at once when already known; the fetch by id below brings it up to date.
        const known =
          s.datasets.find((d) => d.id === id) ?? (s.openMeta?.dataset?.id === id ? s.openMeta.dataset : null);
        const sameSeries = known !== null && s.versions.some((v) => v.id === id);
        set({
          open: { id, filterModel: opts.filterModel ?? null, label: opts.label ?? null, seq: ++opens },
          openMeta: { state: known ? 'ready' : 'loading', dataset: known, error: null },
          versions: sameSeries ? s.versions : [],
          editNotice: s.editNotice?.id === id ? s.editNotice : null,
        });
        void get().reloadOpen();
      },
      async reloadOpen() {
        const id = get().open?.id;
        if (!id) return;
        const turn = metas.begin();
        void loadVersions(id);
        const r = await getApi().library.get({ id });
        if (!turn.current || get().open?.id !== id) return;
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
        metas.supersede();
        histories.supersede();
        set({ open: null, openMeta: null, versions: [], editNotice: null });
      },
      toggleHeader(open) {
        set((s) => ({ headerOpen: open ?? !s.headerOpen }));
      },
      rename: (id, name) =>
        edit(id, 'name', checkName(name), () => getApi().library.rename({ id, name: name.trim() })),
      setTags(id, text) {
        const tags = parseTags(text);
        return edit(id, 'tags', checkTags(tags), () => getApi().library.setTags({ id, tags }));
      },
      setNotes: (id, notes) =>
        edit(id, 'notes', checkNotes(notes), () => getApi().library.setNotes({ id, notes })),
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
        const r = await getApi().library.delete({ id });
        set((s) => ({ confirmingDelete: s.confirmingDelete === id ? null : s.confirmingDelete }));
        if (!r.ok) return r.error;
        const closing = get().open?.id === id;
        if (closing) {
          metas.supersede();
          histories.supersede();
        }
        set((s) => ({
          ...listed(s.datasets.filter((d) => d.id !== id)),
          versions: s.versions.filter((d) => d.id !== id),
          ...(closing ? { open: null, openMeta: null, versions: [], editNotice: null } : {}),
        }));
        return null;
      },
      async removeAllVersions(id) {
        const all = await getApi().library.versions({ id });
        const ids = all.ok ? all.value.map((d) => d.id) : [id];
        for (const v of ids.includes(id) ? ids : [id, ...ids]) {
          const e = await get().remove(v);
          if (e && e.kind !== 'NotFound') return e;
        }
        return null;
      },
      async dropFile(file) {
        if (importPickerOf(get()) === 'upload') return get().importFile(file);
        const dropped = getApi().droppedFiles;
        if (dropped) {
          // Electron: main checks the dropped file and answers with a handle, as its open dialog does.
          if (get().importStatus.state === 'running' || useImportStore.getState().phase !== 'closed') return;
          const chosen = await dropped.importDropped(file);
          if (!chosen.ok) {
            set({ importStatus: { state: 'error', message: null, error: chosen.error } });
            return;
          }
          await runImport(chosen.value.handle, chosen.value.name);
          return;
        }
        set({
          importStatus: {
            state: 'error',
            message: null,
            error: { kind: 'Conflict', message: `To import ${file.name}, choose it with Import a file….` },
          },
        });
      },
      async importFile(file) {
        if (get().importStatus.state === 'running' || useImportStore.getState().phase !== 'closed') return;
        const transfer = getApi().fileTransfer;
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
        set({ importStatus: { state: 'running', message: `Reading ${file.name}…`, error: null } });
        const uploaded = await transfer.upload(file, file.name);
        if (!uploaded.ok) {
          set({ importStatus: { state: 'error', message: null, error: uploaded.error } });
          return;
        }
        await runImport(uploaded.value.handle, file.name);
      },
      requestImport() {
        set({ importRequested: true });
      },
      takeImportRequest() {
        if (!get().importRequested) return false;
        set({ importRequested: false });
        return true;
      },
      async chooseAndImport() {
        if (get().importStatus.state === 'running' || useImportStore.getState().phase !== 'closed') return;
        const chosen = await getApi().library.chooseImportFile();
        if (!chosen.ok) {
          set({ importStatus: { state: 'error', message: null, error: chosen.error } });
          return;
        }
        if (!chosen.value) return; // the analyst cancelled the dialog
        const { handle, name } = chosen.value;
        await runImport(handle, name);
      },
    };
  },
);

/** How a file to import is picked here: as set, else by what the bridge can do (the browser host uploads). */
export function importPickerOf(s: Pick<LibraryData, 'importPicker'>): 'upload' | 'dialog' {
  return s.importPicker ?? (getApi().fileTransfer ? 'upload' : 'dialog');
}

/**
 * The library store's reactions: main's `library.changed` (a search saved, a job finished, an edit or
 * a delete here or elsewhere) refreshes the list and the open dataset; a dataset handed over from
 * another page opens at once. Called by the app (connectStores); returns the disconnect.
 */
export function connectLibraryStore(): () => void {
  const offChanges = getApi().on('library.changed', (c) => {
    const { refresh, reloadOpen, open } = useLibraryStore.getState();
    void refresh();
    // A save may be a new version of the open dataset: its history is read again too.
    if (open && (open.id === c.datasetId || c.change === 'saved')) void reloadOpen();
  });
  const offHandover = useDatasetHandover.subscribe((s, prev) => {
    const r = s.request;
    if (!r || r === prev.request) return;
    useLibraryStore.getState().openDataset(r.id, { filterModel: r.filterModel, label: r.label });
  });
  const offImport = connectImportStore();
  return () => {
    offChanges();
    offHandover();
    offImport();
  };
}

export type { EquivalentView };
