// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProfilesState, ProfileView } from '@shared/profiles/profiles-contract';
import type { BridgeResult } from '@shared/ipc/errors';
import { SHIPMENT_FIELDS, type ShipmentRecord, type UsageSummary } from '@shared/spec';
import type { ShipmentSearchAnswer } from '@shared/query/query-contract';
import { DEFAULT_SHIPMENT_COLUMNS } from '@shared/fields/default-columns';
import type { DatasetView } from '@shared/library/library-contract';
import { setApi } from '../../src/renderer/src/bridge/api';
import { savedShownColumns } from '../../src/renderer/src/components/grid/column-state';
import * as filters from '../../src/renderer/src/features/filters/filter-store';
import * as page from '../../src/renderer/src/features/search/search-page';
import * as search from '../../src/renderer/src/features/search/search-store';
import * as settings from '../../src/renderer/src/features/settings/settings-store';
import * as app from '../../src/renderer/src/session/session-store';
import * as usage from '../../src/renderer/src/session/usage-store';
import { fakeBridge, ok, reading } from './fake-bridge';
import { dataset as datasetView } from './fake-library';

/**
 * The Search page over a fake main: every call is checked against the channel's real input schema
 * (as main's dispatcher does), usage is answered per profile, and the search answers when the test says.
 */
type Answer = BridgeResult<unknown>;

const profile = (id: string, name: string, accountName = ''): ProfileView => ({
  id,
  name,
  baseUrl: 'https://svc.example',
  accountName,
  apiKeyMasked: '••••1234',
  hasSecret: true,
  demo: false,
});
const PROFILES = [profile('pa', 'Head office'), profile('pb', 'Small desk')];
const metric = (current: number, limit: number) => ({ current, limit });
const USAGE: Record<string, UsageSummary> = {
  pa: {
    main: { 'shipments/search': metric(0, 150_000) },
    'eu-desk': { 'shipments/search': metric(0, 150_000) },
  },
  pb: { small: { 'shipments/search': metric(9_995, 10_000) } },
};

const record = Object.fromEntries(SHIPMENT_FIELDS.map((f) => [f, '']));
const answer = (n: number, total: number): ShipmentSearchAnswer => ({
  total,
  returned: n,
  head: Array.from({ length: n }, (_, i) => ({
    ...record,
    _row: i,
    hashId: `h${i}`,
  })),
  datasetId: `ds-${total}`,
});

interface Pending {
  input: { profileId?: string; headId?: string };
  resolve(a: Answer): void;
}
let activeId = 'pa';
let pending: Pending[] = [];
/** When set, `library.findEquivalent` answers only once this resolves (a slow library lookup). */
let lookupGate: Promise<void> | null = null;

const state = (): ProfilesState => ({ profiles: PROFILES, activeId, keychainProblem: null });
const bridge = fakeBridge({
  'profiles.list': () => ok(state()),
  'profiles.setActive': ({ id }) => {
    activeId = id;
    return ok(state());
  },
  'usage.get': ({ profileId }) => ok(reading(USAGE[profileId ?? activeId]!)),
  'shipments.search': (input) =>
    new Promise((resolve) => pending.push({ input, resolve: resolve as (a: Answer) => void })),
  // A column the answer's first rows lack is read from the library (none here).
  'library.getRows': () => ok({ rows: [], lastRow: 0 }),
  'library.findEquivalent': async () => {
    if (lookupGate) await lookupGate;
    return ok(null);
  },
});
const log = bridge.log;

beforeAll(() => {
  setApi(bridge.api);
  // What the app connects at start: usage and the search follow the active profile.
  usage.connectUsageStore();
  search.connectSearchStore();
});

beforeEach(async () => {
  activeId = 'pa';
  log.length = 0;
  pending = [];
  lookupGate = null;
  act(() => {
    app.useSessionStore.setState({ profiles: PROFILES, activeId: 'pa' });
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
      saveFailure: null,
      early: null,
      size: 1000,
      overLimitConfirmed: false,
    });
    filters.filterStore.getState().reset();
  });
  await act(() => usage.refreshUsage());
});
afterEach(cleanup);

const el = (id: string) => screen.getByTestId(id);
const runButton = () => el('search-run') as HTMLButtonElement;
const type = (id: string, value: string) => fireEvent.change(el(id), { target: { value } });

/** Clicks Search and answers the request with `a` once it reaches main. */
async function searchWith(a: Answer): Promise<Pending> {
  fireEvent.click(runButton());
  await waitFor(() => expect(pending.length).toBe(1));
  const p = pending.shift()!;
  await act(async () => p.resolve(a));
  return p;
}

describe('search page: the active profile changes', () => {
  it("replaces the cost preview with the new profile's usage and clears the old profile's result", async () => {
    render(<page.SearchPage />);
    await waitFor(() =>
      expect(el('search-cost-text').textContent).toContain('150,000 of 150,000 left (account main)'),
    );
    await searchWith({ ok: true, value: answer(1000, 33_014) });
    expect(el('search-fetch-all').textContent).toBe('Fetch all 33,014 records');

    // Settings → Use this profile.
    await act(() => settings.useSettingsStore.getState().setActive('pb'));

    await waitFor(() =>
      expect(el('search-cost-text').textContent).toContain(
        '5 of 10,000 left: this would pass the limit by 995 (account small)',
      ),
    );
    expect(el('search-cost').getAttribute('data-limit-state')).toBe('exceeds');
    expect(screen.getByTestId('search-over-limit')).toBeTruthy();
    expect(runButton().disabled).toBe(true);
    expect(screen.queryByTestId('search-fetch-all')).toBeNull();
    expect(screen.queryByTestId('search-summary')).toBeNull();
    expect(el('search-notice').textContent).toContain('The result of profile “Head office” was cleared');
    expect(log.filter((c) => c.channel === 'usage.get').at(-1)?.input).toEqual({ profileId: 'pb' });
  });
});

describe('search page: account names', () => {
  it('refuses an account the usage summary does not list, at the field, without the cost of another account', async () => {
    render(<page.SearchPage />);
    await waitFor(() => expect(el('search-cost-text').textContent).toContain('(account main)'));
    type('filter-account_name-input', 'nosuch');
    expect(el('filter-account_name-error').textContent).toBe(
      "Account name: not one of this profile's accounts: main, eu-desk",
    );
    expect(runButton().disabled).toBe(true);
    expect(el('search-cost-text').textContent).not.toContain('account main');
    expect(el('search-cost-text').textContent).toContain(
      "account nosuch is not one of this profile's accounts",
    );
    await act(() => search.useSearchStore.getState().run());
    expect(log.some((c) => c.channel === 'shipments.search')).toBe(false);

    type('filter-account_name-input', 'eu-desk');
    expect(screen.queryByTestId('filter-account_name-error')).toBeNull();
    expect(el('search-cost-text').textContent).toContain('(account eu-desk)');
  });

  it("checks the profile's default account when the filter names none", async () => {
    act(() =>
      app.useSessionStore.setState({ profiles: [profile('pa', 'Head office', 'gone-desk'), PROFILES[1]!] }),
    );
    render(<page.SearchPage />);
    await waitFor(() =>
      expect(screen.getByTestId('filter-account_name-error').textContent).toContain(
        "the profile's default account gone-desk is not one of this profile's accounts: main, eu-desk",
      ),
    );
    expect(runButton().disabled).toBe(true);
  });
});

describe('search page: the size field', () => {
  it('is labelled on screen with the name its messages use', async () => {
    render(<page.SearchPage />);
    const input = screen.getByLabelText('Records to download');
    expect(input).toBe(el('search-size-input'));
    expect(el('search-size-label').textContent).toBe('Records to download');
  });

  it('shows the number grouped as every count is, whether chosen, typed or pasted with its commas', async () => {
    render(<page.SearchPage />);
    const input = el('search-size-input') as HTMLInputElement;
    expect(input.value).toBe('1,000');

    fireEvent.click(el('search-size-10000'));
    expect(input.value).toBe('10,000');
    expect(search.useSearchStore.getState().size).toBe(10_000);

    type('search-size-input', '2500');
    expect(input.value).toBe('2,500');
    expect(search.useSearchStore.getState().size).toBe(2_500);
    await waitFor(() => expect(el('search-cost-text').textContent).toContain('up to 2,500 records'));

    type('search-size-input', '7,500');
    expect(input.value).toBe('7,500');
    expect(search.useSearchStore.getState().size).toBe(7_500);
    expect(screen.queryByTestId('filter-size-error')).toBeNull();
  });

  it.each([
    ['', 'Records to download: required: a whole number from 10 to 10,000'],
    ['0', 'Records to download: at least 10'],
    ['-10', 'Records to download: at least 10'],
    ['15.5', 'Records to download: must be a whole number'],
    ['99999999999999999999', 'Records to download: at most 10,000'],
  ])('%j shows no cost, and says %j at the field', async (text, message) => {
    render(<page.SearchPage />);
    await waitFor(() => expect(el('search-cost-text').textContent).toContain('(account main)'));
    type('search-size-input', text);
    expect(el('filter-size-error').textContent).toBe(message);
    expect(el('search-cost-text').textContent).toBe(
      'Downloads — (enter from 10 to 10,000 records to download)',
    );
    expect(el('search-cost-text').textContent).not.toMatch(/NaN|99999|-10|15\.5/);
    expect(el('search-cost').getAttribute('data-limit-state')).toBe('invalid-size');
    expect(runButton().disabled).toBe(true);
  });
});

describe('search page: a failed search', () => {
  it('labels the result still on screen as the previous search’s, and puts the time with the error', async () => {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    await searchWith({ ok: true, value: answer(10, 33_014) });
    expect(el('search-elapsed')).toBeTruthy();
    expect(screen.queryByTestId('search-result-previous')).toBeNull();

    await searchWith({
      ok: false,
      error: { kind: 'ServiceError', message: 'The service failed (HTTP 500).', status: 500 },
    });
    expect(el('search-error').textContent).toContain('HTTP 500');
    expect(el('search-result-previous').textContent).toContain('not of the one that failed');
    expect(el('search-summary').textContent).toBe('Showing 10 of 33,014 matching records');
    expect(screen.queryByTestId('search-elapsed')).toBeNull();
    expect(el('search-error-elapsed').textContent).toMatch(/failed after \d+\.\d\d s/);
  });
});

describe('search page: a refused search', () => {
  /** The page, its search refused for the request limit with a wait of `seconds`. */
  async function refusedWithAWait(seconds: number): Promise<void> {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    await searchWith({
      ok: false,
      error: {
        kind: 'LimitExceeded',
        message: `Request limit reached for account main (429). Try again in ${seconds} s.`,
        status: 429,
        retryAfterSeconds: seconds,
      },
    });
  }

  it('says the wait the service asked for once, in the message, and the status once', async () => {
    await refusedWithAWait(1);
    const text = el('search-error-box').textContent ?? '';
    expect(text.match(/again in 1 s|wait 1 s/g)).toHaveLength(1);
    expect(text.match(/429/g)).toHaveLength(1);
    expect(screen.queryByTestId('search-retry-after')).toBeNull();
  });

  it('counts the wait down in its message, and says when it is over', async () => {
    await refusedWithAWait(30);
    const message = () => el('search-error').textContent ?? '';
    expect(message()).toMatch(/Try again in (29|30) s\.$/);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 20_000);
      await waitFor(() => expect(message()).toMatch(/Try again in (9|10) s\.$/), { timeout: 3_000 });
      vi.setSystemTime(Date.now() + 11_000);
      await waitFor(() => expect(message()).toMatch(/The wait is over: you can try again\.$/), {
        timeout: 3_000,
      });
    } finally {
      vi.useRealTimers();
    }
    expect(message()).toContain('Request limit reached for account main (429).');
  });
});

describe('search page: cancel', () => {
  async function startAndCancel(): Promise<Pending> {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    fireEvent.click(runButton());
    await waitFor(() => expect(pending.length).toBe(1));
    fireEvent.click(el('search-cancel'));
    expect(el('search-cancelled').getAttribute('data-outcome')).toBe('pending');
    expect(el('search-cancelled').textContent).toContain(
      'the answer will be kept in the Library when it arrives',
    );
    return pending.shift()!;
  }

  it('keeps the answer of a request already sent (it may be charged), says so, and can show it', async () => {
    const p = await startAndCancel();
    // Nothing tries to abort the request: an answer the service charged for must not be thrown away.
    expect(
      log
        .map((c) => c.channel)
        .filter((c) => c !== 'shipments.search' && c !== 'library.findEquivalent' && c !== 'usage.get'),
    ).toEqual([]);
    await act(async () => p.resolve({ ok: true, value: answer(10, 33_014) }));
    expect(el('search-cancelled').getAttribute('data-outcome')).toBe('spent');
    expect(el('search-cancelled').textContent).toContain(
      'Search cancelled after the request was sent: its 10 records were downloaded and counted against the account, and saved to the Library.',
    );
    expect(screen.queryByTestId('search-summary')).toBeNull();
    fireEvent.click(el('search-cancelled-show'));
    expect(el('search-summary').textContent).toBe('Showing 10 of 33,014 matching records');
  });

  it('says the search failed anyway when the cancelled request ends in an error', async () => {
    const p = await startAndCancel();
    await act(async () =>
      p.resolve({
        ok: false,
        error: { kind: 'ServiceError', message: 'The service failed (HTTP 500).', status: 500 },
      }),
    );
    expect(el('search-cancelled').getAttribute('data-outcome')).toBe('failed');
    expect(el('search-cancelled').textContent).toContain('HTTP 500');
  });

  it('sends nothing when cancelled while the library is still being consulted', async () => {
    let release: () => void = () => undefined;
    lookupGate = new Promise((r) => (release = r));
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    fireEvent.click(runButton());
    await waitFor(() => expect(log.some((c) => c.channel === 'library.findEquivalent')).toBe(true));
    fireEvent.click(el('search-cancel'));
    expect(el('search-cancelled').getAttribute('data-outcome')).toBe('nothing-spent');
    expect(el('search-cancelled').textContent).toBe(
      'Search cancelled before the request was sent: nothing was downloaded or counted.',
    );
    await act(async () => release());
    await new Promise((r) => setTimeout(r, 20));
    expect(log.filter((c) => c.channel === 'shipments.search')).toEqual([]);
  });

  it('keeps the previous result on screen, says the last search was cancelled, and its late answer does not replace it', async () => {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    await searchWith({ ok: true, value: answer(5, 50) });
    expect(el('search-summary').textContent).toBe('Showing 5 of 50 matching records');
    fireEvent.click(runButton());
    await waitFor(() => expect(pending.length).toBe(1));
    fireEvent.click(el('search-cancel'));
    expect(el('search-summary').textContent).toBe('Showing 5 of 50 matching records');
    expect(el('search-result-previous').textContent).toBe(
      'The last search was cancelled. The records below are the result of the previous search.',
    );
    await act(async () => pending.shift()!.resolve({ ok: true, value: answer(10, 33_014) }));
    expect(el('search-cancelled').getAttribute('data-outcome')).toBe('spent');
    expect(el('search-summary').textContent).toBe('Showing 5 of 50 matching records');
  });

  it('a search run after Cancel supersedes the cancelled one: only the newest answer is shown or described', async () => {
    const cancelled = await startAndCancel();
    fireEvent.click(runButton());
    await waitFor(() => expect(pending.length).toBe(1));
    expect(screen.queryByTestId('search-cancelled')).toBeNull();
    const newest = pending.shift()!;
    await act(async () => newest.resolve({ ok: true, value: answer(7, 70) }));
    expect(el('search-summary').textContent).toBe('Showing 7 of 70 matching records');
    // The cancelled request's answer arrives last: it neither replaces the newest nor brings the notice back.
    await act(async () => cancelled.resolve({ ok: true, value: answer(3, 30) }));
    expect(el('search-summary').textContent).toBe('Showing 7 of 70 matching records');
    expect(screen.queryByTestId('search-cancelled')).toBeNull();
    expect(screen.queryByTestId('search-result-previous')).toBeNull();
  });

  it('Escape cancels a running search as Cancel does, from a field of the form too', async () => {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    fireEvent.click(runButton());
    await waitFor(() => expect(pending.length).toBe(1));
    fireEvent.keyDown(el('filter-product_detail-input'), { key: 'Escape', code: 'Escape' });
    expect(el('search-cancelled').getAttribute('data-outcome')).toBe('pending');
    expect(screen.queryByTestId('search-progress')).toBeNull();
    await act(async () => pending.shift()!.resolve({ ok: true, value: answer(10, 10) }));
    expect(el('search-cancelled').getAttribute('data-outcome')).toBe('spent');
  });

  it('leaves Escape to an open dialog: the search runs on while the dialog closes', async () => {
    render(
      <>
        <page.SearchPage />
        <div role="dialog" data-testid="some-dialog">
          <button type="button">Close</button>
        </div>
      </>,
    );
    act(() => search.useSearchStore.getState().setSize(10));
    fireEvent.click(runButton());
    await waitFor(() => expect(pending.length).toBe(1));
    fireEvent.keyDown(screen.getByText('Close'), { key: 'Escape', code: 'Escape' });
    fireEvent.keyDown(document.body, { key: 'Escape', code: 'Escape' });
    expect(el('search-progress')).toBeTruthy();
    expect(search.useSearchStore.getState().status).toBe('running');
    await act(async () => pending.shift()!.resolve({ ok: true, value: answer(10, 10) }));
    expect(search.useSearchStore.getState().status).toBe('done');
  });
});

describe('search page: keyboard and dates that cannot lie', () => {
  const searches = () => log.filter((c) => c.channel === 'shipments.search');
  const press = (id: string, init: Partial<KeyboardEventInit> = {}) =>
    fireEvent.keyDown(el(id), { key: 'Enter', code: 'Enter', ...init });

  it('Enter in a field runs the search, exactly as the Run button would', async () => {
    render(<page.SearchPage />);
    await waitFor(() => expect(el('search-cost-text').textContent).toContain('(account main)'));
    type('filter-product_detail-input', 'steel');
    press('filter-product_detail-input');
    await waitFor(() => expect(pending.length).toBe(1));
    expect(searches().at(-1)?.input).toMatchObject({ request: { product_detail: 'steel', size: 1000 } });
    await act(async () => pending.shift()!.resolve({ ok: true, value: answer(3, 3) }));
    expect(el('search-summary').getAttribute('data-total')).toBe('3');
  });

  it('an answer with no record says so in words, not with a grid of headers over nothing', async () => {
    render(<page.SearchPage />);
    await waitFor(() => expect(el('search-cost-text').textContent).toContain('(account main)'));
    type('filter-product_detail-input', 'no such goods');
    await searchWith({ ok: true, value: answer(0, 0) });
    expect(el('search-summary').textContent).toBe('No matching records');
    expect(el('search-no-match').textContent).toContain('No shipments match this filter');
    expect(el('search-no-match').textContent).toContain('cost no downloads');
    // No grid, and none of its tools (quick filter, Export…, Columns…) over nothing.
    expect(screen.queryByTestId('shipments-grid')).toBeNull();
    expect(el('search-result-tools').style.display).toBe('none');

    // A later search that fails leaves this answer on screen, named as the previous search's.
    await searchWith({
      ok: false,
      error: { kind: 'ServiceError', message: 'The service failed (HTTP 500).', status: 500 },
    });
    expect(el('search-no-match').textContent).toContain('The previous search matched no shipments');
    expect(el('search-no-match').textContent).not.toContain('match this filter');

    // The next answer with records shows its grid again.
    await searchWith({ ok: true, value: answer(3, 3) });
    expect(el('search-summary').textContent).toBe('3 matching records, all shown');
    expect(screen.queryByTestId('search-no-match')).toBeNull();
    expect(el('search-result-tools').style.display).not.toBe('none');
  });

  it.each([
    ['02/31/2024', 'start_date'],
    ['2024-06-', 'start_date'],
    ['2024-02-31', 'start_date'],
    ['06/dd/yyyy', 'end_date'],
  ] as const)(
    'a half-typed or impossible date (%j) is kept, said at its field, and nothing is sent',
    async (text, field) => {
      render(<page.SearchPage />);
      await waitFor(() => expect(el('search-cost-text').textContent).toContain('(account main)'));
      type(`filter-${field}-input`, text);
      expect((el(`filter-${field}-input`) as HTMLInputElement).value).toBe(text);
      const label = field === 'start_date' ? 'Date from' : 'Date to';
      expect(el(`filter-${field}-error`).textContent).toBe(
        `${label}: not a whole date: type it as yyyy-mm-dd (e.g. 2024-03-31) or pick it`,
      );
      expect(runButton().disabled).toBe(true);
      expect(el('search-run-reason').textContent).toContain(`Cannot run: ${label}: not a whole date`);
      // Neither Enter nor the menu's Run Search (Ctrl+Enter) sends it.
      press(`filter-${field}-input`);
      expect(search.runSearchCommand()).toBe(false);
      await act(() => new Promise((r) => setTimeout(r, 50)));
      expect(searches()).toHaveLength(0);

      // Written whole, the message goes with its cause and the search runs.
      type(`filter-${field}-input`, '2024-02-29');
      expect(screen.queryByTestId(`filter-${field}-error`)).toBeNull();
      expect(runButton().disabled).toBe(false);
      fireEvent.click(runButton());
      await waitFor(() => expect(searches()).toHaveLength(1));
      expect(searches()[0]?.input).toMatchObject({ request: { [field]: '2024-02-29' } });
    },
  );

  it('tidies a date typed with other separators or without leading zeros when the field is left', async () => {
    render(<page.SearchPage />);
    type('filter-start_date-input', '2024/3/5');
    fireEvent.blur(el('filter-start_date-input'));
    expect((el('filter-start_date-input') as HTMLInputElement).value).toBe('2024-03-05');
    expect(screen.queryByTestId('filter-start_date-error')).toBeNull();
  });

  it('names fields as the form labels them, never by their names in the service', async () => {
    render(<page.SearchPage />);
    act(() => filters.filterStore.getState().load({ hs_codes: ['7208', '84a'], product_detail: 'st' }));
    const reason = el('search-run-reason').textContent ?? '';
    expect(reason).toBe('Cannot run: HS codes: “84a”: digits only (and 1 more)');
    expect(el('filter-product_detail-error').textContent).toBe('Product description: at least 3 characters');
    expect(document.body.textContent).not.toMatch(/hs_codes|product_detail|start_date|end_date/);
  });
});

describe('search page: an answer re-renders the result, not the form', () => {
  it('keeps the same check (cost, limits, field messages) while its inputs stay, so the memoised form and run bar skip the answer’s render', async () => {
    const seen: search.SearchCheck[] = [];
    // Like the page: subscribed to the search's status and result as well as to the check.
    function Probe() {
      search.useSearchStore((s) => s.status);
      search.useSearchStore((s) => s.result);
      seen.push(search.useSearchCheck());
      return null;
    }
    render(<Probe />);
    const first = seen.at(-1);
    // What a search's answer changes on the page: its status and result, not the filter, size or usage.
    act(() => search.useSearchStore.setState({ status: 'running', startedAt: 1 }));
    act(() => search.useSearchStore.setState({ status: 'done', result: answer(10, 10), datasetId: 'ds-10' }));
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(1);
    // A change the check depends on gives a new one.
    act(() => search.useSearchStore.getState().setSize(100));
    expect(seen.at(-1)).not.toBe(first);
    expect(seen.at(-1)?.costText).not.toBe(first?.costText);
  });

  it('keeps the field messages when usage news comes with an answer: the cost changes, the form is not drawn again', async () => {
    const seen: search.SearchCheck[] = [];
    function Probe() {
      seen.push(search.useSearchCheck());
      return null;
    }
    act(() => usage.useUsageStore.setState({ summary: USAGE.pa!, profileId: 'pa' }));
    render(<Probe />);
    const before = seen.at(-1)!;
    const spent: UsageSummary = {
      ...USAGE.pa!,
      main: { 'shipments/search': metric(148_000, 150_000) },
    };
    act(() => usage.useUsageStore.setState({ summary: spent }));
    const after = seen.at(-1)!;
    expect(after.costText).not.toBe(before.costText);
    // The same validation object: the memoised filter form skips the render.
    expect(after.validation).toBe(before.validation);
  });
});

const dataset = (id: string): DatasetView =>
  datasetView(id, {
    name: 'Shipments',
    request: { size: 1000 },
    profileId: 'pa',
    profileName: 'Head office',
    account: 'main',
    fetchedAt: '2026-01-01T00:00:00.000Z',
    reportedTotal: 30,
    storedRows: 30,
  });

describe('search page: an answer the library could not save', () => {
  const reason =
    'Portolan may not write to its data folder: the folder or its library file was made read-only, or its permissions changed.';
  const failed = (datasetId: string, records: number) =>
    bridge.emit('library.saveFailed', { datasetId, reason, records });
  const keptRecords = Array.from(
    { length: 30 },
    (_, i) => ({ ...record, hashId: `kept${i}` }) as ShipmentRecord,
  );
  afterEach(() =>
    bridge.answer({
      'library.saveAgain': () => ({ ok: false, error: { kind: 'NotFound', message: 'not kept' } }),
      'library.keptRecords': () => ({ ok: false, error: { kind: 'NotFound', message: 'not kept' } }),
    }),
  );

  it('says what happened and that saving again costs nothing; Save again retries until it is stored', async () => {
    render(<page.SearchPage />);
    await waitFor(() => expect(runButton().disabled).toBe(false));
    await searchWith({ ok: true, value: answer(30, 30) });
    expect(screen.queryByTestId('search-save-failed')).toBeNull();
    failed('ds-30', 30);

    const text = el('search-save-failed-text').textContent ?? '';
    expect(text).toContain('Its 30 records were downloaded and counted against the account');
    expect(text).toContain(reason);
    expect(text).toContain('saving them again downloads nothing and costs nothing');
    // The library grid has nothing to read, so it is not offered (nor its read errors).
    expect(screen.queryByTestId('shipments-grid')).toBeNull();
    expect(screen.queryByTestId('export-open')).toBeNull();
    // One primary action: while the notice shows, Save again is filled and the run button is plain.
    const filled = () =>
      [...document.querySelectorAll('button[data-variant="filled"]')].map((b) =>
        b.getAttribute('data-testid'),
      );
    expect(filled()).toEqual(['search-save-again']);
    expect(runButton().getAttribute('data-variant')).toBe('default');

    let attempts = 0;
    bridge.answer({
      'library.saveAgain': () =>
        ++attempts === 1
          ? {
              ok: false,
              error: {
                kind: 'DiskFull',
                message: 'It still could not be saved, and it is still kept. The disk is full.',
              },
            }
          : ok({ ...dataset('ds-30'), storedRows: 30 }),
    });
    fireEvent.click(el('search-save-again'));
    await waitFor(() =>
      expect(el('search-save-failed-error').textContent).toBe(
        'It still could not be saved, and it is still kept. The disk is full.',
      ),
    );
    expect(el('search-save-again')).toBeTruthy();

    fireEvent.click(el('search-save-again'));
    await waitFor(() => expect(screen.queryByTestId('search-save-failed')).toBeNull());
    expect(bridge.callsTo('library.saveAgain')).toEqual([{ id: 'ds-30' }, { id: 'ds-30' }]);
    // Saved: the run button is the page's primary action again.
    expect(filled()).toEqual(['search-run']);
    expect(el('search-notice').textContent).toBe(
      'Saved to the Library: the 30 records are now read from it, and nothing was downloaded again.',
    );
    // Read from the library again, as any saved answer.
    expect(el('shipments-grid')).toBeTruthy();
    expect(pending).toEqual([]);
  });

  it('shows the kept records from memory, with Export, when saving keeps failing', async () => {
    render(<page.SearchPage />);
    await waitFor(() => expect(runButton().disabled).toBe(false));
    // The announcement may come before the answer it is about (the browser host's events travel apart).
    failed('ds-45', 30);
    await searchWith({ ok: true, value: answer(30, 45) });
    expect(el('search-save-failed')).toBeTruthy();

    bridge.answer({ 'library.keptRecords': () => ok(keptRecords) });
    fireEvent.click(el('search-show-kept'));
    await waitFor(() => expect(el('search-save-failed').getAttribute('data-shown')).toBe('yes'));
    expect(bridge.callsTo('library.keptRecords')).toEqual([{ id: 'ds-45' }]);
    expect(el('search-save-failed-text').textContent).toContain(
      'these 30 records are shown from memory until Portolan closes',
    );
    expect(screen.queryByTestId('search-show-kept')).toBeNull();
    expect(el('shipments-grid')).toBeTruthy();
    await waitFor(() => expect(el('shipments-grid').getAttribute('data-row-count')).toBe('30'));
    expect(el('export-open')).toBeTruthy();
    // Save again stays on offer.
    expect(el('search-save-again')).toBeTruthy();
  });

  it('an answer that came with its records (the library could not be opened) is shown, exported and saved again', async () => {
    render(<page.SearchPage />);
    await waitFor(() => expect(runButton().disabled).toBe(false));
    const locked =
      "Another program has Portolan's library open (duckdb, process 4242): often a second Portolan, or a tool reading library.duckdb. Close it first.";
    await searchWith({
      ok: true,
      value: {
        total: 80,
        returned: 30,
        head: [],
        datasetId: null,
        unsaved: keptRecords,
        saveFailed: { datasetId: 'kept-80', reason: locked, records: 30 },
      },
    });
    expect(el('search-save-failed').getAttribute('data-shown')).toBe('yes');
    expect(el('search-save-failed-text').textContent).toBe(
      `Not saved in the Library: these 30 records are shown from memory until Portolan closes. ${locked} Export them to keep a copy, or choose Save again once the cause is fixed.`,
    );
    await waitFor(() => expect(el('shipments-grid').getAttribute('data-row-count')).toBe('30'));
    expect(el('export-open')).toBeTruthy();

    bridge.answer({
      'library.saveAgain': () => ok({ ...dataset('kept-80'), storedRows: 30 }),
      'library.getRows': ({ startRow, endRow }) =>
        ok({
          lastRow: 30,
          rows: keptRecords.slice(startRow, endRow).map((r, i) => ({ ...r, _row: startRow + i })),
        }),
    });
    fireEvent.click(el('search-save-again'));
    await waitFor(() => expect(screen.queryByTestId('search-save-failed')).toBeNull());
    expect(bridge.callsTo('library.saveAgain')).toEqual([{ id: 'kept-80' }]);
    // Read from the library now, under the id main kept it by.
    expect(search.useSearchStore.getState().datasetId).toBe('kept-80');
    expect(search.useSearchStore.getState().result?.unsaved).toBeUndefined();
    await waitFor(() => expect(bridge.callsTo('library.getRows').some((c) => c.id === 'kept-80')).toBe(true));
  });

  it('says when main no longer keeps the answer', async () => {
    render(<page.SearchPage />);
    await waitFor(() => expect(runButton().disabled).toBe(false));
    await searchWith({ ok: true, value: answer(30, 60) });
    failed('ds-60', 30);
    bridge.answer({
      'library.keptRecords': () => ({
        ok: false,
        error: {
          kind: 'NotFound',
          message: 'This answer is no longer kept in memory. Search again to fetch it.',
        },
      }),
    });
    fireEvent.click(el('search-show-kept'));
    await waitFor(() =>
      expect(el('search-save-failed-error').textContent).toContain('Search again to fetch it.'),
    );
  });

  it('ignores a failure of an answer not on the page', async () => {
    render(<page.SearchPage />);
    await waitFor(() => expect(runButton().disabled).toBe(false));
    await searchWith({ ok: true, value: answer(30, 70) });
    failed('ds-other', 30);
    expect(screen.queryByTestId('search-save-failed')).toBeNull();
  });
});

describe("search page: an answer's first rows", () => {
  it('asks for the fields the grid shows with them, the ones the analyst shows next time too', async () => {
    window.localStorage.removeItem('portolan.grid.shipments.columns');
    const searches = () => log.filter((c) => c.channel === 'shipments.search');
    render(<page.SearchPage />);
    await waitFor(() => expect(el('search-cost-text').textContent).toContain('(account main)'));
    await searchWith({ ok: true, value: { ...answer(3, 3), headColumns: [...DEFAULT_SHIPMENT_COLUMNS] } });
    expect(searches().at(-1)?.input).toMatchObject({ headColumns: DEFAULT_SHIPMENT_COLUMNS });
    // The columns are chosen once the grid shows the answer, as the analyst does.
    await waitFor(
      () =>
        expect(
          document.querySelector('[data-testid="shipments-grid"] .ag-row[row-index="0"]'),
        ).not.toBeNull(),
      { timeout: 10_000 },
    );
    fireEvent.click(screen.getByTestId('shipments-columns-toggle'));
    fireEvent.click(
      await screen.findByTestId('shipments-columns-col-importerTaxId', {}, { timeout: 10_000 }),
    );
    // The grid keeps its layout as the analyst leaves it; the next search reads it from there.
    await waitFor(() => expect(savedShownColumns('shipments')).toContain('importerTaxId'), {
      timeout: 10_000,
    });
    type('search-size-input', '500');
    await searchWith({ ok: true, value: answer(3, 3) });
    const asked = (searches().at(-1)?.input as { headColumns?: string[] }).headColumns;
    expect(asked).toContain('importerTaxId');
    expect([...(asked ?? [])].sort()).toEqual([...DEFAULT_SHIPMENT_COLUMNS, 'importerTaxId'].sort());
  });
});

describe('search page: the first rows before the answer is checked', () => {
  const firstRow = () => document.querySelector('[data-testid="shipments-grid"] .ag-row[row-index="0"]');

  /** Runs a search and has main announce its first rows (`shipments.head`) as `a`'s; the answer waits. */
  async function headShown(a: ShipmentSearchAnswer): Promise<Pending> {
    fireEvent.click(runButton());
    await waitFor(() => expect(pending.length).toBe(1));
    const p = pending.shift()!;
    expect(p.input.headId).toBeTruthy();
    expect(el('search-running-text').textContent).toMatch(/^Searching… \d+\.\d s$/);
    const { datasetId, total, returned, head } = a;
    act(() =>
      bridge.emit('shipments.head', {
        headId: p.input.headId!,
        datasetId: datasetId!,
        total,
        returned,
        head,
      }),
    );
    return p;
  }

  it('shows them while the search runs, and the grid keeps them when the answer says the same', async () => {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    const a = answer(10, 33_014);
    a.head = a.head.map((r, i) => ({ ...r, importerName: `Importer ${i}` }));
    const p = await headShown(a);
    expect(el('search-summary').textContent).toBe('Showing 10 of 33,014 matching records');
    await waitFor(() => expect(firstRow()?.textContent).toContain('Importer 0'), { timeout: 10_000 });
    // Still running: the answer is not checked yet, and Cancel is still there.
    expect(el('search-progress')).toBeTruthy();
    expect(el('search-running-text').textContent).toMatch(/^Receiving the rest of the answer… \d+\.\d s$/);
    expect(el('search-cancel')).toBeTruthy();

    await act(async () => p.resolve({ ok: true, value: { ...a, head: a.head.map((r) => ({ ...r })) } }));
    expect(screen.queryByTestId('search-progress')).toBeNull();
    expect(el('search-elapsed')).toBeTruthy();
    // The same rows: the page keeps the first rows the grid drew from, and the grid, which compares
    // them by identity, starts over only for other rows (DatasetGrid).
    expect(search.useSearchStore.getState().result?.head).toBe(a.head);
    expect(firstRow()?.textContent).toContain('Importer 0');
  });

  it('takes the answer’s rows when the answer says otherwise', async () => {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    const p = await headShown(answer(10, 33_014));
    await act(async () => p.resolve({ ok: true, value: answer(8, 33_020) }));
    expect(el('search-summary').textContent).toBe('Showing 8 of 33,020 matching records');
    expect(search.useSearchStore.getState().result?.returned).toBe(8);
  });

  it('puts the previous result back when the answer turns out to be an error', async () => {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    await searchWith({ ok: true, value: answer(5, 50) });
    const p = await headShown(answer(10, 33_014));
    expect(el('search-summary').textContent).toBe('Showing 10 of 33,014 matching records');
    await act(async () =>
      p.resolve({
        ok: false,
        error: { kind: 'BadResponse', message: 'The service sent an answer Portolan cannot read.' },
      }),
    );
    expect(el('search-summary').textContent).toBe('Showing 5 of 50 matching records');
    expect(el('search-result-previous').textContent).toContain('not of the one that failed');
    expect(search.useSearchStore.getState().datasetId).toBe('ds-50');
  });

  it('Cancel puts the previous result back too; the late answer is kept, not shown', async () => {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    await searchWith({ ok: true, value: answer(5, 50) });
    const p = await headShown(answer(10, 33_014));
    fireEvent.click(el('search-cancel'));
    expect(el('search-summary').textContent).toBe('Showing 5 of 50 matching records');
    await act(async () => p.resolve({ ok: true, value: answer(10, 33_014) }));
    expect(el('search-cancelled').getAttribute('data-outcome')).toBe('spent');
    expect(el('search-summary').textContent).toBe('Showing 5 of 50 matching records');
  });

  it('ignores first rows of another search than the one running', async () => {
    render(<page.SearchPage />);
    act(() => search.useSearchStore.getState().setSize(10));
    await searchWith({ ok: true, value: answer(5, 50) });
    fireEvent.click(runButton());
    await waitFor(() => expect(pending.length).toBe(1));
    const { head } = answer(10, 33_014);
    act(() =>
      bridge.emit('shipments.head', {
        headId: 'another',
        datasetId: 'ds-x',
        total: 33_014,
        returned: 10,
        head,
      }),
    );
    expect(el('search-summary').textContent).toBe('Showing 5 of 50 matching records');
    await act(async () => pending.shift()!.resolve({ ok: true, value: answer(7, 70) }));
    expect(el('search-summary').textContent).toBe('Showing 7 of 70 matching records');
  });
});
