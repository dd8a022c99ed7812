import { COUNT, formatNumber } from '@shared/fields';
import type { FirmCountRequest, FirmSearchRequest, FirmSearchResponse, UsageSummary } from '@shared/spec';
import type { BridgeError } from '@shared/ipc/errors';
import { getApi } from '../../bridge/api';
import {
  currentFilter,
  validateCurrent,
  validateDraft,
  type FilterDraft,
  type Validation,
  type ValidationExtra,
} from '../filters';
import {
  checkHsCodes,
  currentAccountContext,
  selectActiveProfile,
  useSessionStore,
  type AccountContext,
  type HsCodeCheck,
} from '../../session';
import { cancellableRuns, defineStore } from '../../store';

/**
 * What became of a cancelled firm search. As with a shipment search, a request that has gone to the
 * service is not aborted (the service may count it whether or not its answer is read): Cancel stops the
 * waiting, and the page is kept in the Library and in this session when it arrives.
 */
export type FirmCancel =
  | { state: 'pending'; page: number }
  /** The page arrived after Cancel: paid for and saved; it can still be shown. */
  | { state: 'spent'; page: number; request: FirmSearchRequest; result: FirmSearchResponse }
  | { state: 'failed'; page: number; error: BridgeError };

export interface FirmsData {
  status: 'idle' | 'running' | 'done' | 'error' | 'cancelled';
  request: FirmSearchRequest | null;
  result: FirmSearchResponse | null;
  /** The request that produced `result` (`request` is the latest asked, which may have failed or still run). */
  resultRequest: FirmSearchRequest | null;
  error: BridgeError | null;
  /**
   * When `result` was shown again from this session's earlier fetch of the same page (nothing was
   * requested): the time that answer was fetched. Null for an answer fetched just now.
   */
  reusedFrom: number | null;
  /** Set while the last search shown on the status line was cancelled. */
  cancelled: FirmCancel | null;
  count: {
    status: 'idle' | 'running' | 'done' | 'error';
    value: number | null;
    error: BridgeError | null;
    request: FirmCountRequest | null;
  };
}

export interface FirmsActions {
  /** Runs page 1 of the form's filter. */
  search(): Promise<void>;
  /** Another page of the same request as the last search (the form may have changed since). */
  goToPage(page: number): Promise<void>;
  countFirms(): Promise<void>;
  /** Stops waiting for the running search; what is on screen stays. */
  cancel(): void;
  /** Shows the page that arrived after Cancel (it was paid for). */
  showLatePage(): void;
}

export type FirmsState = FirmsData & FirmsActions;

const initialState: FirmsData = {
  status: 'idle',
  request: null,
  result: null,
  resultRequest: null,
  error: null,
  reusedFrom: null,
  cancelled: null,
  count: { status: 'idle', value: null, error: null, request: null },
};

const fmtInt = (n: number): string => formatNumber(n, COUNT);

/**
 * The page-number field: what the user typed, judged against the pages the last answer reported.
 * A page past the end would cost a request for an empty answer, so it is refused at the field.
 */
export type PageJump = { ok: true; page: number; message: null } | { ok: false; message: string | null };

export function checkPageJump(text: string, pages: number): PageJump {
  const t = text.trim();
  if (t === '') return { ok: false, message: null };
  const n = Number(t);
  if (!Number.isInteger(n)) return { ok: false, message: 'Page: a whole number' };
  const last = Math.max(1, pages);
  if (n < 1 || n > last) return { ok: false, message: `Page: between 1 and ${fmtInt(last)}` };
  return { ok: true, page: n, message: null };
}

/** What the Firms page says before a run: the form's checks for each button, and the HS-code allowance. */
export interface FirmsCheck {
  search: Validation;
  count: Validation;
  /** New HS codes against the account's allowance of distinct codes; null when none are new or it is unlimited. */
  hsCodes: HsCodeCheck | null;
}

/**
 * Firm searches and counts name HS codes as shipment searches do, and the service counts every new one
 * against the same allowance: past it, either is refused whole, so both buttons are off and say why.
 */
export function firmsCheckOf(
  draft: FilterDraft,
  summary: UsageSummary | null,
  accounts: AccountContext,
  /** What is typed in the list fields and not added (the filter store's `typed`, `refused`). */
  entries: Pick<ValidationExtra, 'typed' | 'refused'> = {},
): FirmsCheck {
  // The account charged: the filter's, else the profile's default that main sends.
  const account = draft.account_name.trim() || accounts.defaultAccount;
  const hsCodes = checkHsCodes(summary, account, draft.hs_codes);
  const blocked = hsCodes?.state === 'exceeds' ? `Cannot run: ${hsCodes.message}` : null;
  const search = validateDraft(draft, 'firmSearch', { page: 1, ...accounts, ...entries });
  const count = validateDraft(draft, 'firmCount', { ...accounts, ...entries });
  return {
    search: { ...search, reason: search.reason ?? blocked },
    count: { ...count, reason: count.reason ?? blocked },
    hsCodes,
  };
}

/** Lists whose order means nothing to the service (as the library's filter key treats them). */
const SET_FIELDS: ReadonlySet<string> = new Set([
  'importer_countries',
  'exporter_countries',
  'hs_codes',
  'firm_filter',
]);

/**
 * Who pays for and owns a page, and which page of which question it is. Tag order and an explicit
 * importer_countries ["ALL"] (firm-search rule 3) do not change the answer, so they do not change the key.
 */
export function firmPageKey(request: FirmSearchRequest, profileId: string | null, account: string): string {
  const filter: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(request).sort(([a], [b]) => a.localeCompare(b))) {
    if (
      k === 'page' ||
      k === 'account_name' ||
      v === undefined ||
      v === '' ||
      (Array.isArray(v) && v.length === 0)
    )
      continue;
    filter[k] = Array.isArray(v) && SET_FIELDS.has(k) ? [...new Set(v.map(String))].sort() : v;
  }
  if (JSON.stringify(filter.importer_countries) === '["ALL"]') delete filter.importer_countries;
  return JSON.stringify([profileId ?? '', account, request.page, filter]);
}

interface RememberedPage {
  result: FirmSearchResponse;
  fetchedAt: number;
}

/** Enough for long paging sessions; a page is at most a few hundred firm records. */
const MAX_REMEMBERED_PAGES = 500;

export const useFirmsStore = defineStore<FirmsData, FirmsActions>(initialState, (set, get, { onReset }) => {
  /** Each run keeps the request it waits for. */
  const searches = cancellableRuns<FirmSearchRequest>();
  /**
   * Every firm page answered in this session, by profile, account, filter and page. Each answer cost a
   * firms/search download and main saved it to the library as it arrived, so asking for the same page
   * again would only spend the quota twice and save a duplicate dataset.
   */
  const pages = new Map<string, RememberedPage>();
  onReset(() => {
    searches.supersede();
    pages.clear();
  });

  function keyOf(request: FirmSearchRequest, profileId: string | null): string {
    // The account main charges: the filter's, else the profile's default (see provenanceOf in main).
    const account =
      request.account_name?.trim() || selectActiveProfile(useSessionStore.getState())?.accountName || '';
    return firmPageKey(request, profileId, account);
  }

  async function fetchPage(request: FirmSearchRequest) {
    const run = searches.begin(request);
    // Named explicitly, so the answer is remembered under the profile that was active at the click.
    const profileId = useSessionStore.getState().activeId;
    const key = keyOf(request, profileId);
    const seen = pages.get(key);
    if (seen) {
      searches.settle(run);
      set({
        status: 'done',
        request,
        result: seen.result,
        resultRequest: request,
        error: null,
        reusedFrom: seen.fetchedAt,
        cancelled: null,
      });
      return;
    }
    set({ status: 'running', request, error: null, cancelled: null });
    const r = await getApi().firms.search({ request, ...(profileId ? { profileId } : {}) });
    const end = searches.settle(run);
    if (r.ok) {
      // Remembered even when superseded: it was paid for and saved, so it must not be fetched again.
      if (pages.size >= MAX_REMEMBERED_PAGES) pages.delete(pages.keys().next().value ?? '');
      pages.set(key, { result: r.value, fetchedAt: Date.now() });
    }
    // Superseded: main saved the page (and announced it and the usage spent); this screen shows a newer one.
    if (end !== 'current') {
      // Cancelled, and nothing newer since: say what the request cost.
      if (end === 'cancelled' && get().status === 'cancelled')
        set({
          cancelled: r.ok
            ? { state: 'spent', page: request.page, request, result: r.value }
            : { state: 'failed', page: request.page, error: r.error },
        });
      return;
    }
    if (r.ok) set({ status: 'done', result: r.value, resultRequest: request, reusedFrom: null });
    else set({ status: 'error', error: r.error });
  }
  return {
    async search() {
      if (!validateCurrent('firmSearch', { page: 1, ...currentAccountContext() }).valid) return;
      await fetchPage({ ...currentFilter(), page: 1 });
    },
    async goToPage(page) {
      const last = get().request;
      const pages = get().result?.total_pages ?? 1;
      if (!last || !Number.isInteger(page) || page < 1 || page > Math.max(1, pages)) return;
      await fetchPage({ ...last, page });
    },
    async countFirms() {
      if (!validateCurrent('firmCount', currentAccountContext()).valid) return;
      const request = currentFilter();
      set({ count: { status: 'running', value: null, error: null, request } });
      const r = await getApi().firms.count({ request });
      if (r.ok) set({ count: { status: 'done', value: r.value.firm_count, error: null, request } });
      else set({ count: { status: 'error', value: null, error: r.error, request } });
    },
    cancel() {
      if (get().status !== 'running') return;
      const call = searches.cancel();
      if (!call) return;
      // The page on screen (if any) stays; it answers resultRequest, not the cancelled request.
      set({
        status: 'cancelled',
        request: get().resultRequest,
        cancelled: { state: 'pending', page: call.info.page },
      });
    },
    showLatePage() {
      const c = get().cancelled;
      if (c?.state !== 'spent') return;
      set({
        status: 'done',
        request: c.request,
        result: c.result,
        resultRequest: c.request,
        error: null,
        reusedFrom: null,
        cancelled: null,
      });
    },
  };
});

const plural = (n: number, one: string, many: string) => `${fmtInt(n)} ${n === 1 ? one : many}`;

/** No firm at all matched the filter: the page says so instead of paging through nothing. */
export function firmsNothingMatched(result: FirmSearchResponse | null): boolean {
  return result !== null && result.total_pages === 0 && result.firms.length === 0;
}

/** The line over a page of firms: "Page 2 of 5 · 100 firms on this page · 12,345 shipments match". */
export function describeFirmPage(result: FirmSearchResponse): string {
  if (firmsNothingMatched(result)) return 'No matching firms';
  return (
    `Page ${fmtInt(result.page)} of ${fmtInt(result.total_pages)} · ` +
    `${plural(result.firms_count, 'firm', 'firms')} on this page · ` +
    `${plural(result.total_shipment, 'shipment matches', 'shipments match')}`
  );
}

/** What Count firms found: "1 firm matches the filter.", "1,204 firms match the filter." */
export function describeFirmCount(n: number): string {
  return `${plural(n, 'firm matches', 'firms match')} the filter.`;
}
