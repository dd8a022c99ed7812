// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProfilesState, ProfileView } from '@shared/profiles/profiles-contract';
import {
  SHIPMENT_FIELDS,
  type FirmRecord,
  type FirmSearchRequest,
  type FirmSearchResponse,
  type UsageSummary,
} from '@shared/spec';
import type { ShipmentSearchAnswer } from '@shared/query/query-contract';
import { setApi } from '../../src/renderer/src/bridge/api';
import * as filters from '../../src/renderer/src/features/filters/filter-store';
import { FirmSearchView } from '../../src/renderer/src/features/firms/firm-search-view';
import * as firms from '../../src/renderer/src/features/firms/firms-store';
import * as searchPage from '../../src/renderer/src/features/search/search-page';
import * as search from '../../src/renderer/src/features/search/search-store';
import * as app from '../../src/renderer/src/session/session-store';
import * as usage from '../../src/renderer/src/session/usage-store';
import { fakeBridge, ok, reading } from './fake-bridge';

/**
 * The Firms page over a fake main that checks every call against the channel's real input schema and
 * answers a firm search at once with the page asked for (two pages in all), as main would after saving it.
 */
const profile = (id: string, name: string, accountName = ''): ProfileView => ({
  id,
  name,
  baseUrl: 'https://svc.example',
  accountName,
  apiKeyMasked: '••••1234',
  hasSecret: true,
  demo: false,
});
const PROFILES = [profile('pa', 'Head office', 'main'), profile('pb', 'Small desk', 'small')];
const metric = (current: number, limit: number) => ({ current, limit });
const USAGE: Record<string, UsageSummary> = {
  pa: {
    main: {
      'firms/search': metric(0, 1000),
      'firms/count': metric(0, 1000),
      'shipments/search': metric(0, 150_000),
    },
    'eu-desk': {
      'firms/search': metric(0, 1000),
      'firms/count': metric(0, 1000),
      'shipments/search': metric(0, 150_000),
    },
  },
  pb: {
    small: {
      'firms/search': metric(0, 1000),
      'firms/count': metric(0, 1000),
      'shipments/search': metric(0, 150_000),
    },
  },
};

const firm = (name: string): FirmRecord => ({
  country: 'United Arab Emirates',
  country_code: 'AE',
  name,
  address: '',
  city_state: '',
  tel: '',
  e_mail: '',
  web: '',
  firm_type: 1,
  shipment_count: 12,
});
const firmPage = (page: number): FirmSearchResponse & { datasetId: string } => ({
  total_shipment: 2632,
  total_pages: 2,
  page,
  firms_count: 2,
  firms: [firm(page === 1 ? 'Gulf Al Noor General Trading FZE' : 'Page two importer'), firm(`Other ${page}`)],
  datasetId: `ds-firms-p${page}-${Math.random()}`,
});

const record = Object.fromEntries(SHIPMENT_FIELDS.map((f) => [f, '']));
const shipments = (n: number, total: number): ShipmentSearchAnswer => ({
  total,
  returned: n,
  head: Array.from({ length: n }, (_, i) => ({
    ...record,
    _row: i,
    hashId: `h${i}`,
    importerName: `Unrelated importer ${i}`,
  })),
  datasetId: 'ds-old-shipments',
});

let activeId = 'pa';

const state = (): ProfilesState => ({ profiles: PROFILES, activeId, keychainProblem: null });
const bridge = fakeBridge({
  'profiles.list': () => ok(state()),
  'usage.get': ({ profileId }) => ok(reading(USAGE[profileId ?? activeId]!)),
  'firms.search': ({ request }) => ok(firmPage((request as FirmSearchRequest).page)),
  'shipments.search': () => ok(shipments(10, 10)),
});
const log = bridge.log;

beforeAll(() => {
  setApi(bridge.api);
  // What the app connects at start: usage and the search follow the active profile.
  usage.connectUsageStore();
  search.connectSearchStore();
});

/** The Firms filter QA used: Chinese exporters over a quarter. */
const QA_FILTER = {
  exporter_countries: ['CN'],
  start_date: '2024-01-01',
  end_date: '2024-03-31',
  hs_codes: ['8471'],
};

beforeEach(async () => {
  activeId = 'pa';
  log.length = 0;
  act(() => {
    app.useSessionStore.setState({ profiles: PROFILES, activeId: 'pa', page: 'firms' });
    firms.useFirmsStore.setState({
      status: 'idle',
      request: null,
      result: null,
      resultRequest: null,
      error: null,
      reusedFrom: null,
    });
    search.useSearchStore.setState({
      status: 'idle',
      result: null,
      request: null,
      resultProfileId: null,
      error: null,
      elapsedMs: null,
      offer: null,
      notice: null,
      cancelOutcome: null,
      datasetId: null,
      size: 1000,
      overLimitConfirmed: false,
    });
    filters.filterStore.getState().load(QA_FILTER);
  });
  await act(() => usage.refreshUsage());
});
afterEach(cleanup);

const el = (id: string) => screen.getByTestId(id);
const firmSearches = () =>
  log
    .filter((c) => c.channel === 'firms.search')
    .map((c) => (c.input as { request: FirmSearchRequest }).request);
const shownPage = () => el('firms-summary').getAttribute('data-page');

async function click(id: string, page: string) {
  fireEvent.click(el(id));
  await waitFor(() => expect(shownPage()).toBe(page));
}

describe('firms page: why a firm search cannot run', () => {
  it('is said once, by the run bar, when the rule is of the whole form (no filter at all)', () => {
    act(() => filters.filterStore.getState().load({}));
    render(<FirmSearchView />);
    expect((el('firms-run') as HTMLButtonElement).disabled).toBe(true);
    expect(el('firms-run-reason').textContent).toBe('Cannot run: Firm search needs at least one filter');
    expect(screen.getAllByText(/needs at least one filter/)).toHaveLength(1);
    expect(el('firms-run').getAttribute('aria-describedby')).toBe('firms-run-reason');
  });
});

describe('firms page: before the first firm search', () => {
  it('says what to do in an empty state, as Search does, naming the button and Enter', () => {
    render(<FirmSearchView />);
    const empty = el('firms-search-empty');
    expect(screen.getByText('No firm search yet')).toBeTruthy();
    expect(empty.textContent).toContain('Choose at least one filter above');
    expect(empty.textContent).toContain('then choose Search firms or press Enter in any field');
    expect(empty.querySelector('strong')?.textContent).toBe(el('firms-run').textContent);
  });
});

describe('firms page: a search that finds one firm, or none', () => {
  const answerWith = (r: FirmSearchResponse) =>
    bridge.answer({ 'firms.search': () => ok({ ...r, datasetId: `ds-firms-${Math.random()}` }) });
  afterEach(() =>
    bridge.answer({ 'firms.search': ({ request }) => ok(firmPage((request as FirmSearchRequest).page)) }),
  );

  it('counts in words that agree with the number ("1 firm", "1 shipment matches")', async () => {
    answerWith({ total_shipment: 1, total_pages: 1, page: 1, firms_count: 1, firms: [firm('Only one LLC')] });
    // A filter of its own: the pages this session remembers are by filter.
    act(() => filters.filterStore.getState().load({ product_detail: 'one of a kind' }));
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(shownPage()).toBe('1'));
    expect(el('firms-summary').textContent).toBe('Page 1 of 1 · 1 firm on this page · 1 shipment matches');
    expect(screen.queryByTestId('firms-no-match')).toBeNull();
    expect(screen.getByTestId('firms-grid')).toBeTruthy();
  });

  it('says that no firm matches, instead of "Page 1 of 0" over an empty grid with paging', async () => {
    answerWith({ total_shipment: 0, total_pages: 0, page: 1, firms_count: 0, firms: [] });
    act(() => filters.filterStore.getState().load({ product_detail: 'no such goods' }));
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(el('firms-summary').textContent).toBe('No matching firms'));
    expect(el('firms-no-match').textContent).toContain('No firms match this filter');
    expect(el('firms-no-match').textContent).toContain('nothing was downloaded');
    // Nothing to page through, filter or fetch all of.
    for (const id of ['firms-grid', 'firms-prev', 'firms-next', 'firms-page-input', 'firms-quick-filter'])
      expect(screen.queryByTestId(id), id).toBeNull();

    // A later search that fails leaves this answer on screen, named as the previous search's.
    bridge.answer({
      'firms.search': () => ({
        ok: false,
        error: { kind: 'ServiceError', message: 'The service failed (HTTP 500).', status: 500 },
      }),
    });
    act(() => filters.filterStore.getState().load({ product_detail: 'other goods' }));
    fireEvent.click(el('firms-run'));
    await waitFor(() =>
      expect(el('firms-no-match').textContent).toContain('The previous firm search matched no firms'),
    );
    expect(el('firms-no-match').textContent).not.toContain('match this filter');
  });
});

describe('firms page: paging back to a page already fetched', () => {
  it('shows page 1 again from this session without a second request (so no second download or saved copy)', async () => {
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(shownPage()).toBe('1'));
    await click('firms-next', '2');
    expect(firmSearches().map((r) => r.page)).toEqual([1, 2]);
    expect(screen.queryByTestId('firms-reused')).toBeNull();

    await click('firms-prev', '1');
    expect(firmSearches().map((r) => r.page)).toEqual([1, 2]);
    expect(el('firms-summary').textContent).toContain('Page 1 of 2');
    expect(el('firms-reused').textContent).toContain('Page 1 was already fetched in this session');
    expect(el('firms-reused').textContent).toContain('nothing was downloaded');

    // The page field and "Search firms" on the same filter (tags in another order) are the same pages too.
    fireEvent.change(el('firms-page-input'), { target: { value: '2' } });
    await click('firms-page-go', '2');
    act(() =>
      filters.filterStore
        .getState()
        .load({ ...QA_FILTER, hs_codes: ['8471'], exporter_countries: ['CN'], importer_countries: ['ALL'] }),
    );
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(shownPage()).toBe('1'));
    expect(firmSearches()).toHaveLength(2);
    // Nothing was saved again: only the two answers that came from main ever carried a dataset.
    expect(log.filter((c) => c.channel === 'firms.search')).toHaveLength(2);
  });

  it('fetches a page again for another filter, account or profile, which the earlier answer does not cover', async () => {
    // The store remembers for the whole session (this file's too): a filter no other test asked.
    const filter = { ...QA_FILTER, hs_codes: ['8472'] };
    act(() => filters.filterStore.getState().load(filter));
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(firmSearches()).toHaveLength(1));

    act(() => filters.filterStore.getState().load({ ...filter, end_date: '2024-06-30' }));
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(firmSearches()).toHaveLength(2));

    act(() =>
      filters.filterStore.getState().load({ ...filter, end_date: '2024-06-30', account_name: 'main' }),
    );
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(screen.getByTestId('firms-reused')).toBeTruthy());
    expect(firmSearches()).toHaveLength(2);

    // Another account of the same profile pays for its own pages.
    act(() =>
      filters.filterStore.getState().load({ ...filter, end_date: '2024-06-30', account_name: 'eu-desk' }),
    );
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(firmSearches()).toHaveLength(3));

    // Back to no account named (the other profile has no "main"): the same question asked by another profile.
    act(() => filters.filterStore.getState().load({ ...filter, end_date: '2024-06-30' }));
    act(() => app.useSessionStore.setState({ activeId: 'pb' }));
    activeId = 'pb';
    await act(() => usage.refreshUsage());
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(firmSearches()).toHaveLength(4));
    expect(log.filter((c) => c.channel === 'firms.search').at(-1)?.input).toMatchObject({ profileId: 'pb' });
    expect(screen.queryByTestId('firms-reused')).toBeNull();
  });
});

describe('firms page → search: a firm’s shipments', () => {
  it('keeps the firm search’s dates and countries, clears the unrelated result and asks for nothing until Search is clicked', async () => {
    // The Search page still holds an earlier, unrelated answer.
    act(() =>
      search.useSearchStore.setState({
        status: 'done',
        result: shipments(10, 2632),
        request: { size: 10 },
        resultProfileId: 'pa',
        datasetId: 'ds-old-shipments',
      }),
    );
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    // The grid's first paint can take seconds on a loaded machine: wait for it, not for a fixed time.
    await waitFor(() => expect(screen.getByTestId('firm-open-importer-0')).toBeTruthy(), { timeout: 15_000 });
    // The form changes after the search: the row still belongs to the search that listed it.
    act(() => filters.filterStore.getState().setText('start_date', '2023-01-01'));
    fireEvent.click(el('firm-open-importer-0'));
    expect(app.useSessionStore.getState().page).toBe('search');
    cleanup();

    render(<searchPage.SearchPage />);
    expect(el('filter-notice').textContent).toContain(
      'Shipments of importer “Gulf Al Noor General Trading FZE”',
    );
    expect(el('filter-notice').textContent).toContain('dates 2024-01-01 to 2024-03-31');
    expect(el('filter-notice').textContent).toContain('Exporter countries CN');
    expect(filters.currentFilter()).toEqual({
      ...QA_FILTER,
      importer_firm: 'Gulf Al Noor General Trading FZE',
    });

    expect(screen.queryByTestId('search-summary')).toBeNull();
    expect(screen.queryByTestId('shipments-grid')).toBeNull();
    expect(el('search-notice').textContent).toContain(
      'The shipments of importer “Gulf Al Noor General Trading FZE” have not been searched yet',
    );
    expect(el('search-notice').textContent).toContain('it is kept in the Library');
    await waitFor(() => expect(el('search-cost-text').textContent).toContain('(account main)'));
    expect((el('search-run') as HTMLButtonElement).disabled).toBe(false);
    expect(log.some((c) => c.channel === 'shipments.search')).toBe(false);

    fireEvent.click(el('search-run'));
    await waitFor(() => expect(log.some((c) => c.channel === 'shipments.search')).toBe(true));
    const sent = log.find((c) => c.channel === 'shipments.search')?.input as {
      request: Record<string, unknown>;
    };
    expect(sent.request).toEqual({
      ...QA_FILTER,
      importer_firm: 'Gulf Al Noor General Trading FZE',
      size: 1000,
    });
  });
});

describe('firms page: cancel', () => {
  type Answer = Awaited<ReturnType<typeof bridge.api.firms.search>>;
  let waiting: ((a: Answer) => void)[] = [];
  let fresh = 0;
  beforeEach(() => {
    waiting = [];
    firms.useFirmsStore.setState({ cancelled: null });
    // A filter no earlier test searched: a page this session already holds is shown without a request.
    act(() => filters.filterStore.getState().load({ ...QA_FILTER, hs_codes: [String(8500 + ++fresh)] }));
    bridge.answer({ 'firms.search': () => new Promise<Answer>((resolve) => waiting.push(resolve)) });
  });
  afterEach(() =>
    bridge.answer({ 'firms.search': ({ request }) => ok(firmPage((request as FirmSearchRequest).page)) }),
  );

  async function startAndCancel(): Promise<(a: Answer) => void> {
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(waiting.length).toBe(1));
    fireEvent.click(el('firms-cancel'));
    expect(screen.queryByTestId('firms-progress')).toBeNull();
    expect(el('firms-cancelled').getAttribute('data-outcome')).toBe('pending');
    expect(el('firms-cancelled').textContent).toContain(
      'the page will be kept in the Library when it arrives',
    );
    expect((el('firms-run') as HTMLButtonElement).disabled).toBe(false);
    return waiting.shift()!;
  }

  it('stops the wait, keeps the page that arrives (it was paid for) and can show it', async () => {
    const resolve = await startAndCancel();
    await act(async () => resolve(ok(firmPage(1))));
    expect(el('firms-cancelled').getAttribute('data-outcome')).toBe('spent');
    // In the words Search uses for its late answer (one notice for both pages).
    expect(el('firms-cancelled').textContent).toBe(
      'Firm search cancelled after the request was sent: page 1 was downloaded and counted against the account, and saved to the Library. Show this page',
    );
    expect(screen.queryByTestId('firms-summary')).toBeNull();
    fireEvent.click(el('firms-cancelled-show'));
    expect(shownPage()).toBe('1');
    expect(screen.queryByTestId('firms-cancelled')).toBeNull();
    // Searching the same filter again shows the kept page: nothing is asked twice.
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(el('firms-reused')).toBeTruthy());
    expect(firmSearches()).toHaveLength(1);
  });

  it('says the search failed anyway when the cancelled request ends in an error', async () => {
    const resolve = await startAndCancel();
    await act(async () =>
      resolve({
        ok: false,
        error: { kind: 'ServiceError', message: 'The service failed (HTTP 500).', status: 500 },
      }),
    );
    expect(el('firms-cancelled').getAttribute('data-outcome')).toBe('failed');
    expect(el('firms-cancelled').textContent).toContain('HTTP 500');
    expect(screen.queryByTestId('firms-error')).toBeNull();
  });

  it('keeps the page on screen when the next search is cancelled; a search after Cancel supersedes it', async () => {
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(waiting.length).toBe(1));
    await act(async () => waiting.shift()!(ok(firmPage(1))));
    expect(shownPage()).toBe('1');
    fireEvent.click(el('firms-next'));
    await waitFor(() => expect(waiting.length).toBe(1));
    expect(screen.queryByTestId('firms-result-previous')).toBeNull();
    fireEvent.click(el('firms-cancel'));
    expect(shownPage()).toBe('1');
    expect(el('firms-cancelled').getAttribute('data-outcome')).toBe('pending');
    // The page on screen is named as the previous search's, in Search's words.
    expect(el('firms-result-previous').textContent).toBe(
      'The last firm search was cancelled. The firms below are the result of the previous search.',
    );

    // Next again: a new request (the cancelled page has not arrived), and the notice makes way for it.
    fireEvent.click(el('firms-next'));
    await waitFor(() => expect(waiting.length).toBe(2));
    expect(screen.queryByTestId('firms-cancelled')).toBeNull();
    const [cancelled, newest] = waiting;
    await act(async () => newest!(ok(firmPage(2))));
    expect(shownPage()).toBe('2');
    // The cancelled request's page arrives last: it is not described, and the newest stays.
    await act(async () => cancelled!(ok(firmPage(2))));
    expect(shownPage()).toBe('2');
    expect(screen.queryByTestId('firms-cancelled')).toBeNull();
    expect(screen.queryByTestId('firms-result-previous')).toBeNull();
    expect(firms.useFirmsStore.getState().status).toBe('done');
  });

  it('names the page still on screen as the previous search’s when the next one fails', async () => {
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(waiting.length).toBe(1));
    await act(async () => waiting.shift()!(ok(firmPage(1))));
    fireEvent.click(el('firms-next'));
    await waitFor(() => expect(waiting.length).toBe(1));
    await act(async () =>
      waiting.shift()!({
        ok: false,
        error: { kind: 'ServiceError', message: 'The service failed (HTTP 500).', status: 500 },
      }),
    );
    expect(el('firms-error').textContent).toContain('HTTP 500');
    expect(shownPage()).toBe('1');
    expect(el('firms-result-previous').textContent).toBe(
      'The last firm search failed. The firms below are the result of the previous search, not of the one that failed.',
    );
  });

  it('Escape cancels a running firm search as Cancel does', async () => {
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(waiting.length).toBe(1));
    fireEvent.keyDown(document.body, { key: 'Escape', code: 'Escape' });
    expect(el('firms-cancelled').getAttribute('data-outcome')).toBe('pending');
    expect(screen.queryByTestId('firms-progress')).toBeNull();
    await act(async () => waiting.shift()!(ok(firmPage(1))));
    expect(el('firms-cancelled').getAttribute('data-outcome')).toBe('spent');
  });
});

describe('firms page: the page field', () => {
  afterEach(() =>
    bridge.answer({ 'firms.search': ({ request }) => ok(firmPage((request as FirmSearchRequest).page)) }),
  );

  it('groups a page number as the page count beside it is, and goes to the page typed', async () => {
    bridge.answer({
      'firms.search': ({ request }) =>
        ok({ ...firmPage((request as FirmSearchRequest).page), total_pages: 1_500 }),
    });
    // The store keeps the pages of the session: a filter no other test asked.
    act(() => filters.filterStore.getState().load({ ...QA_FILTER, hs_codes: ['8473'] }));
    render(<FirmSearchView />);
    fireEvent.click(el('firms-run'));
    await waitFor(() => expect(shownPage()).toBe('1'));
    expect(el('firms-summary').textContent).toContain('Page 1 of 1,500');

    const input = el('firms-page-input') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '1600' } });
    expect(input.value).toBe('1,600');
    expect(el('firms-page-input-error').textContent).toBe('Page: between 1 and 1,500');

    fireEvent.change(input, { target: { value: '1,200' } });
    expect(input.value).toBe('1,200');
    expect(screen.queryByTestId('firms-page-input-error')).toBeNull();
    await click('firms-page-go', '1200');
    expect(firmSearches().map((r) => r.page)).toEqual([1, 1_200]);
  });
});
