import { afterEach, describe, expect, it } from 'vitest';
import { JobRunner, RateLimiter, resumableJobs, type JobProgressInfo } from '../../src/main/jobs';
import { useLibrary } from '../helpers/library';
import { expectedHashIds, startSim, type SimSetup } from './helpers';

const store = useLibrary('portolan-jobs-test-');
let s: SimSetup | null = null;
afterEach(async () => {
  await s?.sim.close();
  s = null;
});

const filter = { start_date: '2021-01-01', end_date: '2025-12-31' };

describe('client-side rate limiting', () => {
  it('keeps within minutelyRequest so the service never answers 429', async () => {
    // One clock for the simulator's request window and the limiter: waiting a minute takes no real time.
    let t = Date.UTC(2026, 0, 5, 12);
    const clock = { now: () => t, sleep: async (ms: number) => void (t += ms) };
    s = await startSim({ records: 20_000, now: clock.now, limits: { minutelyRequest: 4 }, clientRetries: 1 });
    const limiter = RateLimiter.fromUsage(await s.client.usage(), 'acme', clock);
    const waits: number[] = [];
    // No 429 retries allowed: a single 429 would fail the job.
    const runner = new JobRunner({ library: store.lib, limiter, max429Retries: 0 });
    const out = await runner.startShipments({ filter }, s.client, {
      onProgress: (p: JobProgressInfo) => p.waitingSeconds !== undefined && waits.push(p.waitingSeconds),
    });
    expect(out.status).toBe('succeeded');
    expect(out.stats.requests).toBeGreaterThan(4);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((w) => w > 0 && w <= 60)).toBe(true);
    const rows = await store.lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [
      out.datasetId,
    ]);
    expect(new Set(rows.map((r) => String(r.h)))).toEqual(expectedHashIds(s.sim, filter));
    // A 20,000-record simulator and a sliced fetch: about 26 s was seen on a loaded two-core machine.
  }, 60_000);

  it('pauses on 429 for Retry-After and retries', async () => {
    s = await startSim({ records: 20_000, faults: { burst429: { every: 3, count: 1 } }, clientRetries: 1 });
    const slept: number[] = [];
    const runner = new JobRunner({ library: store.lib, sleep: async (ms) => void slept.push(ms) });
    const out = await runner.startShipments({ filter }, s.client);
    expect(out.status).toBe('succeeded');
    expect(slept.length).toBeGreaterThan(0);
    expect(slept.every((ms) => ms === 1000)).toBe(true);
    const rows = await store.lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [
      out.datasetId,
    ]);
    expect(new Set(rows.map((r) => String(r.h)))).toEqual(expectedHashIds(s.sim, filter));
    // A 20,000-record simulator, then a sliced fetch with waits: over 20 s on a loaded two-core machine.
  }, 60_000);

  it('stops, resumable, when the daily request limit is used up', async () => {
    s = await startSim({ records: 20_000, limits: { dailyRequest: 4 } });
    const limiter = RateLimiter.fromUsage(await s.client.usage(), 'acme');
    expect(limiter.remainingToday()).toBe(3);
    const runner = new JobRunner({ library: store.lib, limiter });
    const out = await runner.startShipments({ filter }, s.client);
    // A used-up limit pauses the job with what it fetched, rather than failing it.
    expect(out.status).toBe('paused');
    expect(out.message).toMatch(/daily request limit/);
    expect(out.stats.requests).toBe(3);
    const [job] = await resumableJobs(store.lib);
    expect(job?.id).toBe(out.jobId);
    expect(await store.lib.list()).toEqual([]);
  });
});
