import { COUNT, formatNumber } from '@shared/fields';
import type { BridgeError } from '@shared/ipc/errors';
import type {
  FirmDetailView,
  FirmListView,
  FirmSort,
  FirmSummaryView,
  PartyView,
  ResolutionStatus,
} from '@shared/resolution/resolution-contract';
import { getApi } from '../../bridge/api';
import { showDataset, useResolutionStore } from '../../session';
import { defineStore, latestWins } from '../../store';
import { runDecision, undoChange, type DecisionChange } from './decision-change';

/** The Firms page's three views: the library's resolved firms, the review queue, the service's firm search. */
export type FirmsTab = 'firms' | 'review' | 'search';

/** A dataset the firm list can be narrowed to. */
export interface ScopeOption {
  id: string;
  name: string;
}

interface Slot<T> {
  value: T | null;
  loading: boolean;
  error: BridgeError | null;
}

/** A decision waiting for the analyst's confirmation. */
export type PendingDecision =
  | { kind: 'merge'; firms: FirmSummaryView[] }
  | { kind: 'split'; firm: FirmSummaryView; spellings: PartyView[] };

export interface ResolvedFirmsData {
  tab: FirmsTab;
  /** The datasets the list can be narrowed to (shipment and firm datasets of the library). */
  scopes: ScopeOption[];
  /** A dataset, or null for the whole library. */
  datasetId: string | null;
  search: string;
  /** Only firms written more than one way. */
  mergedOnly: boolean;
  /** Bumped whenever the list must be read again from its first row (a filter or the resolution changed). */
  listKey: number;
  /** Firms matching the list's filters; null until the first answer. */
  total: number | null;
  listError: BridgeError | null;
  /** The firms ticked for a merge: kept while the list is searched again, so firms found apart can merge. */
  marked: FirmSummaryView[];
  /** The firm open in the detail panel. */
  openId: string | null;
  detail: Slot<FirmDetailView>;
  /** The spellings ticked in the detail panel, for a split. */
  splitIds: string[];
  pending: PendingDecision | null;
  /** A merge, split or verdict running, or an undo. */
  busy: boolean;
  actionError: BridgeError | null;
  /** The last change, offered for undo until the next one. */
  lastChange: DecisionChange | null;
  /** The alias list's last export or import, in the analyst's words. */
  aliasNotice: { ok: boolean; text: string } | null;
}

export interface ResolvedFirmsActions {
  setTab(tab: FirmsTab): void;
  loadScopes(): Promise<void>;
  setScope(datasetId: string | null): void;
  setSearch(search: string): void;
  setMergedOnly(on: boolean): void;
  /** Reads the list again from its first row (Retry after the library could not be read). */
  retryList(): void;
  /** One block of the list for the grid; the total and the status follow the answer. */
  fetchBlock(q: { offset: number; limit: number; sort: FirmSort }): Promise<FirmListView | BridgeError>;
  setMarked(firms: FirmSummaryView[]): void;
  /** Ticks or unticks one firm for a merge. */
  mark(firm: FirmSummaryView, on: boolean): void;
  openFirm(firmId: string | null): Promise<void>;
  /** Reads the open firm again (the resolution changed): it may have been merged into another. */
  reloadDetail(): Promise<void>;
  toggleSplit(partyId: string): void;
  askMerge(): void;
  askSplit(): void;
  cancelPending(): void;
  /** Carries out the pending merge or split. */
  confirmPending(): Promise<void>;
  undoLast(): Promise<void>;
  dismissLast(): void;
  /** Escape on the page: the open firm closes. */
  closeFirm(): void;
  /** Takes back one earlier decision from the detail panel's list. */
  undoDecision(decisionId: string): Promise<void>;
  /** Opens the firm's rows of a dataset in the Library: every spelling, as importer or exporter. */
  openShipments(datasetId: string): void;
  /** Main announced a new resolution: the list and the open firm are read again. */
  resolutionChanged(): void;
  /** Saves the analyst's decisions as an alias list file (names and codes only). */
  exportAliases(): Promise<void>;
  /** Adds the decisions of an alias list file the analyst picked. */
  importAliases(file: Pick<File, 'name' | 'text'>): Promise<void>;
  dismissAliasNotice(): void;
}

export type ResolvedFirmsState = ResolvedFirmsData & ResolvedFirmsActions;

const idle = <T>(): Slot<T> => ({ value: null, loading: false, error: null });

const initialState: ResolvedFirmsData = {
  tab: 'firms',
  scopes: [],
  datasetId: null,
  search: '',
  mergedOnly: false,
  listKey: 0,
  total: null,
  listError: null,
  marked: [],
  openId: null,
  detail: idle(),
  splitIds: [],
  pending: null,
  busy: false,
  actionError: null,
  lastChange: null,
  aliasNotice: null,
};

/** How often the list asks again while another program holds the library. */
export const LOCKED_RETRY_MS = 5_000;

const fmt = (n: number): string => formatNumber(n, COUNT);
const quote = (name: string) => `“${name}”`;
const plural = (n: number, one: string, many: string) => `${fmt(n)} ${n === 1 ? one : many}`;

/** Saves text as a file through a temporary download link (Electron and the browser host alike). */
function saveText(fileName: string, text: string): void {
  const a = document.createElement('a');
  a.href = `data:application/json;charset=utf-8,${encodeURIComponent(text)}`;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Rows naming the firm in any role. */
export const firmRows = (f: Pick<FirmSummaryView, 'asImporter' | 'asExporter' | 'listed'>): number =>
  f.asImporter + f.asExporter + f.listed;

/** Why the merge button is off, in the analyst's words (null: it can run). */
export function mergeReason(marked: readonly FirmSummaryView[]): string | null {
  if (marked.length < 2) return 'Tick two or more firms in the list to merge them.';
  return null;
}

/** Why the split button is off (null: it can run). */
export function splitReason(detail: FirmDetailView | null, splitIds: readonly string[]): string | null {
  if (!detail) return 'Open a firm first.';
  if (splitIds.length === 0) return 'Tick the spellings to split off into a firm of their own.';
  if (splitIds.length >= detail.spellings.length) return 'Leave at least one spelling in the firm.';
  return null;
}

/**
 * What the detail panel says while the list has nothing to open (null while it has firms, or is still
 * counting): an empty library, a dataset without firms, or filters nothing matches, each in words.
 */
export function selectEmptyList(
  s: Pick<ResolvedFirmsData, 'total' | 'search' | 'mergedOnly' | 'datasetId'>,
): { title: string; text: string } | null {
  if (s.total !== 0) return null;
  const where = s.datasetId ? 'the chosen dataset' : 'the library';
  const search = s.search.trim();
  if (search)
    return {
      title: 'No firm found',
      text: `No firm in ${where} is written like “${search}”${s.mergedOnly ? ' and written several ways' : ''}. Check the spelling, or search by firm code.`,
    };
  if (s.mergedOnly)
    return {
      title: 'No firm written several ways',
      text: `Every firm in ${where} is written one way. Clear “Only firms written several ways” to see them all.`,
    };
  if (s.datasetId)
    return { title: 'No firms in this dataset', text: 'Its records name no firm. Choose the whole library.' };
  return {
    title: 'No firms yet',
    text: 'Firms come from the records you keep: run a search on the Search page, or import a file in the Library. Every spelling of a firm then shows here as one firm.',
  };
}

export const useResolvedFirmsStore = defineStore<ResolvedFirmsData, ResolvedFirmsActions>(
  initialState,
  (set, get, { onReset }) => {
    const details = latestWins();
    // The count is of the list shown: unknown again until the new list answers.
    const bumpList = (extra: Partial<ResolvedFirmsData> = {}) =>
      set((s) => ({ ...extra, listKey: s.listKey + 1, total: null }));
    // A library held by another program lets go in its own time (a second Portolan closed, a script
    // done): the list asks again every few seconds until it does, as well as on Retry.
    let lockedRetry: ReturnType<typeof setTimeout> | null = null;
    const retryWhileLocked = () => {
      if (lockedRetry) return;
      lockedRetry = setTimeout(() => {
        lockedRetry = null;
        if (get().listError?.kind === 'StorageLocked') bumpList();
      }, LOCKED_RETRY_MS);
    };
    onReset(() => {
      details.supersede();
      if (lockedRetry) clearTimeout(lockedRetry);
      lockedRetry = null;
    });

    /** The list and the open firm follow a new resolution (once, whoever announced it). */
    function follow(status: ResolutionStatus | null): void {
      const before = useResolutionStore.getState().version;
      if (status) useResolutionStore.getState().changed(status);
      // Announced already (or nothing new to announce): read again all the same, the decisions moved.
      if (useResolutionStore.getState().version === before) get().resolutionChanged();
    }

    /**
     * Runs a decision, keeps it for undo, and lets every view follow the new resolution. `then` is the
     * state to show afterwards (which firm stays open).
     */
    async function decide(
      label: string,
      action: Parameters<typeof runDecision>[1],
      then: (status: ResolutionStatus) => Partial<ResolvedFirmsData> = () => ({}),
    ): Promise<boolean> {
      set({ busy: true, actionError: null });
      const r = await runDecision(label, action);
      if (!r.ok) {
        set({ busy: false, actionError: r.error });
        return false;
      }
      set({ busy: false, lastChange: r.change, pending: null, splitIds: [], marked: [], ...then(r.status) });
      follow(r.status);
      return true;
    }

    return {
      setTab(tab) {
        set({ tab });
      },

      async loadScopes() {
        const r = await getApi().library.list({});
        if (!r.ok) return;
        const scopes = r.value.map((d) => ({ id: d.id, name: d.name }));
        const datasetId = get().datasetId;
        set({ scopes });
        // The narrowed dataset was deleted: back to the whole library.
        if (datasetId && !scopes.some((s) => s.id === datasetId)) get().setScope(null);
      },

      setScope(datasetId) {
        if (datasetId === get().datasetId) return;
        bumpList({ datasetId });
        if (get().openId) void get().reloadDetail();
      },

      setSearch(search) {
        if (search === get().search) return;
        bumpList({ search });
      },

      setMergedOnly(mergedOnly) {
        if (mergedOnly === get().mergedOnly) return;
        bumpList({ mergedOnly });
      },

      retryList() {
        bumpList();
      },

      async fetchBlock({ offset, limit, sort }) {
        const { datasetId, search, mergedOnly, listKey } = get();
        const r = await getApi().resolution.firms({
          scope: datasetId ? { datasetId } : {},
          ...(search.trim() ? { search: search.trim() } : {}),
          mergedOnly,
          sort,
          offset,
          limit,
        });
        // An answer for a list no longer shown (other filters, an older resolution) counts nothing.
        const current = get().listKey === listKey;
        if (!r.ok) {
          if (current) set({ listError: r.error });
          if (current && r.error.kind === 'StorageLocked') retryWhileLocked();
          return r.error;
        }
        if (current) set({ total: r.value.total, listError: null });
        useResolutionStore.getState().changed(r.value.status);
        return r.value;
      },

      setMarked(marked) {
        set({ marked });
      },

      mark(firm, on) {
        const rest = get().marked.filter((f) => f.firmId !== firm.firmId);
        set({ marked: on ? [...rest, firm] : rest });
      },

      async openFirm(firmId) {
        if (firmId === null) {
          details.supersede();
          set({ openId: null, detail: idle(), splitIds: [] });
          return;
        }
        if (firmId !== get().openId)
          set({ openId: firmId, splitIds: [], detail: { ...idle(), loading: true } });
        await get().reloadDetail();
      },

      async reloadDetail() {
        const { openId, datasetId } = get();
        if (!openId) return;
        const turn = details.begin();
        set((s) => ({ detail: { ...s.detail, loading: true, error: null } }));
        const r = await getApi().resolution.firm({ firmId: openId, scope: datasetId ? { datasetId } : {} });
        if (!turn.current) return;
        if (r.ok) {
          const ids = new Set(r.value.spellings.map((s) => s.partyId));
          set((s) => ({
            // The spelling the firm was opened by may belong to another firm id since a merge or a split.
            openId: r.value.firm.firmId,
            detail: { value: r.value, loading: false, error: null },
            splitIds: s.splitIds.filter((id) => ids.has(id)),
          }));
        } else {
          set({ detail: { value: null, loading: false, error: r.error } });
        }
      },

      toggleSplit(partyId) {
        set((s) => ({
          splitIds: s.splitIds.includes(partyId)
            ? s.splitIds.filter((id) => id !== partyId)
            : [...s.splitIds, partyId],
        }));
      },

      askMerge() {
        const { marked } = get();
        if (mergeReason(marked) === null)
          set({ pending: { kind: 'merge', firms: marked }, actionError: null });
      },

      askSplit() {
        const d = get().detail.value;
        const { splitIds } = get();
        if (!d || splitReason(d, splitIds) !== null) return;
        set({
          pending: {
            kind: 'split',
            firm: d.firm,
            spellings: d.spellings.filter((s) => splitIds.includes(s.partyId)),
          },
          actionError: null,
        });
      },

      cancelPending() {
        set({ pending: null, actionError: null });
      },

      async confirmPending() {
        const p = get().pending;
        if (!p || get().busy) return;
        if (p.kind === 'merge') {
          // Named after the firm with the most rows, as the merged firm will be.
          const first = [...p.firms].sort((a, b) => firmRows(b) - firmRows(a))[0] as FirmSummaryView;
          const ids = p.firms.map((f) => f.firmId);
          await decide(
            `Merged ${p.firms.length} firms into ${quote(first.name)}`,
            () => getApi().resolution.merge({ firmIds: ids }),
            // Any of their ids finds the merged firm (a firm id is one of its spellings).
            () => ({ openId: [...ids].sort()[0] ?? null }),
          );
          return;
        }
        const moved = new Set(p.spellings.map((s) => s.partyId));
        const names = p.spellings.map((s) => quote(s.name)).join(', ');
        const staying = get()
          .detail.value?.spellings.map((s) => s.partyId)
          .filter((id) => !moved.has(id))
          .sort()[0];
        await decide(
          `Split ${names} off ${quote(p.firm.name)} into a firm of ${p.spellings.length === 1 ? 'its' : 'their'} own`,
          () => getApi().resolution.split({ firmId: p.firm.firmId, partyIds: [...moved] }),
          // The detail stays on the spellings that stayed.
          () => (staying ? { openId: staying } : {}),
        );
      },

      async undoLast() {
        const change = get().lastChange;
        if (!change || get().busy) return;
        set({ busy: true, actionError: null });
        const r = await undoChange(change);
        if (!r.ok) {
          set({ busy: false, actionError: r.error });
          return;
        }
        set({ busy: false, lastChange: null });
        follow(r.status);
      },

      dismissLast() {
        set({ lastChange: null });
      },

      closeFirm() {
        void get().openFirm(null);
      },

      async undoDecision(decisionId) {
        const d = get().detail.value?.decisions.find((x) => x.id === decisionId);
        const what = d
          ? `Took back “${d.a.name}” and “${d.b.name}” being ${d.verdict === 'same' ? 'one firm' : 'different firms'}`
          : 'Took back a decision';
        await decide(what, () => getApi().resolution.undo({ decisionId }));
      },

      openShipments(datasetId) {
        const d = get().detail.value;
        if (!d) return;
        showDataset(datasetId, {
          filterModel: { anyFirm: { filterType: 'firm', firmId: d.firm.firmId } },
          label: `Firm ${d.firm.name} (${fmt(d.spellings.length)} ${d.spellings.length === 1 ? 'spelling' : 'spellings'}), as importer or exporter`,
        });
      },

      resolutionChanged() {
        bumpList();
        void get().reloadDetail();
      },

      async exportAliases() {
        const r = await getApi().resolution.exportAliases();
        if (!r.ok) {
          set({ aliasNotice: { ok: false, text: r.error.message } });
          return;
        }
        const count = (JSON.parse(r.value) as { decisions?: unknown[] }).decisions?.length ?? 0;
        const name = `portolan-firm-aliases-${new Date().toISOString().slice(0, 10)}.json`;
        saveText(name, r.value);
        set({
          aliasNotice: { ok: true, text: `Saved ${plural(count, 'decision', 'decisions')} as ${name}` },
        });
      },

      async importAliases(file) {
        const text = await file.text();
        const r = await getApi().resolution.importAliases({ text });
        if (!r.ok) {
          set({ aliasNotice: { ok: false, text: `${file.name}: ${r.error.message}` } });
          return;
        }
        const { added, already } = r.value;
        set({
          aliasNotice: {
            ok: true,
            text: `${file.name}: added ${plural(added, 'decision', 'decisions')}${already > 0 ? `; ${fmt(already)} the library already had` : ''}`,
          },
        });
        follow(r.value.status);
      },

      dismissAliasNotice() {
        set({ aliasNotice: null });
      },
    };
  },
);

/** Follows main's new resolutions (a decision in another view, new data). Called by the app. */
export function connectResolvedFirmsStore(): () => void {
  const offVersion = useResolutionStore.subscribe((s, prev) => {
    if (s.version !== prev.version) useResolvedFirmsStore.getState().resolutionChanged();
  });
  const offLibrary = getApi().on('library.changed', () => {
    void useResolvedFirmsStore.getState().loadScopes();
    // A change saved means the library can be read: a list that could not be read asks again.
    if (useResolvedFirmsStore.getState().listError) useResolvedFirmsStore.getState().retryList();
  });
  return () => {
    offVersion();
    offLibrary();
  };
}
