import { beforeAll, describe, expect, it } from 'vitest';
import type { RefreshOutcome, RefreshPreview, WatchDetail } from '@shared/watch/watch-contract';
import { createServiceClient } from '../../src/main/api';
import { generateAccount } from '../../src/main/sim';
import { useServiceHarness } from './service-harness';

/*
 * The Watched cost check of a watch whose refresh spans two date windows (one after the newest record
 * held, one its last snapshot could not fetch whole), through the handlers against the simulator: each
 * window is one paid probe. A check the service stops answering partway keeps the answers it had, and
 * the check asked again (Try again, the dialog opened again) asks the service only for the windows
 * still missing; changing the watch's settings, or taking the snapshot, lets those answers go.
 */

const account = generateAccount('acme');
// 30,000 records (seed 5): 2025-12-01 holds more than 20 of them, the days from there to 2025-12-07
// fewer. With searches of at most 20 records, the first snapshot stops on 2025-12-01 and leaves
// 2025-11-01 – 2025-12-01 incomplete; with 2 days' overlap a refresh looks at that window and at
// 2025-12-05 – 2025-12-07.
const REQUEST = { start_date: '2025-11-01', end_date: '2025-12-07' };
const WINDOWS = [
  { label: '2025-11-01 – 2025-12-01', start: '2025-11-01', end: '2025-12-01' },
  { label: '2025-12-05 – 2025-12-07', start: '2025-12-05', end: '2025-12-07' },
];
// With this seed and rate the simulator's gateway lets the first request through and answers the five
// after it with 503: the check fails on its second window, its first answered.
const FAIL_AFTER_ONE = { errorRate: 0.8, errorStatuses: [503], seed: 34 };

let watchId = '';

const service = useServiceHarness({
  account,
  records: 30_000,
  seed: 5,
  harness: { watchSearchCap: 20 },
  profile: { active: true },
});

beforeAll(async () => {
  const first = await service.h.ok<RefreshPreview>('watch.preview', {
    request: REQUEST,
    name: 'November on',
  });
  const taken = await service.h.ok<RefreshOutcome>('watch.refresh', { previewId: first.previewId });
  watchId = taken.watch.id;
  expect(taken.snapshot).toMatchObject({ status: 'partial', incomplete: [WINDOWS[0]!.label] });
  await service.h.ok<WatchDetail>('watch.setOverlap', { id: watchId, days: 2 });
}, 60_000);

const usageClient = () =>
  createServiceClient({
    baseUrl: service.sim.url,
    credentials: { apiKey: account.apiKey, apiSecret: account.apiSecret },
  });
let reads = 0;
/**
 * The requests the simulator has admitted so far and what they downloaded, read from its own count by a
 * client of the test's (whose reads are not counted).
 */
async function served(): Promise<{ requests: number; downloads: number }> {
  const usage = (await usageClient().usage())[account.name]!;
  reads++;
  return { requests: usage.dailyRequest!.current - reads, downloads: usage['shipments/search']!.current };
}

/** What the service holds in each window, from the simulator's data itself. */
function truth(): number[] {
  const totals = WINDOWS.map(() => 0);
  for (let i = 0; i < service.sim.dataset.size; i++) {
    const d = service.sim.dataset.record(i).arrivalDate;
    WINDOWS.forEach((w, k) => {
      if (d >= w.start && d <= w.end) totals[k]!++;
    });
  }
  return totals;
}

const check = () => service.h.call('watch.preview', { watchId });
const checked = () => service.h.ok<RefreshPreview>('watch.preview', { watchId });

describe('a Watched cost check stopped partway and asked again', () => {
  it('asks the service only for the windows it has no answer for, and prices every window as the service holds it', async () => {
    let before = await served();
    service.sim.setFaults(FAIL_AFTER_ONE);
    const failed = await check();
    service.sim.setFaults(undefined);
    expect(failed).toMatchObject({ ok: false, error: { kind: 'ServiceError', status: 503 } });
    // Said with what it kept, after the service's own words.
    expect((failed as { error: { message: string } }).error.message).toMatch(
      /^The service is having trouble.* 1 of the 2 date windows had been answered: its answer is kept, and checking again asks only for the other one\.$/,
    );
    // The first window was answered (and paid for) before the 503.
    expect((await served()).requests - before.requests).toBe(1);

    before = await served();
    const again = await checked();
    expect((await served()).requests - before.requests).toBe(1);
    expect(again.windows.map((w) => w.label)).toEqual(WINDOWS.map((w) => w.label));
    expect(again.windows.map((w) => w.total)).toEqual(truth());
    expect(again).toMatchObject({ checkRequests: 2, checkReused: 1, checkDownloads: 20 });

    // The dialog opened again with the same settings: nothing is asked at all, the same cost is shown.
    before = await served();
    const reopened = await checked();
    expect((await served()).requests - before.requests).toBe(0);
    expect(reopened.windows).toEqual(again.windows);
    expect(reopened).toMatchObject({ downloads: again.downloads, requests: again.requests, checkReused: 2 });
    expect(reopened.previewId).not.toBe(again.previewId);
  }, 30_000);

  it('asks again once the watch’s settings change, even for a window whose question stayed the same', async () => {
    await checked();
    await service.h.ok<WatchDetail>('watch.setOverlap', { id: watchId, days: 3 });
    const before = await served();
    const other = await checked();
    expect((await served()).requests - before.requests).toBe(2);
    expect(other.checkReused).toBe(0);
    expect(other.windows.map((w) => w.label)).toEqual([WINDOWS[0]!.label, '2025-12-04 – 2025-12-07']);
    await service.h.ok<WatchDetail>('watch.setOverlap', { id: watchId, days: 2 });
  }, 30_000);

  it('spends its answers on the snapshot it prices: the snapshot counts each probe once, and the next check asks again', async () => {
    const before = await served();
    service.sim.setFaults(FAIL_AFTER_ONE);
    expect((await check()) as { ok: boolean }).toMatchObject({ ok: false });
    service.sim.setFaults(undefined);
    const preview = await checked();
    expect(preview.checkReused).toBe(1);
    const out = await service.h.ok<RefreshOutcome>('watch.refresh', { previewId: preview.previewId });
    const after = await served();
    // Everything downloaded since, the failed check's probe included, is in the snapshot once.
    expect(out.snapshot.downloads).toBe(after.downloads - before.downloads);
    expect(out.snapshot.requests).toBe(after.requests - before.requests);

    // The same two windows again (nothing new was published): both asked, their answers are spent.
    const next = await checked();
    expect((await served()).requests - after.requests).toBe(2);
    expect(next.windows.map((w) => w.label)).toEqual(WINDOWS.map((w) => w.label));
    expect(next.checkReused).toBe(0);
  }, 30_000);
});
