import { COUNT, formatNumber } from '@shared/fields';
import {
  SHIPMENT_SEARCH_MAX_SIZE,
  SHIPMENT_SEARCH_MIN_SIZE,
  type ShipmentSearchRequest,
  type UsageSummary,
} from '@shared/spec';
import { useMemo } from 'react';
import { shallow } from 'zustand/shallow';
import { limitEndsAt, type BridgeError, type BridgeResult } from '@shared/ipc/errors';
import type { ShipmentSearchAnswer, ShipmentSearchHead } from '@shared/query/query-contract';
import { KEPT_ANSWERS_LIMIT, type EquivalentView, type SaveFailed } from '@shared/library/library-contract';
import { DEFAULT_SHIPMENT_COLUMNS } from '@shared/fields/default-columns';
import { SHIPMENT_FIELDS, type ShipmentField, type ShipmentRecord } from '@shared/spec/records';
import { getApi } from '../../bridge/api';
import type { CancelledState } from '../../components/cancelled-notice';
import { savedShownColumns } from '../../components/grid/column-state';
import {
  checkHsCodes,
  checkLimit,
  currentAccountContext,
  onDatasetRemoved,
  openSavedCopy,
  useAccountContext,
  useSessionStore,
  useUsageStore,
  type AccountContext,
  type HsCodeCheck,
  type LimitCheck,
} from '../../session';
import { cancellableRuns, defineStore } from '../../store';
import {
  currentFilter,
  filterStore,
  useFilter,
  validateCurrent,
  validateDraft,
  type FilterDraft,
  type Validation,
  type ValidationExtra,
} from '../filters';

export type SearchStatus = 'idle' | 'running' | 'done' | 'error' | 'cancelled';

/** The Search grid's layout (columns, widths, filters) is remembered under this id. */
export const SEARCH_GRID_ID = 'shipments';

const SHIPMENT_FIELD_SET: ReadonlySet<string> = new Set(SHIPMENT_FIELDS);

/**
 * The fields the Search grid shows (as it was last left, or its defaults): an answer's first rows carry
 * these only, a fraction of the ~90 fields, and come to the window that much sooner. The grid reads a
 * column shown later, and the record view the whole record, from the library.
 */
function searchGridFields(): ShipmentField[] {
  const shown = (savedShownColumns(SEARCH_GRID_ID) ?? DEFAULT_SHIPMENT_COLUMNS).filter(
    (c): c is ShipmentField => SHIPMENT_FIELD_SET.has(c),
  );
  return shown.length > 0 ? shown : [...DEFAULT_SHIPMENT_COLUMNS];
}

/** An answer that arrived although the user had cancelled: paid for and saved, so it can still be shown. */
export interface LateAnswer {
  request: ShipmentSearchRequest;
  result: ShipmentSearchAnswer;
  datasetId: string | null;
  profileId: string | null;
}

/**
 * What became of a cancelled search. A request that has gone to the service is not aborted: the spec
 * does not say whether the service charges a request whose answer is never read (the simulator does),
 * so aborting could spend the downloads and lose the records. Cancel stops the waiting; the answer is
 * still received, saved to the library, and can be shown.
 */
export type CancelOutcome =
  /** The request had left: its answer is awaited and will be kept. */
  | { state: 'pending' }
  /** Cancelled before the request left (while the library was consulted): nothing was sent. */
  | { state: 'nothing-spent' }
  /** The answer arrived after Cancel: the downloads are spent and the result is in the library. */
  | { state: 'spent'; records: number; late: LateAnswer }
  /** The request ended with an error of its own. */
  | { state: 'failed'; error: BridgeError };

/**
 * The shown answer could not be stored in the library (main said so with `library.saveFailed`): main
 * keeps its records, so the page offers "Save again" (nothing is downloaded again) and the records from
 * memory, to see and export while saving keeps failing.
 */
export interface SaveFailure extends SaveFailed {
  /** What is under way: storing the kept answer again, or fetching its records to show. */
  busy: 'saving' | 'loading' | null;
  /** Why the last "Save again" (or showing the records) failed, in the analyst's words. */
  error: string | null;
  /** The kept records, once the analyst chose to see them without the library. */
  shown: ShipmentRecord[] | null;
}

export interface SearchData {
  size: number;
  status: SearchStatus;
  /** The request that produced `result` (not the one running now), so truncation is described truthfully. */
  request: ShipmentSearchRequest | null;
  /** The answer's counts and first rows; its records are in the library dataset `datasetId`, read in blocks. */
  result: ShipmentSearchAnswer | null;
  /** The profile `result` was fetched with. */
  resultProfileId: string | null;
  error: BridgeError | null;
  /** When the wait `error` gave for a limit ends (epoch ms): its message counts it down. Null otherwise. */
  errorWaitEndsAt: number | null;
  startedAt: number | null;
  /** Milliseconds from the click to the last answer (a result or an error), for the status line (and the benchmark). */
  elapsedMs: number | null;
  /** The user acknowledged that this run passes the account's limit. */
  overLimitConfirmed: boolean;
  /** The library already answers the question asked: offered before anything is spent. */
  offer: (EquivalentView & { request: ShipmentSearchRequest }) | null;
  /** Why the offer went away (its copy was deleted and no other copy answers the search). */
  offerNotice: string | null;
  /** The library dataset holding `result`. */
  datasetId: string | null;
  /** How many answers (results or errors) the service has given; lets observers tell a new answer from the last. */
  answers: number;
  /** Set when the last run was cancelled. */
  cancelOutcome: CancelOutcome | null;
  /** A note about the page's state that is not an error, e.g. why the result disappeared. */
  notice: string | null;
  /** Set while the shown answer is not in the library because its save failed. */
  saveFailure: SaveFailure | null;
  /**
   * Set while the running search's first rows are shown before its answer is checked (main read them
   * from the answer's start): what the page showed before, put back if the answer fails or is cancelled.
   */
  early: { before: ShownAnswer } | null;
}

/** What the page shows of an answer. */
type ShownAnswer = Pick<SearchData, 'request' | 'result' | 'resultProfileId' | 'datasetId' | 'saveFailure'>;

export interface SearchActions {
  setSize(size: number): void;
  confirmOverLimit(yes: boolean): void;
  /** `fresh`: fetch even when the library holds a saved copy (the user chose to spend). */
  run(opts?: { fresh?: boolean }): Promise<void>;
  dismissOffer(): void;
  /** Opens the offered copy, or another complete copy if it was deleted since; says so when none is left. */
  openOffer(): Promise<void>;
  /** The offered copy was deleted: offers another copy of the same answer, or says none is left. */
  recheckOffer(): Promise<void>;
  cancel(): void;
  /** Shows the answer that arrived after Cancel (it was paid for). */
  showLateAnswer(): void;
  /**
   * The filter was replaced from another page (a firm's shipments): the result on screen answers a
   * different question, so it goes, and the page says the new one has not been searched (or paid for) yet.
   */
  filterReplaced(question: string): void;
  /** Another profile became active: results of the old one must not pass for the new one's. */
  activeProfileChanged(previous: { id: string; name: string } | null, activeId: string | null): void;
  /** Main could not store an answer (`library.saveFailed`): the page says so if it is the one shown. */
  saveFailed(failure: SaveFailed): void;
  /** Stores the kept answer again under the same dataset id; on success the grid reads it from the library. */
  saveAgain(): Promise<void>;
  /** Shows the kept records from memory (and lets them be exported) while they are not in the library. */
  showKeptRecords(): Promise<void>;
  /** Main read the first rows of a search's answer (`shipments.head`): shown if the search is the running one. */
  headArrived(head: ShipmentSearchHead): void;
}

export type SearchState = SearchData & SearchActions;

/** A saved answer to the search's question, if the library (still) holds one. */
async function findCopy(request: ShipmentSearchRequest): Promise<EquivalentView | null> {
  const r = await getApi().library.findEquivalent({ request });
  return r.ok ? r.value : null;
}

const goneNotice = (offer: EquivalentView): string =>
  `The saved copy “${offer.dataset.name}” was deleted, and no other saved copy answers this search. Search again to fetch it from the service.`;

/** What a run from the click to its answer keeps: whether its request has gone to main, and what it asked. */
interface RunInfo {
  sent: boolean;
  request: ShipmentSearchRequest;
  profileId: string | null;
  /** Names the first rows main announces for this run (`shipments.head`). */
  headId: string;
}

let headIds = 0;

/** The first rows shown early against the answer's, field by field: the grid keeps what it drew. */
const sameRows = (a: readonly object[], b: readonly object[]): boolean =>
  a.length === b.length && a.every((row, i) => shallow(row, b[i]));

const fmt = (n: number): string => formatNumber(n, COUNT);

const initialState: SearchData = {
  size: 1000,
  status: 'idle',
  request: null,
  result: null,
  resultProfileId: null,
  error: null,
  errorWaitEndsAt: null,
  startedAt: null,
  elapsedMs: null,
  overLimitConfirmed: false,
  offer: null,
  offerNotice: null,
  datasetId: null,
  answers: 0,
  cancelOutcome: null,
  notice: null,
  saveFailure: null,
  early: null,
};

export const useSearchStore = defineStore<SearchData, SearchActions>(
  initialState,
  (set, get, { onReset }) => {
    const runs = cancellableRuns<RunInfo>();
    /**
     * Failed saves main announced, newest last: the announcement may come before the answer it is
     * about (the browser host carries events and answers on separate connections), or for a late answer.
     */
    const failedSaves = new Map<string, SaveFailed>();
    onReset(() => {
      runs.supersede();
      failedSaves.clear();
    });
    /**
     * The failure to show with an answer: one that came with its records because the library could not
     * be opened, or one main announced for its dataset.
     */
    const failureOf = (answer: ShipmentSearchAnswer | null): SaveFailure | null => {
      if (answer?.saveFailed && answer.unsaved)
        return { ...answer.saveFailed, busy: null, error: null, shown: answer.unsaved };
      const f = answer?.datasetId ? failedSaves.get(answer.datasetId) : undefined;
      return f ? { ...f, busy: null, error: null, shown: null } : null;
    };

    /** The cancelled run's call ended: say honestly what it cost. */
    function settleCancelled(
      r: BridgeResult<ShipmentSearchAnswer>,
      request: ShipmentSearchRequest,
      profileId: string | null,
    ) {
      let outcome: CancelOutcome;
      if (r.ok) {
        const datasetId = r.value.datasetId ?? null;
        outcome = {
          state: 'spent',
          records: r.value.returned,
          late: { request, result: r.value, datasetId, profileId },
        };
      } else outcome = { state: 'failed', error: r.error };
      // Unless something else took the status line since Cancel (another filter, another profile).
      if (get().status === 'cancelled') set({ cancelOutcome: outcome });
    }

    return {
      dismissOffer: () => set({ offer: null, offerNotice: null }),
      async openOffer() {
        const offer = get().offer;
        if (!offer) return;
        const copy = await openSavedCopy(offer, () => findCopy(offer.request));
        if (get().offer !== offer) return;
        set(copy ? { offer: null, offerNotice: null } : { offer: null, offerNotice: goneNotice(offer) });
      },
      async recheckOffer() {
        const offer = get().offer;
        if (!offer) return;
        const copy = await findCopy(offer.request);
        if (get().offer !== offer) return;
        set(
          copy
            ? { offer: { ...copy, request: offer.request } }
            : { offer: null, offerNotice: goneNotice(offer) },
        );
      },
      setSize: (size) => set({ size, overLimitConfirmed: false }),
      confirmOverLimit: (yes) => set({ overLimitConfirmed: yes }),
      async run(opts = {}) {
        const { size } = get();
        if (!validateCurrent('shipmentSearch', { size, ...currentAccountContext() }).valid) return;
        const request: ShipmentSearchRequest = { ...currentFilter(), size };
        // Named explicitly, so the answer belongs to the profile that was active at the click.
        const profileId = useSessionStore.getState().activeId;
        const run = runs.begin({ sent: false, request, profileId, headId: `search-${++headIds}` });
        const startedAt = performance.now();
        set({
          status: 'running',
          error: null,
          startedAt,
          elapsedMs: null,
          offer: null,
          offerNotice: null,
          cancelOutcome: null,
          notice: null,
        });
        if (!opts.fresh) {
          // No repeat spending: a saved answer to the same question is offered first.
          const saved = await getApi().library.findEquivalent({ request });
          if (!run.current) return;
          if (saved.ok && saved.value) {
            runs.settle(run);
            set({
              status: get().result ? 'done' : 'idle',
              offer: { ...saved.value, request },
              elapsedMs: null,
            });
            return;
          }
        }
        run.info.sent = true;
        const r = await getApi().shipments.search({
          request,
          headId: run.info.headId,
          headColumns: searchGridFields(),
          ...(profileId ? { profileId } : {}),
        });
        const end = runs.settle(run);
        // Cancelled (or superseded): the screen keeps showing what the user last asked for.
        if (end === 'cancelled') settleCancelled(r, request, profileId);
        if (end !== 'current') return;
        const elapsedMs = performance.now() - startedAt;
        // The first rows shown early are this answer's (or not, when it failed): it takes their place.
        const early = get().early;
        if (r.ok) {
          const shown = early ? get().result : null;
          // The grid keeps the rows it drew when the answer says what they said.
          const same =
            shown !== null &&
            shown.datasetId === r.value.datasetId &&
            shown.total === r.value.total &&
            shown.returned === r.value.returned &&
            shallow(shown.headColumns, r.value.headColumns) &&
            sameRows(shown.head, r.value.head);
          set({
            status: 'done',
            early: null,
            request,
            result: same ? { ...r.value, head: shown.head } : r.value,
            resultProfileId: profileId,
            error: null,
            elapsedMs,
            overLimitConfirmed: false,
            answers: get().answers + 1,
            // Main saved the answer to the library while answering (and announced it).
            datasetId: r.value.datasetId ?? null,
            saveFailure: failureOf(r.value),
          });
        } else {
          set({
            ...early?.before,
            early: null,
            status: 'error',
            error: r.error,
            errorWaitEndsAt: limitEndsAt(r.error, Date.now()),
            elapsedMs,
            answers: get().answers + 1,
          });
        }
      },
      cancel() {
        if (get().status !== 'running') return;
        const call = runs.cancel();
        // Before the request left (the library lookup), stopping costs nothing; after, its answer is kept.
        set({
          // First rows shown early are the cancelled answer's: the page shows what it showed before.
          ...get().early?.before,
          early: null,
          status: 'cancelled',
          elapsedMs: null,
          cancelOutcome: call?.info.sent ? { state: 'pending' } : { state: 'nothing-spent' },
        });
      },
      showLateAnswer() {
        const o = get().cancelOutcome;
        if (o?.state !== 'spent') return;
        const { request, result, datasetId, profileId } = o.late;
        if (profileId !== useSessionStore.getState().activeId) return;
        set({
          status: 'done',
          request,
          result,
          datasetId,
          saveFailure: failureOf(result),
          resultProfileId: profileId,
          error: null,
          cancelOutcome: null,
          elapsedMs: null,
          answers: get().answers + 1,
        });
      },
      filterReplaced(question) {
        // An answer on its way belongs to the old filter: Cancel keeps it (it may be charged) without showing it here.
        if (get().status === 'running') get().cancel();
        const had = get().result !== null;
        const saved = had && get().datasetId !== null && get().saveFailure === null;
        set({
          result: null,
          request: null,
          datasetId: null,
          saveFailure: null,
          resultProfileId: null,
          error: null,
          elapsedMs: null,
          offer: null,
          offerNotice: null,
          overLimitConfirmed: false,
          status: get().status === 'cancelled' ? 'cancelled' : 'idle',
          notice:
            `${question} have not been searched yet: nothing has been downloaded for them. Check the download cost and click “Search shipments” to fetch them.` +
            (had
              ? ` The result of the previous search was taken off this page because it answers another filter${saved ? '; it is kept in the Library' : ''}.`
              : ''),
        });
      },
      activeProfileChanged(previous, activeId) {
        // The first profile of the session (boot) replaces nothing.
        if (!previous) return;
        if (get().status === 'running') get().cancel();
        const had = get().result !== null && get().resultProfileId !== activeId;
        const saved = get().saveFailure === null;
        set({
          ...(had
            ? { result: null, request: null, datasetId: null, resultProfileId: null, saveFailure: null }
            : {}),
          error: null,
          offer: null,
          offerNotice: null,
          overLimitConfirmed: false,
          // A late answer belongs to the old profile: it stays in the library but is not offered here.
          cancelOutcome: get().cancelOutcome?.state === 'spent' ? null : get().cancelOutcome,
          status: get().status === 'cancelled' ? 'cancelled' : 'idle',
          notice: had
            ? `The result of profile “${previous.name}” was cleared because another profile is now active.${saved ? ' It is kept in the Library.' : ''}`
            : null,
        });
      },
      saveFailed(failure) {
        failedSaves.delete(failure.datasetId);
        failedSaves.set(failure.datasetId, failure);
        // Main keeps as many; older announcements are of answers it no longer holds.
        for (const id of failedSaves.keys()) {
          if (failedSaves.size <= KEPT_ANSWERS_LIMIT) break;
          failedSaves.delete(id);
        }
        if (get().datasetId === failure.datasetId) set({ saveFailure: failureOf(get().result) });
      },
      async saveAgain() {
        const failure = get().saveFailure;
        if (!failure || failure.busy) return;
        set({ saveFailure: { ...failure, busy: 'saving', error: null } });
        const r = await getApi().library.saveAgain({ id: failure.datasetId });
        const now = get().saveFailure;
        // Another answer (or none) is shown by now: this one's outcome is the Library's to show.
        if (now?.datasetId !== failure.datasetId) return;
        if (r.ok) {
          failedSaves.delete(failure.datasetId);
          const result = get().result;
          set({
            // An answer that came with its records (no library then) is now read from the library too.
            ...(result?.unsaved
              ? {
                  result: { total: result.total, returned: result.returned, head: [], datasetId: r.value.id },
                  datasetId: r.value.id,
                }
              : {}),
            saveFailure: null,
            notice: `Saved to the Library: the ${fmt(r.value.storedRows)} record${r.value.storedRows === 1 ? ' is' : 's are'} now read from it, and nothing was downloaded again.`,
          });
        } else set({ saveFailure: { ...now, busy: null, error: r.error.message } });
      },
      headArrived(h) {
        const run = runs.running();
        if (!run?.current || run.info.headId !== h.headId || get().status !== 'running' || get().early)
          return;
        const { request, result, resultProfileId, datasetId, saveFailure } = get();
        set({
          early: { before: { request, result, resultProfileId, datasetId, saveFailure } },
          request: run.info.request,
          result: {
            total: h.total,
            returned: h.returned,
            datasetId: h.datasetId,
            head: h.head,
            ...(h.headColumns ? { headColumns: h.headColumns } : {}),
          },
          resultProfileId: run.info.profileId,
          datasetId: h.datasetId,
          saveFailure: null,
        });
      },
      async showKeptRecords() {
        const failure = get().saveFailure;
        if (!failure || failure.busy || failure.shown) return;
        set({ saveFailure: { ...failure, busy: 'loading', error: null } });
        const r = await getApi().library.keptRecords({ id: failure.datasetId });
        const now = get().saveFailure;
        if (now?.datasetId !== failure.datasetId) return;
        set({
          saveFailure: r.ok
            ? { ...now, busy: null, shown: r.value }
            : { ...now, busy: null, error: r.error.message },
        });
      },
    };
  },
);

/**
 * The search store's reactions to the rest of the session: another active profile, and a deleted
 * dataset that was offered as a saved copy. Called by the app (connectStores); returns the disconnect.
 */
export function connectSearchStore(): () => void {
  const offProfiles = useSessionStore.subscribe((s, prev) => {
    if (s.activeId === prev.activeId) return;
    const old = prev.activeId ? prev.profiles.find((p) => p.id === prev.activeId) : undefined;
    useSearchStore
      .getState()
      .activeProfileChanged(
        prev.activeId ? { id: prev.activeId, name: old?.name ?? 'the previous profile' } : null,
        s.activeId,
      );
  });
  const offRemoved = onDatasetRemoved((id) => {
    if (useSearchStore.getState().offer?.dataset.id === id) void useSearchStore.getState().recheckOffer();
  });
  const offFailed = getApi().on('library.saveFailed', (f) => useSearchStore.getState().saveFailed(f));
  const offHead = getApi().on('shipments.head', (h) => useSearchStore.getState().headArrived(h));
  return () => {
    offProfiles();
    offRemoved();
    offFailed();
    offHead();
  };
}

/** The answer on screen has no record at all: the page says so instead of showing an empty grid. */
export function selectNothingMatched(s: Pick<SearchData, 'result'>): boolean {
  return s.result !== null && s.result.total === 0 && s.result.returned === 0;
}

/** A cancelled search's outcome as the shared notice tells it. */
export function cancelledState(o: CancelOutcome | null): CancelledState | null {
  if (!o) return null;
  return o.state === 'failed' ? { state: 'failed', message: o.error.message } : { state: o.state };
}

/** What the Search page needs to say before a run: field messages, the cost line, and why Run is off. */
export interface SearchCheck {
  validation: Validation;
  /** Null while the size is invalid: no cost can be stated for it. */
  limit: LimitCheck | null;
  /** New HS codes against the account's allowance of distinct codes; null when none are new or it is unlimited. */
  hsCodes: HsCodeCheck | null;
  costText: string;
  reason: string | null;
}

/**
 * The cost line. The account is the one the request will be charged to: the filter's, else the
 * profile's default that main sends. A size with an error has no cost ("NaN records" helps nobody).
 */
export function describeSearchCost(limit: LimitCheck | null, size: number): string {
  if (!limit)
    return `Downloads — (enter from ${fmt(SHIPMENT_SEARCH_MIN_SIZE)} to ${fmt(SHIPMENT_SEARCH_MAX_SIZE)} records to download)`;
  const head = limit.state === 'unknown' ? `up to ${fmt(size)} records — ${limit.message}` : limit.message;
  return `Downloads ${head}${limit.account ? ` (account ${limit.account})` : ''}`;
}

/** The check for these inputs: the same for the Run button (a hook) and the menu's Run Search (an action). */
export function searchCheckOf(
  draft: FilterDraft,
  size: number,
  confirmed: boolean,
  summary: UsageSummary | null,
  accounts: AccountContext,
  /** What is typed in the list fields and not added (the filter store's `typed`, `refused`). */
  entries: Pick<ValidationExtra, 'typed' | 'refused'> = {},
): SearchCheck {
  return checkValidated(
    validateSearchDraft(draft, size, accounts, entries),
    draft,
    size,
    confirmed,
    summary,
    accounts,
  );
}

function validateSearchDraft(
  draft: FilterDraft,
  size: number,
  accounts: AccountContext,
  entries: Pick<ValidationExtra, 'typed' | 'refused'>,
): Validation {
  return validateDraft(draft, 'shipmentSearch', { size, ...accounts, ...entries });
}

/** The check of a search whose fields are validated: the account's limits and what may run. */
function checkValidated(
  validation: Validation,
  draft: FilterDraft,
  size: number,
  confirmed: boolean,
  summary: UsageSummary | null,
  accounts: AccountContext,
): SearchCheck {
  const sizeValid = !validation.bySlot.size?.length;
  const account = draft.account_name.trim() || accounts.defaultAccount;
  const limit = sizeValid ? checkLimit(summary, account, 'shipments/search', size) : null;
  const hsCodes = checkHsCodes(summary, account, draft.hs_codes);
  const blockedByLimit = limit?.state === 'exceeds' && !confirmed;
  // The service refuses a search past the HS-code allowance whole, whatever the analyst confirms.
  const reason = !validation.valid
    ? validation.reason
    : hsCodes?.state === 'exceeds'
      ? `Cannot run: ${hsCodes.message}`
      : blockedByLimit
        ? 'Cannot run: this search would pass the account limit; confirm to run anyway'
        : null;
  return { validation, limit, hsCodes, costText: describeSearchCost(limit, size), reason };
}

export function useSearchCheck(): SearchCheck {
  const draft = useFilter((s) => s.draft);
  const typed = useFilter((s) => s.typed);
  const refused = useFilter((s) => s.refused);
  const size = useSearchStore((s) => s.size);
  const confirmed = useSearchStore((s) => s.overLimitConfirmed);
  const summary = useUsageStore((s) => s.summary);
  const accounts = useAccountContext();
  // The same check while its inputs stay: the filter form and the run bar then skip the renders a
  // search's answer causes on the page. The usage that comes with each answer changes the cost, not
  // what the fields say: the form keeps its validation, and its fields are not drawn again.
  const validation = useMemo(
    () => validateSearchDraft(draft, size, accounts, { typed, refused }),
    [draft, size, accounts, typed, refused],
  );
  return useMemo(
    () => checkValidated(validation, draft, size, confirmed, summary, accounts),
    [validation, draft, size, confirmed, summary, accounts],
  );
}

/**
 * The menu's Run Search (Ctrl+Enter): runs exactly when the Run button could be pressed, so a
 * half-entered or refused filter sends nothing. Returns whether a search started.
 */
export function runSearchCommand(): boolean {
  const s = useSearchStore.getState();
  if (s.status === 'running') return false;
  const { draft, typed, refused } = filterStore.getState();
  const check = searchCheckOf(
    draft,
    s.size,
    s.overLimitConfirmed,
    useUsageStore.getState().summary,
    currentAccountContext(),
    { typed, refused },
  );
  if (check.reason) return false;
  void s.run();
  return true;
}
