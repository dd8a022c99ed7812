import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileView } from '@shared/profiles/profiles-contract';
import type { JobEstimateView } from '@shared/jobs/jobs-contract';
import type { UsageChanged, UsageReading } from '@shared/query/query-contract';
import type { UsageSummary } from '@shared/spec';
import { createServiceClient } from '../../src/main/api';
import { startSimulator, type RunningSimulator } from '../../src/main/sim';
import { createHarness, type Harness } from './helpers';

// One clock for the service's request windows and the app's usage figures: the script moves it.
let t = Date.UTC(2026, 10, 23, 9, 0, 0);
const now = () => t;
const key = { apiKey: 'ak_test_usage_session_7c1d', apiSecret: 'secret-usage-session-4b9a' };
const limits = {
  'shipments/search': 100_000,
  'shipments/count': 1_000,
  searchedHsCodes: 20,
  dailyRequest: 5_000,
  minutelyRequest: 60,
};

let h: Harness;
let sim: RunningSimulator;
let profileId: string;

/** The service's own figures, read past the app (this read is one request of its own). */
async function serviceFigures(): Promise<{ usage: UsageSummary; requestsBefore: number }> {
  const usage = await createServiceClient({ baseUrl: sim.url, credentials: key }).usage();
  const desk = usage.desk!;
  const minus = (m: string) => ({ ...desk[m]!, current: desk[m]!.current - 1 });
  return {
    // The app's figures cannot include this read: take it out of the two request counts.
    usage: {
      desk: { ...desk, dailyRequest: minus('dailyRequest'), minutelyRequest: minus('minutelyRequest') },
    },
    requestsBefore: desk.dailyRequest!.current - 1,
  };
}

const usageEvents = () =>
  h.events.filter((e) => e.event === 'usage.changed').map((e) => e.payload as UsageChanged);

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    records: 3_000,
    seed: 5,
    accounts: [{ name: 'desk', ...key, limits }],
    now,
  });
  h = await createHarness({ now });
  profileId = (
    await h.ok<ProfileView>('profiles.create', { name: 'Desk', baseUrl: sim.url, accountName: '', ...key })
  ).id;
});
afterAll(async () => {
  await h?.close();
  await sim?.close();
});

describe('usage in a working session', () => {
  it('asks the service at most once a minute, counts every request the app sends (usage calls too), and keeps figures equal to the service’s', async () => {
    const codes = ['8471', '8517', '7208', '3004', '8703', '2709'];
    // The usage page opens: one read.
    const opened = await h.ok<UsageReading>('usage.get', { profileId });
    expect(opened.readAt).toBe(t);
    expect(opened.nextReadAt).toBe(t + 60_000);
    let searches = 0;
    let downloaded = 0;
    for (const [i, code] of codes.entries()) {
      t += 4_000;
      const answer = await h.ok<{ returned: number }>('shipments.search', {
        profileId,
        request: { size: 10 + i, hs_codes: [code, '8471'] },
      });
      downloaded += answer.returned;
      searches++;
      // A window that reads usage after every search, as the old one did, costs no request now.
      // The figures say when the service was read: at the page's read, however often they are asked.
      const between = await h.ok<UsageReading>('usage.get', { profileId });
      expect([between.readAt, between.nextReadAt]).toEqual([opened.readAt, opened.nextReadAt]);
    }
    await h.ok('firms.count', { profileId, request: { hs_codes: ['8471'] } });
    const { usage: kept } = await h.ok<UsageReading>('usage.get', { profileId });

    const service = await serviceFigures();
    // One usage read, six searches and one count reached the service; nothing else did.
    expect(service.requestsBefore).toBe(1 + searches + 1);
    expect(kept).toEqual(service.usage);
    expect(downloaded).toBeGreaterThan(0);
    expect(kept.desk!['shipments/search']!.current).toBe(downloaded);
    expect(kept.desk!['firms/count']!.current).toBe(1);
    expect(kept.desk!.searchedHsCodes!.current).toBe(codes.length);

    // Every spending call told the window the new figures, so it had no reason to ask.
    const afterSearches = usageEvents().filter((e) => e.profileId === profileId);
    expect(afterSearches.length).toBeGreaterThanOrEqual(searches + 1);
    expect(afterSearches.every((e) => e.usage !== undefined)).toBe(true);

    // A minute on, the next read goes to the service again, and only that one.
    t += 61_000;
    const { usage: fresh, readAt } = await h.ok<UsageReading>('usage.get', { profileId });
    expect(readAt).toBe(t);
    await h.ok<UsageReading>('usage.get', { profileId });
    const later = await serviceFigures();
    // The app's requests: those above, the two reads by the test past the app (one counted each), one refresh.
    expect(later.requestsBefore).toBe(service.requestsBefore + 1 + 1);
    // The service's minute window now holds the refresh and the test's first read has left it.
    expect(fresh.desk!.minutelyRequest!.current).toBe(1);
    expect(fresh.desk!.dailyRequest!.current).toBe(service.requestsBefore + 2);
  });

  it('a connection test reaches the service even when the figures are fresh', async () => {
    const before = (await serviceFigures()).requestsBefore;
    await h.ok('profiles.testConnection', { id: profileId });
    expect((await serviceFigures()).requestsBefore).toBe(before + 1 + 1);
  });

  it('a fetch-all preview from the total a search reported spends nothing, and costs what a probed one says', async () => {
    const request = {};
    const searched = await h.ok<{ total: number }>('shipments.search', {
      profileId,
      request: { ...request, size: 10 },
    });
    const before = (await serviceFigures()).requestsBefore;
    const free = await h.ok<JobEstimateView>('jobs.estimate', {
      profileId,
      kind: 'shipments',
      request,
      knownTotal: searched.total,
    });
    // Its usage figures are main's own (read under a minute ago): not one request went out.
    expect((await serviceFigures()).requestsBefore).toBe(before + 1);
    expect(free.probed).toBe(false);
    const probed = await h.ok<JobEstimateView>('jobs.estimate', { profileId, kind: 'shipments', request });
    expect((await serviceFigures()).requestsBefore).toBe(before + 1 + 1 + 1);
    expect(probed.probed).toBe(true);
    const cost = (e: JobEstimateView) => [
      e.total,
      e.optimumRequests,
      e.estimatedRequests,
      e.estimatedDownloads,
    ];
    expect(cost(free)).toEqual(cost(probed));
    expect(free.estimatedRequests).toBeGreaterThan(1);
  });
});
