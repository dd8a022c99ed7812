import { afterEach, describe, expect, it } from 'vitest';
import type { FirmSearchRequest, ShipmentSearchRequest } from '@shared/spec/operations';
import { createServiceClient } from '../../src/main/api';
import { createConnectionMonitor, type ConnectionMonitor } from '../../src/main/connection';
import { JobRunner, resumableJobs, type JobProgressInfo, type JobRunnerOptions } from '../../src/main/jobs';
import { startSimulator, type RunningSimulator, type SimAccount } from '../../src/main/sim';
import { useLibrary } from '../helpers/library';
import { expectedHashIds, startSim } from './helpers';

/*
 * A fetch job whose service stops answering for a while (a restart, a network blip): the simulator is
 * closed under the running job and started again on the same port. The job's client tells a real
 * connection monitor of every attempt, as the handlers' clients do, and the monitor's TCP probe says
 * when the service listens again.
 */

const store = useLibrary('portolan-jobs-outage-');
const filter = { start_date: '2021-01-01', end_date: '2025-12-31' };
const RECORDS = 30_000;
const sims: RunningSimulator[] = [];
const monitors: ConnectionMonitor[] = [];
afterEach(async () => {
  for (const m of monitors.splice(0)) m.dispose();
  for (const s of sims.splice(0)) await s.close();
});

/** The service of one profile: its simulator, a client reporting to the monitor, and the requests it made. */
async function service() {
  const s = await startSim({ records: RECORDS, faults: { latencyMs: 80 } });
  sims.push(s.sim);
  const url = s.sim.url;
  const port = Number(new URL(url).port);
  const monitor = createConnectionMonitor({ emit: () => undefined, probeEveryMs: 100 });
  monitors.push(monitor);
  const client = createServiceClient({
    baseUrl: url,
    credentials: { apiKey: s.account.apiKey, apiSecret: s.account.apiSecret },
    retry: { maxAttempts: 2, baseDelayMs: 20 },
    onReach: (reach, error) => monitor.report('p1', url, reach, error?.message),
  });
  /** When each request was sent (epoch ms). */
  const sent: number[] = [];
  const source = {
    shipmentSearch: (req: ShipmentSearchRequest, o?: { signal?: AbortSignal }) => {
      sent.push(Date.now());
      return client.shipmentSearch(req, o);
    },
    firmSearch: (req: FirmSearchRequest, o?: { signal?: AbortSignal }) => {
      sent.push(Date.now());
      return client.firmSearch(req, o);
    },
  };
  const runner = (opts: Partial<JobRunnerOptions> = {}) =>
    new JobRunner({
      library: store.lib,
      untilServiceAnswers: (signal) => monitor.whenAnswers('p1', url, signal),
      ...opts,
    });
  const restart = async (account: SimAccount = s.account): Promise<RunningSimulator> => {
    const again = await startSimulator({
      port,
      records: RECORDS,
      seed: 7,
      accounts: [account],
      faults: { latencyMs: 80 },
    });
    sims.push(again);
    return again;
  };
  return { s, client, source, sent, runner, restart };
}

async function stored(datasetId: string): Promise<{ rows: number; ids: Set<string> }> {
  const rows = await store.lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [
    datasetId,
  ]);
  return { rows: rows.length, ids: new Set(rows.map((r) => String(r.h))) };
}

async function windowsFetchedTwice(jobId: string): Promise<unknown[]> {
  return store.lib.reader.all(
    'SELECT window_key FROM job_windows WHERE job_id = $1 GROUP BY 1 HAVING count(*) > 1',
    [jobId],
  );
}

describe('a fetch job whose service stops answering', () => {
  it('waits for it, sends no request meanwhile, and goes on by itself when it answers: nothing lost or fetched twice', async () => {
    const svc = await service();
    const expected = expectedHashIds(svc.s.sim, filter);
    let closed: Promise<void> | null = null;
    let firstWait: JobProgressInfo | null = null;
    let back: Promise<RunningSimulator> | null = null;
    let backAt = 0;
    const out = await svc.runner().startShipments({ filter }, svc.source, {
      onProgress: (p) => {
        // Gone between two committed steps, as a restart would take it.
        if (!closed && p.recordsStored > 0) closed = svc.s.sim.close();
        if (p.waitingForServiceSince !== undefined && !firstWait) {
          firstWait = p;
          // Back after a while: longer than the client's own retries (about 20 ms here) and many probes.
          setTimeout(() => {
            backAt = Date.now();
            back = svc.restart();
          }, 1_500);
        }
      },
    });
    expect(back).not.toBeNull();
    await back;

    expect(out.status).toBe('succeeded');
    const wait = firstWait as JobProgressInfo | null;
    expect(wait).not.toBeNull();
    // Said with what it holds so far, and since when it waits.
    expect(wait!.recordsStored).toBeGreaterThan(0);
    expect(wait!.waitingForServiceSince).toBeLessThanOrEqual(Date.now());
    // While it waited, only the probes ran: no request went out until the service listened again.
    const waitingSince = wait!.waitingForServiceSince!;
    expect(svc.sent.filter((t) => t > waitingSince && t < backAt)).toEqual([]);
    // Every record once, no window fetched twice.
    const { rows, ids } = await stored(out.datasetId!);
    expect(ids).toEqual(expected);
    expect(rows).toBe(expected.size);
    expect(await windowsFetchedTwice(out.jobId)).toEqual([]);
    expect(await resumableJobs(store.lib)).toEqual([]);
  }, 60_000);

  it('paces the time left by the fetching alone: the wait for the service is not counted in it', async () => {
    const svc = await service();
    let closed: Promise<void> | null = null;
    let back: Promise<RunningSimulator> | null = null;
    let waitingSince = 0;
    let answeredAt = 0;
    let afterWait: JobProgressInfo | null = null;
    let afterWaitAt = 0;
    const OUTAGE_MS = 4_000;
    const began = Date.now();
    const out = await svc.runner().startShipments({ filter }, svc.source, {
      onProgress: (p) => {
        if (!closed && p.recordsStored > 0) closed = svc.s.sim.close();
        if (p.waitingForServiceSince !== undefined) {
          if (!waitingSince) {
            waitingSince = p.waitingForServiceSince;
            setTimeout(() => (back = svc.restart()), OUTAGE_MS);
          }
        } else if (waitingSince && !answeredAt) answeredAt = Date.now();
        else if (answeredAt && !afterWait && p.etaSeconds !== null && p.done < (p.total ?? 0)) {
          afterWait = p;
          afterWaitAt = Date.now();
        }
      },
    });
    await back;
    const wall = Date.now() - began;
    expect(out.status).toBe('succeeded');
    expect(answeredAt - waitingSince).toBeGreaterThanOrEqual(OUTAGE_MS - 100);

    // What the job saves as its time spent is its wall time less the wait.
    const spent = ((await store.lib.jobs.get(out.jobId)).state as { elapsedMs: number }).elapsedMs;
    expect(spent).toBeLessThanOrEqual(wall - (answeredAt - waitingSince) + 100);
    expect(spent).toBeGreaterThan(0);
    // The first time left said after the return is the pace of the fetching so far over what is left;
    // with the wait counted in, it would be longer by the wait's share (4 s over the part done).
    const p = afterWait as JobProgressInfo | null;
    expect(p).not.toBeNull();
    const left = p!.total! - p!.done;
    expect(left).toBeGreaterThan(0);
    const waited = answeredAt - waitingSince;
    const fetchingPace = (afterWaitAt - began - waited) / p!.done;
    expect(p!.etaSeconds!).toBeLessThanOrEqual(Math.ceil((fetchingPace * left) / 1000) + 1);
    expect((waited / p!.done) * left).toBeGreaterThan(4_000);
  }, 60_000);

  it('stops as interrupted after the longest wait, saying why and keeping what it fetched; resumed, it completes', async () => {
    const svc = await service();
    const expected = expectedHashIds(svc.s.sim, filter);
    let closed: Promise<void> | null = null;
    const runner = svc.runner({ maxServiceWaitMs: 800 });
    const started = Date.now();
    const out = await runner.startShipments({ filter }, svc.source, {
      onProgress: (p) => {
        if (!closed && p.recordsStored > 0) closed = svc.s.sim.close();
      },
    });
    expect(out.status).toBe('interrupted');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(out.stats.stored).toBeGreaterThan(0);
    const kept = out.stats.stored.toLocaleString('en-US');
    expect(out.message).toBe(
      `The service did not answer for 1 second, so the job stopped. ${kept} records kept; resume it once the service answers again.`,
    );
    // Listed as interrupted with the reason, its records kept as pending data (no half dataset shown).
    expect(await resumableJobs(store.lib)).toMatchObject([
      { id: out.jobId, status: 'interrupted', error: out.message, stored: out.stats.stored },
    ]);
    expect(await store.lib.list()).toEqual([]);

    await svc.restart();
    const resumed = await runner.resume(out.jobId, svc.source);
    expect(resumed.status).toBe('succeeded');
    const { rows, ids } = await stored(resumed.datasetId!);
    expect(ids).toEqual(expected);
    expect(rows).toBe(expected.size);
    expect(await windowsFetchedTwice(out.jobId)).toEqual([]);
  }, 60_000);

  it('a firm fetch waits between its pages the same way, and stores every page once', async () => {
    const svc = await service();
    const filter = { importer_countries: ['TR', 'DE', 'CN', 'US'] };
    const firms = (await svc.client.firmCount(filter)).firm_count;
    const pages = (await svc.client.firmSearch({ ...filter, page: 1 })).total_pages;
    expect(pages).toBeGreaterThan(3);
    let closed: Promise<void> | null = null;
    let waitingSince = 0;
    let backAt = 0;
    let back: Promise<RunningSimulator> | null = null;
    const out = await svc.runner().startFirms({ filter }, svc.source, {
      onProgress: (p) => {
        if (!closed && p.done >= 2) closed = svc.s.sim.close();
        if (p.waitingForServiceSince !== undefined && !waitingSince) {
          waitingSince = p.waitingForServiceSince;
          setTimeout(() => {
            backAt = Date.now();
            back = svc.restart();
          }, 1_000);
        }
      },
    });
    await back;
    expect(waitingSince).toBeGreaterThan(0);
    expect(out.status).toBe('succeeded');
    expect(svc.sent.filter((t) => t > waitingSince && t < backAt)).toEqual([]);
    // Each page asked once with an answer: no page fetched twice, none missing.
    expect(out.stats.requests).toBe(pages);
    expect((await store.lib.get(out.datasetId!)).storedRows).toBe(firms);
  }, 60_000);

  it('Pause ends the wait at once and keeps the job resumable; Cancel ends it too', async () => {
    const svc = await service();
    await svc.s.sim.close();
    const pause = new AbortController();
    const began = Date.now();
    const paused = await svc.runner().startShipments({ filter }, svc.source, {
      pause: pause.signal,
      onProgress: (p) => void (p.waitingForServiceSince !== undefined && pause.abort()),
    });
    expect(paused.status).toBe('paused');
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(await resumableJobs(store.lib)).toMatchObject([{ id: paused.jobId, status: 'paused' }]);

    const cancel = new AbortController();
    const cancelled = await svc.runner().resume(paused.jobId, svc.source, {
      signal: cancel.signal,
      onProgress: (p) => void (p.waitingForServiceSince !== undefined && cancel.abort()),
    });
    expect(cancelled.status).toBe('cancelled');
    expect(await resumableJobs(store.lib)).toEqual([]);
  }, 30_000);
});
