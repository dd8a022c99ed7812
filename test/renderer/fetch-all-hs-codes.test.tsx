// @vitest-environment jsdom
import { act, cleanup, render, screen } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UsageSummary } from '@shared/spec';
import { setApi } from '../../src/renderer/src/bridge/api';
import { FetchAllDialog } from '../../src/renderer/src/features/jobs/fetch-all-dialog';
import * as jobs from '../../src/renderer/src/features/jobs/jobs-store';
import { useUsageStore } from '../../src/renderer/src/session/usage-store';
import { fakeBridge, ok } from './fake-bridge';
import { jobEstimate } from './fake-main';

// Account "main" has searched HS 84 and 85 and may search 3 distinct codes: one new code is left.
const summary: UsageSummary = {
  main: {
    'shipments/search': { current: 0, limit: 1_000_000 },
    searchedHsCodes: { current: 2, limit: 3, notes: '84, 85' },
  },
};

const estimate = jobEstimate({
  total: 2_000,
  estimatedDownloads: 2_000,
  remainingDownloads: 1_000_000,
  remainingDailyRequests: 1_000,
  probed: true,
});

const bridge = fakeBridge({
  'library.findEquivalent': () => ok(null),
  'jobs.estimate': () => ok(estimate),
  'jobs.start': () => ok({ jobId: 'j1' }),
});
const sent = () => bridge.log.filter((c) => c.channel === 'jobs.estimate' || c.channel === 'jobs.start');
const el = (id: string) => screen.getByTestId(id);

beforeAll(() => setApi(bridge.api));
beforeEach(() => {
  bridge.log.length = 0;
  jobs.useJobsStore.getState().reset();
  useUsageStore.setState({ summary, profileId: 'p1' });
});
afterEach(() => cleanup());

describe('fetch all warns before the allowance of distinct HS codes is passed', () => {
  it('names the new codes and sends no probe, and cannot start, when they pass the allowance', async () => {
    render(<FetchAllDialog />);
    await act(() => jobs.useJobsStore.getState().askFetchAll('shipments', { hs_codes: ['84', '01', '02'] }));
    expect(jobs.useJobsStore.getState().dialog?.state).toBe('blocked');
    expect(el('fetch-all-hs-codes').getAttribute('data-state')).toBe('exceeds');
    expect(el('fetch-all-hs-codes').textContent).toBe(
      'Cannot fetch: HS codes 01, 02 are new to account main, which may search 3 distinct HS codes and has 1 left: ' +
        'the service would refuse this. Remove 1 of the new codes, or use codes already searched (the Usage page lists them). Nothing was sent.',
    );
    expect((el('fetch-all-confirm') as HTMLButtonElement).disabled).toBe(true);
    await act(() => jobs.useJobsStore.getState().confirm());
    expect(sent()).toEqual([]);
  });

  it('from a total the search reported (no probe), still refuses to start past the allowance', async () => {
    render(<FetchAllDialog />);
    await act(() => jobs.useJobsStore.getState().askFetchAll('shipments', { hs_codes: ['01', '02'] }, 2_000));
    expect(el('fetch-all-hs-codes').getAttribute('data-state')).toBe('exceeds');
    expect((el('fetch-all-confirm') as HTMLButtonElement).disabled).toBe(true);
    await act(() => jobs.useJobsStore.getState().confirm());
    expect(sent().map((c) => c.channel)).toEqual(['jobs.estimate']);
  });

  it('says what a new code leaves of the allowance, and goes on when it fits', async () => {
    render(<FetchAllDialog />);
    await act(() => jobs.useJobsStore.getState().askFetchAll('shipments', { hs_codes: ['84', '01'] }));
    expect(el('fetch-all-hs-codes').getAttribute('data-state')).toBe('ok');
    expect(el('fetch-all-hs-codes').textContent).toBe(
      'HS code 01 is new to account main: 0 of 3 distinct HS codes left after this',
    );
    expect(jobs.useJobsStore.getState().dialog?.state).toBe('ready');
    await act(() => jobs.useJobsStore.getState().confirm());
    expect(sent().map((c) => c.channel)).toEqual(['jobs.estimate', 'jobs.start']);
  });

  it('says nothing for codes the account has searched already', async () => {
    render(<FetchAllDialog />);
    await act(() => jobs.useJobsStore.getState().askFetchAll('shipments', { hs_codes: ['85'] }));
    expect(screen.queryByTestId('fetch-all-hs-codes')).toBeNull();
  });
});

describe('fetch all: the cost against limits with no ceiling', () => {
  it('says "no limit" where the account has no ceiling, never "unlimited left"', async () => {
    bridge.answer({
      'jobs.estimate': () => ok({ ...estimate, remainingDownloads: null, remainingDailyRequests: null }),
    });
    try {
      render(<FetchAllDialog />);
      await act(() => jobs.useJobsStore.getState().askFetchAll('shipments', {}));
      expect(el('fetch-all-downloads').textContent).toBe('about 2,000 — no limit (account main)');
      expect(el('fetch-all-requests').textContent).toBe('about 1 (at least 1) — no limit');
    } finally {
      bridge.answer({ 'jobs.estimate': () => ok(estimate) });
    }
  });
});
