import { describe, expect, it, vi } from 'vitest';
import type { FetchFinished, FetchProgress, JobsList } from '@shared/jobs/jobs-contract';
import type { Harness } from './helpers';
import { connectionNews, useServiceOutage } from './service-outage';

/*
 * "Fetch all" through the handlers while the service goes away: the job's client is the profile's,
 * and its wait for the service is the connection monitor's (the status bar's source), so the job and
 * the status bar learn of the service's return from the same probe.
 */

const RECORDS = 20_000;
const outage = useServiceOutage({ records: RECORDS, latencyMs: 60 });
const request = { start_date: '2021-01-01', end_date: '2025-12-31' };

const progressOf = (hh: Harness, jobId: string): FetchProgress[] =>
  hh.events
    .filter((e) => e.event === 'jobs.progress' && (e.payload as FetchProgress).jobId === jobId)
    .map((e) => e.payload as FetchProgress);

describe('a fetch job started from the window while the service restarts', () => {
  it('says it waits for the service, goes on when the probe finds it back, and finishes whole', async () => {
    const sim = await outage.simulator();
    const port = Number(new URL(sim.url).port);
    const hh = await outage.harness(sim);
    const { jobId } = await hh.ok<{ jobId: string }>('jobs.start', { kind: 'shipments', request });
    await vi.waitFor(() => expect(progressOf(hh, jobId).some((p) => p.recordsStored > 0)).toBe(true), {
      timeout: 20_000,
      interval: 20,
    });
    await sim.close();
    await vi.waitFor(
      () => expect(progressOf(hh, jobId).some((p) => p.waitingForServiceSince !== undefined)).toBe(true),
      { timeout: 10_000, interval: 20 },
    );
    // Still running (Pause and Cancel stay available), and the status bar's news says the service is gone.
    const waitingSince = progressOf(hh, jobId).find(
      (p) => p.waitingForServiceSince !== undefined,
    )!.waitingForServiceSince;
    // Listed with it, for a window opened (or reloaded) while no event comes.
    expect((await hh.ok<JobsList>('jobs.list')).running).toMatchObject([
      { id: jobId, status: 'running', waitingForServiceSince: waitingSince },
    ]);
    expect(connectionNews(hh).at(-1)).toMatchObject({ reachable: false });

    await new Promise((r) => setTimeout(r, 1_000));
    await outage.simulator(port);
    const finished = await hh.jobFinished<FetchFinished>(jobId, 30_000);
    expect(finished).toMatchObject({
      outcome: 'succeeded',
      message: `Fetched ${RECORDS.toLocaleString('en-US')} records.`,
    });
    expect(connectionNews(hh).at(-1)).toMatchObject({ reachable: true });
    // The progress after the wait says it is over.
    expect(progressOf(hh, jobId).at(-1)!.waitingForServiceSince).toBeUndefined();
  }, 60_000);

  it('past the longest wait the job stops as interrupted with the reason, listed to resume', async () => {
    const sim = await outage.simulator();
    const hh = await outage.harness(sim, { maxServiceWaitMs: 500 });
    const { jobId } = await hh.ok<{ jobId: string }>('jobs.start', { kind: 'shipments', request });
    await vi.waitFor(() => expect(progressOf(hh, jobId).some((p) => p.recordsStored > 0)).toBe(true), {
      timeout: 20_000,
      interval: 20,
    });
    await sim.close();
    const finished = await hh.jobFinished<FetchFinished>(jobId, 20_000);
    expect(finished.outcome).toBe('interrupted');
    expect(finished.message).toMatch(
      /^The service did not answer for 1 second, so the job stopped\. [\d,]+ records kept; resume it once the service answers again\.$/,
    );
    const list = await hh.ok<JobsList>('jobs.list');
    expect(list.running).toEqual([]);
    expect(list.resumable).toMatchObject([{ id: jobId, status: 'interrupted', error: finished.message }]);
  }, 60_000);
});
