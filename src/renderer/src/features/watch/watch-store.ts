import type { FirmGrouping } from '@shared/analysis/analysis-contract';
import { limitEndsAt, serviceDidNotAnswer, type BridgeError } from '@shared/ipc/errors';
import type { ShipmentFilter } from '@shared/spec/filter';
import type {
  ChangeGrouping,
  ChangeRow,
  RefreshPreview,
  SnapshotChanges,
  WatchDetail,
  WatchSummary,
  WatchTarget,
} from '@shared/watch/watch-contract';
import { getApi } from '../../bridge/api';
import { notify } from '../../components/notify';
import {
  checkHsCodes,
  currentAccountContext,
  showDataset,
  useDrillStore,
  useSessionStore,
  useUsageStore,
  type AccountContext,
  type HsCodeCheck,
} from '../../session';
import { defineStore, latestWins } from '../../store';

export interface WatchData {
  watches: WatchSummary[];
  loaded: boolean;
  listError: BridgeError | null;
  selectedId: string | null;
  detail: WatchDetail | null;
  /** The refresh dialog: the cost check under way or done, and the refresh running. */
  dialogOpen: boolean;
  checking: boolean;
  /** What the dialog's cost check asked about, so Try again asks the same. */
  checkTarget: WatchTarget | null;
  preview: RefreshPreview | null;
  /**
   * The query's HS codes the account has not searched yet, against its allowance of distinct codes, as
   * usage stood when the dialog opened (the cost check searches those codes itself); null when none are
   * new or the allowance is unlimited. Past the allowance nothing is sent: the service refuses it whole.
   */
  hsCodes: HsCodeCheck | null;
  /** The dialog is for a query not watched yet (its first snapshot), before any cost is known. */
  dialogForNew: boolean;
  refreshing: boolean;
  /**
   * While the refresh waits for its service (stopped answering, or its gateway says it is unavailable),
   * since when (epoch ms), as main tells it; null while it fetches.
   */
  waitingSince: number | null;
  /** Cancel was asked for the refresh under way: the dialog closes once main has stopped it. */
  cancelling: boolean;
  dialogError: BridgeError | null;
  /** When a cost check the service refused for a limit may be asked again (epoch ms); null otherwise. */
  checkAgainAt: number | null;
  /** The last refresh's outcome, in words. */
  lastOutcome: string | null;
  changesFrom: number | null;
  changesTo: number | null;
  changesBy: ChangeGrouping;
  changesFirms: FirmGrouping;
  changes: SnapshotChanges | null;
  changesLoading: boolean;
  changesError: BridgeError | null;
  /** A library dataset being made a watch, and why the last one could not be. */
  adopting: string | null;
  adoptError: { datasetId: string; error: BridgeError } | null;
}

export interface WatchActions {
  load(): Promise<void>;
  select(id: string): Promise<void>;
  /** Opens the dialog and checks what refreshing the selected watch (or watching a new query) costs. */
  checkCost(target?: { request: ShipmentFilter; name: string; presetId: string | null }): Promise<void>;
  /** The dialog's Try again: the same cost check, after one the service did not answer. */
  checkAgain(): Promise<void>;
  /**
   * Watches a library dataset (its rows are the first snapshot, nothing is fetched) and shows it on the
   * Watched page, where Refresh fetches what is new. A refusal is kept in `adoptError` for the dataset.
   */
  watchDataset(datasetId: string): Promise<void>;
  /** Shows a watched query on the Watched page. */
  show(id: string): Promise<void>;
  /** Takes the snapshot the dialog priced. */
  confirmRefresh(): Promise<void>;
  /** Stops the refresh under way (a wait for the service included): nothing of it is stored. */
  cancelRefresh(): Promise<void>;
  closeDialog(): void;
  setChanges(
    patch: Partial<Pick<WatchData, 'changesFrom' | 'changesTo' | 'changesBy' | 'changesFirms'>>,
  ): Promise<void>;
  loadChanges(): Promise<void>;
  drill(row: ChangeRow | null, what: 'added' | 'lost' | 'all'): void;
  openInLibrary(): void;
  remove(): Promise<void>;
}

export type WatchState = WatchData & WatchActions;

const initialState: WatchData = {
  watches: [],
  loaded: false,
  listError: null,
  selectedId: null,
  detail: null,
  dialogOpen: false,
  checking: false,
  checkTarget: null,
  preview: null,
  hsCodes: null,
  dialogForNew: false,
  refreshing: false,
  waitingSince: null,
  cancelling: false,
  dialogError: null,
  checkAgainAt: null,
  lastOutcome: null,
  changesFrom: null,
  changesTo: null,
  changesBy: 'importers',
  changesFirms: 'asWritten',
  changes: null,
  changesLoading: false,
  changesError: null,
  adopting: null,
  adoptError: null,
};

const n = (v: number): string => v.toLocaleString('en-US');

/**
 * Whether the dialog offers Try again: its cost check failed because the service did not answer (no
 * connection, or it answered that it is having trouble), or refused it for a limit whose wait it gave
 * (`checkAgainAt`: Try again is enabled once the wait is over), all of which pass by themselves. The
 * check is not waited out as a refresh is: like Search's and Fetch all's, it is the analyst's to run
 * again.
 */
export function offersCheckAgain(
  s: Pick<WatchData, 'checkTarget' | 'checking' | 'preview' | 'dialogError' | 'checkAgainAt'>,
): boolean {
  return (
    s.checkTarget !== null &&
    !s.checking &&
    s.preview === null &&
    (serviceDidNotAnswer(s.dialogError) || s.checkAgainAt !== null)
  );
}

/** When the dialog's Try again may run (epoch ms), when it is offered after a limit; null otherwise. */
export function checkAgainAt(s: Parameters<typeof offersCheckAgain>[0]): number | null {
  return offersCheckAgain(s) ? s.checkAgainAt : null;
}

/** Why Refresh… cannot run now, in the page's words; null when a watched query is open. */
export function refreshUnavailable(s: Pick<WatchData, 'detail' | 'watches'>): string | null {
  if (s.detail) return null;
  return s.watches.length === 0
    ? 'Nothing is watched yet: watch a preset, or a fetched dataset from the Library, first.'
    : 'Choose a watched query in the list to refresh it.';
}

/** The last refresh in the analyst's words. */
export function outcomeText(added: number, lost: number, downloads: number, no: number): string {
  const parts = [`Snapshot ${no}: ${n(added)} new record${added === 1 ? '' : 's'}`];
  if (lost > 0) parts.push(`${n(lost)} no longer returned`);
  parts.push(`${n(downloads)} download${downloads === 1 ? '' : 's'} spent`);
  return parts.join(' · ');
}

export const useWatchStore = defineStore<WatchData, WatchActions>(initialState, (set, get, tools) => {
  const changesTurn = latestWins();
  const detailTurn = latestWins();
  tools.onReset(() => {
    changesTurn.supersede();
    detailTurn.supersede();
  });

  async function showDetail(id: string): Promise<void> {
    const turn = detailTurn.begin();
    const r = await getApi().watch.get({ id });
    if (!turn.current) return;
    if (!r.ok) {
      set({ listError: r.error, detail: null });
      return;
    }
    const snaps = r.value.snapshots;
    const last = snaps.at(-1)?.no ?? null;
    const before = snaps.length > 1 ? (snaps.at(-2)?.no ?? null) : null;
    set({ detail: r.value, changesFrom: before, changesTo: last, changes: null, changesError: null });
    if (before !== null) await get().loadChanges();
  }

  return {
    async load() {
      const r = await getApi().watch.list();
      if (!r.ok) {
        set({ listError: r.error, loaded: true });
        return;
      }
      set({ watches: r.value, loaded: true, listError: null });
      const selected = get().selectedId;
      const keep = r.value.find((w) => w.id === selected);
      const first = keep ?? r.value[0];
      if (first) await get().select(first.id);
      else set({ selectedId: null, detail: null });
    },

    async select(id) {
      set({ selectedId: id });
      await showDetail(id);
    },

    async checkCost(target) {
      const id = get().selectedId;
      if (!target && !id) return;
      const detail = get().detail;
      const request = target?.request ?? (detail && detail.id === id ? detail.request : null);
      const hsCodes = request ? refreshHsCodes(request as ShipmentFilter) : null;
      if (hsCodes?.state === 'exceeds') {
        // The cost check searches the query's codes too: the service would refuse it, and the refresh.
        set({
          dialogOpen: true,
          dialogForNew: target !== undefined,
          checking: false,
          checkTarget: null,
          preview: null,
          hsCodes,
          dialogError: null,
        });
        return;
      }
      set({
        dialogOpen: true,
        dialogForNew: target !== undefined,
        checkTarget: target ?? { watchId: id! },
        preview: null,
        hsCodes,
      });
      await get().checkAgain();
    },

    async checkAgain() {
      const target = get().checkTarget;
      if (!target || !get().dialogOpen || get().checking || get().preview || get().refreshing) return;
      // Asked again before the limit's wait is over, it would only be refused again, and counted.
      const waitEnds = get().checkAgainAt;
      if (waitEnds !== null && Date.now() < waitEnds) return;
      set({ checking: true, dialogError: null, checkAgainAt: null });
      const r = await getApi().watch.preview(target);
      if (!get().dialogOpen) return;
      set(
        r.ok
          ? { checking: false, preview: r.value }
          : { checking: false, dialogError: r.error, checkAgainAt: limitEndsAt(r.error, Date.now()) },
      );
    },

    async watchDataset(datasetId) {
      if (get().adopting) return;
      set({ adopting: datasetId, adoptError: null });
      const r = await getApi().watch.adopt({ datasetId });
      if (!r.ok) {
        set({ adopting: null, adoptError: { datasetId, error: r.error } });
        notify({ title: 'This dataset cannot be watched', message: r.error.message, tone: 'error' });
        return;
      }
      const s = r.value.snapshots.at(-1);
      set({
        adopting: null,
        lastOutcome: s
          ? `Watching: the dataset's ${n(s.records)} record${s.records === 1 ? '' : 's'} are snapshot 1 (nothing downloaded). Refresh fetches what is new.`
          : null,
      });
      await get().show(r.value.id);
    },

    async show(id) {
      set({ selectedId: id });
      useSessionStore.getState().showPage('watched');
      await get().load();
    },

    async confirmRefresh() {
      const preview = get().preview;
      if (!preview || get().refreshing || get().hsCodes?.state === 'exceeds') return;
      set({ refreshing: true, waitingSince: null, cancelling: false, dialogError: null });
      const r = await getApi().watch.refresh({ previewId: preview.previewId });
      // However it ends, the refresh no longer runs, waits or cancels.
      const ended = { refreshing: false, waitingSince: null, cancelling: false };
      if (!r.ok) {
        if (r.error.kind === 'Cancelled' && get().cancelling) {
          set({
            ...ended,
            dialogOpen: false,
            preview: null,
            hsCodes: null,
            lastOutcome: 'Refresh cancelled: nothing of it was stored.',
          });
          return;
        }
        set({ ...ended, dialogError: r.error });
        return;
      }
      const s = r.value.snapshot;
      set({
        ...ended,
        dialogOpen: false,
        preview: null,
        selectedId: r.value.watch.id,
        lastOutcome: outcomeText(s.added, s.lost, s.downloads, s.no),
      });
      await get().load();
    },

    async cancelRefresh() {
      const preview = get().preview;
      if (!preview || !get().refreshing || get().cancelling) return;
      set({ cancelling: true });
      const r = await getApi().watch.cancelRefresh({ previewId: preview.previewId });
      if (!r.ok) set({ cancelling: false, dialogError: r.error });
    },

    closeDialog() {
      if (get().refreshing) return;
      set({
        dialogOpen: false,
        preview: null,
        hsCodes: null,
        dialogError: null,
        checkAgainAt: null,
        checking: false,
        checkTarget: null,
      });
    },

    async setChanges(patch) {
      set(patch);
      await get().loadChanges();
    },

    async loadChanges() {
      const { detail, changesFrom, changesTo, changesBy, changesFirms } = get();
      if (!detail || changesFrom === null || changesTo === null) return;
      const turn = changesTurn.begin();
      set({ changesLoading: true, changesError: null });
      const r = await getApi().watch.changes({
        id: detail.id,
        from: changesFrom,
        to: changesTo,
        by: changesBy,
        firms: changesFirms,
      });
      if (!turn.current) return;
      set(
        r.ok
          ? { changes: r.value, changesLoading: false }
          : { changes: null, changesLoading: false, changesError: r.error },
      );
    },

    drill(row, what) {
      const c = get().changes;
      if (!c) return;
      const d = row
        ? what === 'added'
          ? row.drillAdded
          : what === 'lost'
            ? row.drillLost
            : row.drillAll
        : what === 'lost'
          ? c.drillLost
          : c.drillAdded;
      if (d) useDrillStore.getState().open(d);
    },

    openInLibrary() {
      const d = get().detail;
      if (d) showDataset(d.datasetId);
    },

    async remove() {
      const d = get().detail;
      if (!d) return;
      const r = await getApi().watch.delete({ id: d.id });
      if (!r.ok) {
        set({ listError: r.error });
        return;
      }
      set({ selectedId: null, detail: null, changes: null });
      await get().load();
    },
  };
});

/**
 * The HS codes a refresh of this query would name for the first time, against the account's allowance of
 * distinct codes (the account the query names, else the profile's default): the Search page's check.
 */
export function refreshHsCodes(
  request: Pick<ShipmentFilter, 'account_name' | 'hs_codes'>,
  summary = useUsageStore.getState().summary,
  accounts: AccountContext = currentAccountContext(),
): HsCodeCheck | null {
  const account = request.account_name?.trim() || accounts.defaultAccount;
  return checkHsCodes(summary, account, request.hs_codes ?? []);
}

/**
 * The profile a watch call runs with, as main picks it: an existing watched query's own (its cost check
 * by `watchId`, its refresh by the preview the store holds), else the active one (undefined). The app
 * gives it to the report of service outcomes, so a watched query of another profile does not move the
 * status bar of the active one.
 */
export function watchCallProfile(channel: string, input: unknown): string | undefined {
  const s = useWatchStore.getState();
  let watchId: string | null = null;
  if (channel === 'watch.preview' && typeof input === 'object' && input !== null && 'watchId' in input)
    watchId = String((input as { watchId: unknown }).watchId);
  else if (channel === 'watch.refresh') watchId = s.preview?.watchId ?? null;
  if (watchId === null) return undefined;
  // Refresh… is offered on the watched query shown, whose detail names its profile.
  return s.detail?.id === watchId ? (s.detail.profileId ?? undefined) : undefined;
}

/**
 * Follows main's news of the refresh under way: while it waits for its service, since when (the
 * dialog says so, with the time so far); null once the service answers and it goes on.
 */
export function connectWatchStore(): () => void {
  return getApi().on('watch.progress', ({ previewId, waitingForServiceSince }) => {
    const s = useWatchStore.getState();
    if (!s.refreshing || s.preview?.previewId !== previewId) return;
    useWatchStore.setState({ waitingSince: waitingForServiceSince });
  });
}
