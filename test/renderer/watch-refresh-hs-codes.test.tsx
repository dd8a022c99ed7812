// @vitest-environment jsdom
import { act, cleanup, render, screen } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UsageSummary } from '@shared/spec';
import type { RefreshPreview, WatchDetail } from '@shared/watch/watch-contract';
import { setApi } from '../../src/renderer/src/bridge/api';
import { RefreshDialog } from '../../src/renderer/src/features/watch/refresh-dialog';
import { useWatchStore } from '../../src/renderer/src/features/watch/watch-store';
import { useUsageStore } from '../../src/renderer/src/session/usage-store';
import { fakeBridge, ok } from './fake-bridge';

// Account "main" has searched HS 84 and 85 and may search 3 distinct codes: one new code is left.
const summary: UsageSummary = {
  main: {
    'shipments/search': { current: 0, limit: 1_000_000 },
    searchedHsCodes: { current: 2, limit: 3, notes: '84, 85' },
  },
};

const preview: RefreshPreview = {
  previewId: 'pv1',
  watchId: 'w1',
  name: 'Steel TR',
  first: false,
  since: '2026-01-31',
  overlapDays: 7,
  windows: [{ label: '2026-01-24 – 2026-02-28', total: 40, held: 30, downloads: 10 }],
  checkDownloads: 10,
  checkRequests: 1,
  checkReused: 0,
  downloads: 10,
  requests: 1,
  exact: true,
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
};

function watched(hsCodes: string[]): WatchDetail {
  return {
    id: 'w1',
    name: 'Steel TR',
    datasetId: 'ds1',
    request: { account_name: 'main', hs_codes: hsCodes },
    query: 'Steel TR',
    presetId: null,
    profileId: 'p1',
    overlapDays: 7,
    createdAt: '2026-01-01T00:00:00.000Z',
    snapshots: [],
  };
}

const bridge = fakeBridge({
  'watch.preview': () => ok(preview),
  'watch.refresh': () =>
    ok({
      watch: watched(['84', '01']),
      snapshot: {
        no: 2,
        takenAt: '2026-02-28T00:00:00.000Z',
        status: 'complete' as const,
        records: 50,
        added: 10,
        lost: 0,
        newestDate: '2026-02-27',
        downloads: 20,
        requests: 2,
        windows: ['2026-01-24 – 2026-02-28'],
        incomplete: [],
      },
      fetchDownloads: 10,
    }),
  'watch.list': () => ok([]),
});
const sent = () => bridge.log.filter((c) => c.channel === 'watch.preview' || c.channel === 'watch.refresh');
const el = (id: string) => screen.getByTestId(id);

beforeAll(() => setApi(bridge.api));
beforeEach(() => {
  bridge.log.length = 0;
  useWatchStore.getState().reset();
  useUsageStore.setState({ summary, profileId: 'p1' });
});
afterEach(() => cleanup());

async function openRefresh(hsCodes: string[]): Promise<void> {
  useWatchStore.setState({ selectedId: 'w1', detail: watched(hsCodes) });
  render(<RefreshDialog />);
  await act(() => useWatchStore.getState().checkCost());
}

describe('the refresh dialog states the allowance of distinct HS codes before Confirm', () => {
  it('names the new codes, sends nothing, and cannot refresh when they pass the allowance', async () => {
    await openRefresh(['84', '01', '02']);
    expect(el('watch-refresh-hs-codes').getAttribute('data-state')).toBe('exceeds');
    // The dialog's title says the refusal once; the line says why.
    expect(screen.getByRole('dialog', { name: 'Cannot refresh' })).toBeTruthy();
    expect(el('watch-refresh-hs-codes').textContent).toBe(
      'HS codes 01, 02 are new to account main, which may search 3 distinct HS codes and has 1 left: ' +
        'the service would refuse this. Remove 1 of the new codes, or use codes already searched (the Usage page lists them). Nothing was sent.',
    );
    expect((el('watch-refresh-confirm') as HTMLButtonElement).disabled).toBe(true);
    await act(() => useWatchStore.getState().confirmRefresh());
    expect(sent()).toEqual([]);
  });

  it('says what a new code leaves of the allowance beside the cost, and refreshes when it fits', async () => {
    await openRefresh(['84', '01']);
    expect(el('watch-refresh-hs-codes').getAttribute('data-state')).toBe('ok');
    expect(el('watch-refresh-hs-codes').textContent).toBe(
      'HS code 01 is new to account main: 0 of 3 distinct HS codes left after this',
    );
    expect(el('watch-refresh-cost').textContent).toContain('10 downloads');
    expect((el('watch-refresh-confirm') as HTMLButtonElement).disabled).toBe(false);
    await act(() => useWatchStore.getState().confirmRefresh());
    expect(sent().map((c) => c.channel)).toEqual(['watch.preview', 'watch.refresh']);
  });

  it('checks a query not watched yet, which names no account, against the account it is counted to', async () => {
    render(<RefreshDialog />);
    await act(() =>
      useWatchStore
        .getState()
        .checkCost({ request: { hs_codes: ['03', '04'] }, name: 'New', presetId: null }),
    );
    // The only account of the summary is the one a request naming none is counted against.
    expect(el('watch-refresh-hs-codes').getAttribute('data-state')).toBe('exceeds');
    expect(screen.getByRole('dialog', { name: 'Cannot watch this query' })).toBeTruthy();
    expect(el('watch-refresh-hs-codes').textContent).toMatch(/^HS codes 03, 04 are new/);
    expect(el('watch-refresh-confirm').textContent).toBe('Take first snapshot');
    expect(sent()).toEqual([]);
  });

  it('says nothing for codes the account has searched already', async () => {
    await openRefresh(['85']);
    expect(screen.queryByTestId('watch-refresh-hs-codes')).toBeNull();
    expect(sent().map((c) => c.channel)).toEqual(['watch.preview']);
  });
});
