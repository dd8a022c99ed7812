import { describe, expect, it, vi } from 'vitest';
import type { BridgeResult } from '@shared/ipc/errors';
import type { RefreshOutcome, RefreshPreview, RefreshProgress } from '@shared/watch/watch-contract';
import { createServiceClient } from '../../src/main/api';
import type { RunningSimulator } from '../../src/main/sim';
import type { Harness } from './helpers';
import { connectionNews, useServiceOutage } from './service-outage';

/*
 * A Watched query's refresh through the handlers while its service goes away: the simulator is closed
 * in the middle of the refresh's searches (several of 10,000 records) and started again on the same
 * port. The refresh waits as a fetch job does (the connection monitor's probes, no request), tells the
 * window, and goes on by itself; Cancel stops it at any time with nothing stored. A gateway answering
 * 503 instead (the simulator's fault injection) is waited out the same way, asked again once per pause.
 */

const RECORDS = 30_000;
const outage = useServiceOutage({ records: RECORDS });
const request = { start_date: '2021-01-01', end_date: '2025-12-31' };

const progress = (hh: Harness): RefreshProgress[] =>
  hh.events.filter((e) => e.event === 'watch.progress').map((e) => e.payload as RefreshProgress);

/**
 * What the simulator has counted of its searches since it started (the records they downloaded), read
 * by a client of its own.
 */
async function searchesServed(sim: RunningSimulator): Promise<number> {
  const client = createServiceClient({
    baseUrl: sim.url,
    credentials: { apiKey: outage.account.apiKey, apiSecret: outage.account.apiSecret },
  });
  const usage = await client.usage();
  return usage[outage.account.name]!['shipments/search']!.current;
}

describe('a Watched refresh whose service restarts in the middle', () => {
  it('waits for it, says since when, and goes on by itself when it is back: the snapshot is whole', async () => {
    const sim = await outage.simulator(0, 400);
    const port = Number(new URL(sim.url).port);
    const hh = await outage.harness(sim);
    const preview = await hh.ok<RefreshPreview>('watch.preview', { request, name: 'All' });
    expect(preview.requests).toBeGreaterThan(1);

    const refresh = hh.call('watch.refresh', { previewId: preview.previewId }) as Promise<
      BridgeResult<RefreshOutcome>
    >;
    // Gone while the refresh's searches run.
    await new Promise((r) => setTimeout(r, 600));
    await sim.close();
    await vi.waitFor(() => expect(progress(hh).some((p) => p.waitingForServiceSince !== null)).toBe(true), {
      timeout: 10_000,
      interval: 20,
    });
    const waiting = progress(hh).find((p) => p.waitingForServiceSince !== null)!;
    expect(waiting.previewId).toBe(preview.previewId);
    expect(waiting.waitingForServiceSince).toBeLessThanOrEqual(Date.now());
    expect(connectionNews(hh).at(-1)).toMatchObject({ reachable: false });

    await new Promise((r) => setTimeout(r, 1_000));
    await outage.simulator(port);
    const out = await refresh;
    expect(out.ok).toBe(true);
    const snapshot = (out as { ok: true; value: RefreshOutcome }).value.snapshot;
    expect(snapshot.records).toBe(RECORDS);
    expect(snapshot.added).toBe(RECORDS);
    expect(snapshot.status).toBe('complete');
    // The window was told that the wait ended.
    expect(progress(hh).at(-1)).toEqual({ previewId: preview.previewId, waitingForServiceSince: null });
    expect(connectionNews(hh).at(-1)).toMatchObject({ reachable: true });
  }, 60_000);

  it('Cancel during the wait stops it at once: nothing stored, no request sent to the service once back', async () => {
    const sim = await outage.simulator();
    const port = Number(new URL(sim.url).port);
    const hh = await outage.harness(sim);
    const preview = await hh.ok<RefreshPreview>('watch.preview', { request, name: 'All' });
    await sim.close();

    const refresh = hh.call('watch.refresh', { previewId: preview.previewId }) as Promise<
      BridgeResult<RefreshOutcome>
    >;
    await vi.waitFor(() => expect(progress(hh).some((p) => p.waitingForServiceSince !== null)).toBe(true), {
      timeout: 10_000,
      interval: 20,
    });
    const asked = Date.now();
    await hh.ok('watch.cancelRefresh', { previewId: preview.previewId });
    const out = await refresh;
    expect(Date.now() - asked).toBeLessThan(1_000);
    expect(out).toMatchObject({ ok: false, error: { kind: 'Cancelled' } });
    // Nothing half-stored: no watched query, no dataset.
    expect(await hh.ok('watch.list')).toEqual([]);
    expect(await hh.ok('library.list')).toEqual([]);

    // Back: the cancelled refresh sends nothing (a restarted simulator counts from zero).
    const back = await outage.simulator(port);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await searchesServed(back)).toBe(0);
  }, 60_000);
});

describe('a Watched refresh whose gateway answers 503 for a while', () => {
  /** A first snapshot of the query watched as `name`: its cost check, and its refresh under way. */
  async function watchAll(hh: Harness, name: string) {
    const preview = await hh.ok<RefreshPreview>('watch.preview', { request, name });
    const refresh = hh.call('watch.refresh', { previewId: preview.previewId }) as Promise<
      BridgeResult<RefreshOutcome>
    >;
    return { preview, refresh };
  }

  it('waits, asking again once per pause, downloads no record more than without the 503s, and stores every record once', async () => {
    const sim = await outage.simulator(0, 400);
    const hh = await outage.harness(sim);
    // The same first snapshot without the gateway's trouble: what it downloads (at least the preview's
    // figure; a day split between two searches is fetched twice).
    let served = await searchesServed(sim);
    const calm = await watchAll(hh, 'All, calm');
    expect((await calm.refresh).ok).toBe(true);
    const calmDownloads = (await searchesServed(sim)) - served;
    expect(calmDownloads).toBeGreaterThanOrEqual(calm.preview.downloads);

    served = await searchesServed(sim);
    const { preview, refresh } = await watchAll(hh, 'All');
    expect(preview.requests).toBeGreaterThan(1);
    // The gateway answers 503 while the refresh's searches run: nothing reaches the service behind it.
    await new Promise((r) => setTimeout(r, 600));
    sim.setFaults({ errorRate: 1, errorStatuses: [503], latencyMs: 400 });
    await vi.waitFor(() => expect(progress(hh).some((p) => p.waitingForServiceSince !== null)).toBe(true), {
      timeout: 10_000,
      interval: 20,
    });
    expect(progress(hh).find((p) => p.waitingForServiceSince !== null)!.previewId).toBe(preview.previewId);
    expect(connectionNews(hh).at(-1)).toMatchObject({ reachable: false, unavailable: true });
    // Long enough for one more asking, after the first pause (2 s), to be answered 503 too.
    await new Promise((r) => setTimeout(r, 2_500));
    sim.setFaults({ latencyMs: 400 });

    const out = await refresh;
    expect(out.ok).toBe(true);
    const { snapshot, watch } = (out as { ok: true; value: RefreshOutcome }).value;
    expect(snapshot).toMatchObject({ records: RECORDS, added: RECORDS, status: 'complete' });
    expect(await hh.ok('library.get', { id: watch.datasetId })).toMatchObject({
      storedRows: RECORDS,
      status: 'complete',
    });
    // The cost check and the refresh downloaded what they do without an outage, and counted it so.
    const downloads = (await searchesServed(sim)) - served;
    expect(downloads).toBe(calmDownloads);
    expect(snapshot.downloads).toBe(downloads);
    expect(progress(hh).at(-1)).toEqual({ previewId: preview.previewId, waitingForServiceSince: null });
    expect(connectionNews(hh).at(-1)).toMatchObject({ reachable: true });
    // Two first snapshots of 30,000 records and a 503 wait: 31 s here at load 11.
  }, 120_000);
});

describe('a Watched cost check while the service is away', () => {
  it('is not waited out as a refresh is: it fails at once, saying the service stopped answering, and checks once it is back', async () => {
    const sim = await outage.simulator();
    const port = Number(new URL(sim.url).port);
    const hh = await outage.harness(sim);
    // Answered once at this address, for another question: the same one would be answered from the
    // answer it kept, asking nothing.
    await hh.ok<RefreshPreview>('watch.preview', { request: { ...request, end_date: '2025-06-30' } });

    // The gateway says the service is unavailable: the check says so, and sends no more.
    sim.setFaults({ errorRate: 1, errorStatuses: [503] });
    let asked = Date.now();
    const refused = await hh.call('watch.preview', { request, name: 'All' });
    expect(Date.now() - asked).toBeLessThan(1_500);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'ServiceError', status: 503 } });
    sim.setFaults(undefined);

    await sim.close();
    asked = Date.now();
    const gone = await hh.call('watch.preview', { request, name: 'All' });
    expect(Date.now() - asked).toBeLessThan(1_500);
    expect(gone).toMatchObject({ ok: false, error: { kind: 'NetworkError' } });
    expect((gone as { error: { message: string } }).error.message).toMatch(
      /^The service at 127\.0\.0\.1:\d+ stopped answering \(connection refused\)\. It answered earlier at this address, so it is probably down or restarting\./,
    );
    // Nothing waits on it: no progress of a wait is told for a cost check.
    expect(progress(hh)).toEqual([]);

    await outage.simulator(port);
    const back = await hh.ok<RefreshPreview>('watch.preview', { request, name: 'All' });
    expect(back.windows.reduce((sum, w) => sum + w.total, 0)).toBe(RECORDS);
  }, 60_000);
});
