import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/api';
import { JobRunner, resumableJobs, type JobProgressInfo } from '../../src/main/jobs';
import type { RunningSimulator } from '../../src/main/sim';
import { useLibrary } from '../helpers/library';
import { expectedHashIds, startSim } from './helpers';

/*
 * A fetch job whose service sits behind a gateway that answers 502/503/504 while the service restarts
 * (the simulator's fault injection, every request answered with one of them). The client's own four
 * attempts are soon spent; the job then waits, asking again once per pause (one attempt each), and
 * goes on when the answers come back.
 */

const store = useLibrary('portolan-jobs-gateway-');
const filter = { start_date: '2021-01-01', end_date: '2025-12-31' };
const GATEWAY = { errorRate: 1, errorStatuses: [502, 503, 504] };
const sims: RunningSimulator[] = [];
afterEach(async () => {
  for (const s of sims.splice(0)) await s.close();
});

async function service() {
  const s = await startSim({ records: 25_000 });
  sims.push(s.sim);
  /** When each attempt was answered (any status), the client's retries included. */
  const attempts: number[] = [];
  const client = createServiceClient({
    baseUrl: s.sim.url,
    credentials: { apiKey: s.account.apiKey, apiSecret: s.account.apiSecret },
    retry: { maxAttempts: 4, baseDelayMs: 20 },
    onReach: () => attempts.push(Date.now()),
  });
  return { s, client, attempts };
}

describe('a fetch job whose gateway answers 502/503/504 for a while', () => {
  it('waits, asking again once per growing pause, and goes on when the service is back: every record once', async () => {
    const { s, client, attempts } = await service();
    const expected = expectedHashIds(s.sim, filter);
    let broken = false;
    let wait: JobProgressInfo | null = null;
    let backAt = 0;
    const out = await new JobRunner({ library: store.lib, unavailablePauseMs: 300 }).startShipments(
      { filter },
      client,
      {
        onProgress: (p) => {
          if (!broken && p.recordsStored > 0) {
            broken = true;
            s.sim.setFaults(GATEWAY);
          }
          if (p.waitingForServiceSince !== undefined && !wait) {
            wait = p;
            setTimeout(() => {
              backAt = Date.now();
              s.sim.setFaults(undefined);
            }, 2_500);
          }
        },
      },
    );
    expect(out.status).toBe('succeeded');
    const w = wait as JobProgressInfo | null;
    expect(w).not.toBeNull();
    expect(w!.recordsStored).toBeGreaterThan(0);
    const since = w!.waitingForServiceSince!;
    // While it waited: one attempt per pause of 0.3, 0.6, 1.2 s… (three or four in 2.5 s), not the
    // client's four each time; each pause longer than the one before.
    const during = attempts.filter((t) => t > since && t < backAt);
    expect(during.length).toBeGreaterThanOrEqual(2);
    expect(during.length).toBeLessThanOrEqual(4);
    const gaps = during.slice(1).map((t, i) => t - during[i]!);
    for (const [i, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual(300 * 2 ** (i + 1) - 50);

    const rows = await store.lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [
      out.datasetId,
    ]);
    expect(new Set(rows.map((r) => String(r.h)))).toEqual(expected);
    expect(rows.length).toBe(expected.size);
    expect(await resumableJobs(store.lib)).toEqual([]);
  }, 60_000);

  it('stops as interrupted after the longest wait, saying the service was unavailable, with what it fetched kept', async () => {
    const { s, client } = await service();
    let broken = false;
    const out = await new JobRunner({
      library: store.lib,
      unavailablePauseMs: 200,
      maxServiceWaitMs: 1_500,
    }).startShipments({ filter }, client, {
      onProgress: (p) => {
        if (!broken && p.recordsStored > 0) {
          broken = true;
          s.sim.setFaults({ errorRate: 1, errorStatuses: [503] });
        }
      },
    });
    expect(out.status).toBe('interrupted');
    const kept = out.stats.stored.toLocaleString('en-US');
    expect(out.stats.stored).toBeGreaterThan(0);
    expect(out.message).toBe(
      `The service was unavailable (status 503) for 2 seconds, so the job stopped. ${kept} records kept; resume it once the service answers again.`,
    );
    expect(await resumableJobs(store.lib)).toMatchObject([{ id: out.jobId, status: 'interrupted' }]);
  }, 60_000);
});
