import { afterEach, describe, expect, it } from 'vitest';
import { remaining } from '@shared/spec/usage';
import { createServiceClient } from '../../src/main/api';
import {
  JobRunner,
  RateLimiter,
  estimateShipments,
  resumableJobs,
  type JobProgressInfo,
} from '../../src/main/jobs';
import { generateAccount, startSimulator, type RunningSimulator } from '../../src/main/sim';
import { useLibrary } from '../helpers/library';
import { committedRows, expectedHashIds, startSim, type SimSetup } from './helpers';

const store = useLibrary('portolan-jobs-test-');
let s: SimSetup | null = null;
let sim: RunningSimulator | null = null;
afterEach(async () => {
  await s?.sim.close();
  await sim?.close();
  s = null;
  sim = null;
});

const filter = { start_date: '2021-01-01', end_date: '2025-12-31' };

async function storedHashIds(datasetId: string): Promise<string[]> {
  const rows = await store.lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [
    datasetId,
  ]);
  return rows.map((r) => String(r.h));
}

async function datasetOf(jobId: string): Promise<string> {
  return String(
    (await store.lib.reader.one('SELECT dataset_id FROM jobs WHERE id = $1', [jobId]))?.dataset_id,
  );
}

describe('pause', () => {
  it('keeps everything fetched as pending data; resume completes with no duplicates and no window fetched twice', async () => {
    s = await startSim({ records: 30_000, faults: { latencyMs: 120 } });
    const runner = new JobRunner({ library: store.lib });
    const pause = new AbortController();
    const out = await runner.startShipments({ filter }, s.client, {
      pause: pause.signal,
      // Fired while the next request is in flight: its answer is paid for and must still be stored.
      onProgress: (p) => void (p.recordsStored > 0 && setTimeout(() => pause.abort(), 40)),
    });
    expect(out.status).toBe('paused');
    expect(out.message).toMatch(/^Paused; [\d,]+ records kept/);
    expect(out.stats.stored).toBeGreaterThan(0);
    // Nothing the service charged for was thrown away.
    const charged = (await s.client.usage()).acme!['shipments/search']!.current;
    expect(charged).toBe(out.stats.downloads);
    expect(await committedRows(store.lib, out.jobId)).toBe(out.stats.stored);
    // Nothing half-made in the library list; the job waits to be resumed.
    expect(await store.lib.list()).toEqual([]);
    expect(await resumableJobs(store.lib)).toMatchObject([
      { id: out.jobId, status: 'paused', stored: out.stats.stored },
    ]);

    const resumed = await runner.resume(out.jobId, s.client);
    expect(resumed.status).toBe('succeeded');
    const expected = expectedHashIds(s.sim, filter);
    const got = await storedHashIds(resumed.datasetId!);
    expect(got.length).toBe(expected.size);
    expect(new Set(got)).toEqual(expected);
    // The resumed run paid for what was missing and its probes, not for the windows kept at the pause.
    const spent = (await s.client.usage()).acme!['shipments/search']!.current - charged;
    expect(spent).toBeLessThanOrEqual(expected.size - out.stats.stored + 10 * 20);
    const twice = await store.lib.reader.all(
      'SELECT window_key FROM job_windows WHERE job_id = $1 GROUP BY 1 HAVING count(*) > 1',
      [out.jobId],
    );
    expect(twice).toEqual([]);
    expect(await resumableJobs(store.lib)).toEqual([]);
  }, 60_000);

  it('ends a rate-limit wait at once and keeps the data', async () => {
    s = await startSim({ records: 20_000 });
    // A limiter that has no room left this minute: the job must wait before its first request.
    const limiter = new RateLimiter({ perMinute: 1, perDay: null, usedThisMinute: 1 });
    const pause = new AbortController();
    const runner = new JobRunner({ library: store.lib, limiter });
    const started = Date.now();
    const out = await runner.startShipments({ filter }, s.client, {
      pause: pause.signal,
      onProgress: (p) => void (p.waitingUntil !== undefined && pause.abort()),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(out.status).toBe('paused');
    expect((await resumableJobs(store.lib)).map((j) => j.status)).toEqual(['paused']);
  });
});

describe('a job short of downloads', () => {
  it('fetches with what is left, pauses naming the limit, and resumes on another account without duplicates', async () => {
    const acme = { ...generateAccount('acme'), limits: { 'shipments/search': 3_000 } };
    const spare = generateAccount('spare');
    sim = await startSimulator({ port: 0, records: 20_000, seed: 7, accounts: [acme, spare] });
    const client = createServiceClient({
      baseUrl: sim.url,
      credentials: { apiKey: acme.apiKey, apiSecret: acme.apiSecret },
    });
    const estimate = await estimateShipments(filter, client);
    expect(estimate.total).toBeGreaterThan(3 * 3_000);
    const left = remaining((await client.usage()).acme!['shipments/search']!);
    const runner = new JobRunner({ library: store.lib, downloadsLeft: left });
    const out = await runner.startShipments({ filter, account: 'acme', probe: estimate.probe }, client);
    expect(out.status).toBe('paused');
    expect(out.message).toMatch(/Shipment search \(downloads\) limit reached for account acme/);
    // Most of what was left went into kept records, not into a refusal at 0.
    expect(out.stats.stored).toBeGreaterThan(left * 0.7);
    const used = (await client.usage()).acme!['shipments/search']!;
    expect(used.current).toBeLessThanOrEqual(3_000);
    expect(await store.lib.list()).toEqual([]);
    expect(await resumableJobs(store.lib)).toMatchObject([{ id: out.jobId, status: 'paused' }]);

    // Without a budget, the service's own refusal (429, no Retry-After) pauses it too, data kept.
    const again = await new JobRunner({ library: store.lib }).resume(out.jobId, client);
    expect(again.status).toBe('paused');
    expect(again.message).toMatch(/Shipment search \(downloads\) limit reached for account acme/);
    expect(await committedRows(store.lib, out.jobId)).toBe(out.stats.stored);

    const spareClient = createServiceClient({
      baseUrl: sim.url,
      credentials: { apiKey: spare.apiKey, apiSecret: spare.apiSecret },
    });
    const done = await new JobRunner({ library: store.lib }).resume(out.jobId, spareClient);
    expect(done.status).toBe('succeeded');
    const expected = expectedHashIds(sim, filter);
    const got = await storedHashIds(await datasetOf(out.jobId));
    expect(got.length).toBe(expected.size);
    expect(new Set(got)).toEqual(expected);
  }, 60_000);

  it('pauses on a daily 429 whose Retry-After is hours away instead of waiting it out', async () => {
    s = await startSim({ records: 20_000, limits: { dailyRequest: 3 } });
    const slept: number[] = [];
    const runner = new JobRunner({ library: store.lib, sleep: async (ms) => void slept.push(ms) });
    const out = await runner.startShipments({ filter, account: 'acme' }, s.client);
    expect(out.status).toBe('paused');
    expect(out.message).toMatch(/Requests today limit reached/);
    expect(slept).toEqual([]);
    expect((await resumableJobs(store.lib)).map((j) => j.id)).toEqual([out.jobId]);
  });
});

describe('waiting for the rate limit', () => {
  // Writes and reads thousands of rows: on a loaded 2-core machine it outlasts the default timeout.
  it('reports when the wait ends and counts it in the time left', async () => {
    let t = Date.UTC(2026, 0, 5, 12);
    const clock = { now: () => t, sleep: async (ms: number) => void (t += ms) };
    s = await startSim({ records: 20_000, now: clock.now, limits: { minutelyRequest: 4 }, clientRetries: 1 });
    const limiter = RateLimiter.fromUsage(await s.client.usage(), 'acme', clock);
    const waits: (JobProgressInfo & { at: number })[] = [];
    const runner = new JobRunner({ library: store.lib, limiter, max429Retries: 0 });
    const out = await runner.startShipments({ filter }, s.client, {
      onProgress: (p) => p.waitingSeconds !== undefined && waits.push({ ...p, at: Date.now() }),
    });
    expect(out.status).toBe('succeeded');
    expect(waits.length).toBeGreaterThan(0);
    for (const w of waits) {
      // An absolute end the renderer can count down to.
      expect(Math.abs(w.waitingUntil! - w.at - w.waitingSeconds! * 1000)).toBeLessThan(1_500);
      // The simulated minute passes in no real time, so the time left is (nearly) all wait.
      if (w.etaSeconds !== null) expect(w.etaSeconds).toBeGreaterThanOrEqual(w.waitingSeconds! - 1);
    }
    expect(waits.some((w) => w.etaSeconds !== null)).toBe(true);
  }, 60_000);
});
