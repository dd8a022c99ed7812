import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Library } from '../../src/main/library';
import {
  JobRunner,
  checkQuota,
  estimateShipments,
  resumableJobs,
  type JobProgressInfo,
} from '../../src/main/jobs';
import { dayNumber } from '../../src/main/jobs/windows';
import { expectedHashIds, openSimAndLibrary, type SimAndLibrary, type SimSetup } from './helpers';

// Each case slices tens of thousands of simulated records over HTTP: seconds alone, more on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

let s: SimSetup;
let lib: Library;
let env: SimAndLibrary;

beforeAll(async () => {
  env = await openSimAndLibrary({ records: 30_000 });
  ({ s, lib } = env);
});
afterAll(() => env.close());

async function storedHashIds(datasetId: string): Promise<string[]> {
  const rows = await lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [
    datasetId,
  ]);
  return rows.map((r) => String(r.h));
}

describe('fetching beyond the 10,000-record cap', () => {
  it('slices by date, fetches every window, dedupes, and the union is exactly the full result', async () => {
    const filter = { start_date: '2021-01-01', end_date: '2025-12-31' };
    const expected = expectedHashIds(s.sim, filter);
    expect(expected.size).toBeGreaterThan(20_000);
    const progress: JobProgressInfo[] = [];
    const runner = new JobRunner({ library: lib });
    const out = await runner.startShipments({ filter, profileId: 'p1', account: 'acme' }, s.client, {
      onProgress: (p) => progress.push(p),
    });
    expect(out.status).toBe('succeeded');
    // The tray and the toast say how much arrived.
    expect(out.message).toBe(`Fetched ${expected.size.toLocaleString('en-US')} records.`);

    const stored = await storedHashIds(out.datasetId!);
    expect(new Set(stored).size).toBe(stored.length); // no duplicates
    expect(new Set(stored)).toEqual(expected); // no gaps, nothing extra

    const meta = await lib.get(out.datasetId!);
    expect(meta).toMatchObject({
      status: 'complete',
      reportedTotal: expected.size,
      storedRows: expected.size,
      account: 'acme',
    });
    // The covered windows tile the range: contiguous days, no overlap, each within the cap.
    const windows = [...meta.windows!].sort((a, b) =>
      String(a.filter.start_date).localeCompare(String(b.filter.start_date)),
    );
    expect(windows[0]!.filter.start_date).toBe('2021-01-01');
    expect(windows.at(-1)!.filter.end_date).toBe('2025-12-31');
    for (let i = 1; i < windows.length; i++) {
      expect(dayNumber(String(windows[i]!.filter.start_date))).toBe(
        dayNumber(String(windows[i - 1]!.filter.end_date)) + 1,
      );
    }
    expect(windows.every((w) => w.total <= 10_000 && w.complete)).toBe(true);
    expect(windows.reduce((n, w) => n + w.total, 0)).toBe(expected.size);

    // Spending: every record downloaded once plus small probes; requests near the optimum.
    expect(out.stats.optimumRequests).toBe(Math.ceil(expected.size / 10_000));
    expect(out.stats.downloads).toBeLessThanOrEqual(expected.size + 10 * out.stats.requests);
    expect(out.stats.requests).toBeLessThanOrEqual(3 * out.stats.optimumRequests!);
    const usage = await s.client.usage();
    expect(usage.acme?.['shipments/search']?.current).toBe(out.stats.downloads);

    const last = progress.at(-1)!;
    expect(last).toMatchObject({
      done: expected.size,
      total: expected.size,
      unit: 'records',
      windowsDone: windows.length,
    });
    expect(progress.some((p) => p.done > 0 && p.done < expected.size && p.etaSeconds !== null)).toBe(true);
  });

  it('fetches a result under the cap with one probe and one exact-size call', async () => {
    const filter = { start_date: '2024-01-01', end_date: '2024-03-31', importer_countries: ['TR', 'DE'] };
    const expected = expectedHashIds(s.sim, filter);
    const before = (await s.client.usage()).acme!['shipments/search']!.current;
    const out = await new JobRunner({ library: lib }).startShipments({ filter }, s.client);
    expect(out.status).toBe('succeeded');
    expect(new Set(await storedHashIds(out.datasetId!))).toEqual(expected);
    expect(out.stats.requests).toBe(expected.size <= 10 ? 1 : 2);
    const after = (await s.client.usage()).acme!['shipments/search']!.current;
    expect(after - before).toBe(out.stats.downloads);
    expect(out.stats.downloads).toBe(expected.size + Math.min(10, expected.size));
  });

  it('estimates before starting and the job reuses the estimate’s probe', async () => {
    const filter = { start_date: '2022-01-01', end_date: '2023-12-31' };
    const expected = expectedHashIds(s.sim, filter);
    const est = await estimateShipments(filter, s.client);
    expect(est.total).toBe(expected.size);
    expect(est.optimumRequests).toBe(Math.ceil(expected.size / 10_000));
    expect(est.estimatedDownloads).toBeGreaterThanOrEqual(expected.size);
    const quota = checkQuota(est, await s.client.usage(), 'acme');
    expect(quota.enough).toBe(true);
    expect(
      checkQuota(est, { acme: { 'shipments/search': { current: 0, limit: 100 } } }, 'acme'),
    ).toMatchObject({ enough: false });

    const out = await new JobRunner({ library: lib }).startShipments({ filter, probe: est.probe }, s.client);
    expect(out.status).toBe('succeeded');
    expect(new Set(await storedHashIds(out.datasetId!))).toEqual(expected);
    // Within a few requests of the estimate (records are not spread perfectly evenly).
    expect(Math.abs(out.stats.requests - est.estimatedRequests)).toBeLessThanOrEqual(4);
  });

  it('slices an open date range too', async () => {
    const filter = { importer_countries: ['TR', 'CN', 'DE', 'US'] };
    const expected = expectedHashIds(s.sim, filter);
    const out = await new JobRunner({ library: lib }).startShipments({ filter }, s.client);
    expect(out.status).toBe('succeeded');
    expect(new Set(await storedHashIds(out.datasetId!))).toEqual(expected);
  });

  it('cancel leaves no half dataset', async () => {
    const ctrl = new AbortController();
    const runner = new JobRunner({ library: lib });
    const datasetsBefore = (await lib.list()).length;
    const rowsBefore = Number((await lib.reader.one('SELECT count(*) AS n FROM shipment_rows'))?.n);
    let jobId = '';
    const out = await runner.startShipments(
      { filter: { start_date: '2021-01-01', end_date: '2025-12-31' } },
      s.client,
      {
        signal: ctrl.signal,
        onStarted: (id) => (jobId = id),
        onProgress: (p) => {
          if (p.recordsStored > 0) ctrl.abort();
        },
      },
    );
    expect(out.status).toBe('cancelled');
    expect(out.jobId).toBe(jobId);
    expect(out.stats.stored).toBeGreaterThan(0); // it had committed windows before the cancel
    expect((await lib.list()).length).toBe(datasetsBefore);
    expect(Number((await lib.reader.one('SELECT count(*) AS n FROM shipment_rows'))?.n)).toBe(rowsBefore);
    expect(
      Number((await lib.reader.one(`SELECT count(*) AS n FROM datasets WHERE status = 'pending'`))?.n),
    ).toBe(0);
    expect((await resumableJobs(lib)).map((j) => j.id)).not.toContain(jobId);
  });
});

describe('firm search', () => {
  it('fetches every page into one dataset', async () => {
    const filter = { importer_countries: ['TR', 'DE', 'CN'] };
    const count = (await s.client.firmCount(filter)).firm_count;
    const first = await s.client.firmSearch({ ...filter, page: 1 });
    const out = await new JobRunner({ library: lib }).startFirms({ filter }, s.client);
    expect(out.status).toBe('succeeded');
    expect(out.stats.requests).toBe(first.total_pages);
    const meta = await lib.get(out.datasetId!);
    expect(meta.kind).toBe('firms');
    expect(meta.storedRows).toBe(count);
    expect(out.message).toBe(`Fetched ${count.toLocaleString('en-US')} firms.`);
    expect(meta.reported).toMatchObject({
      total_pages: first.total_pages,
      total_shipment: first.total_shipment,
    });
    const rows = await lib.getRows(meta.id, { startRow: 0, endRow: 5 });
    expect(rows.rows[0]).toEqual({ ...first.firms[0], _row: 0 });
  });

  it('cancel after the first page leaves nothing; a failed firm job resumes from the next page', async () => {
    const filter = { importer_countries: ['TR', 'DE', 'CN', 'US'] };
    const runner = new JobRunner({ library: lib });
    const before = (await lib.list()).length;
    const ctrl = new AbortController();
    const cancelled = await runner.startFirms({ filter }, s.client, {
      signal: ctrl.signal,
      onProgress: (p) => p.done >= 1 && ctrl.abort(),
    });
    expect(cancelled.status).toBe('cancelled');
    expect((await lib.list()).length).toBe(before);
    expect(
      Number((await lib.reader.one(`SELECT count(*) AS n FROM datasets WHERE status = 'pending'`))?.n),
    ).toBe(0);

    let pagesSeen = 0;
    const failing = await runner.startFirms({ filter }, s.client, {
      onProgress: (p) => {
        pagesSeen = p.done;
        if (p.done === 2) s.sim.setFaults({ errorRate: 1, errorStatuses: [500] });
      },
    });
    s.sim.setFaults(undefined);
    expect(failing.status).toBe('failed');
    expect(pagesSeen).toBe(2);
    const resumed = await runner.resume(failing.jobId, s.client);
    expect(resumed.status).toBe('succeeded');
    const first = await s.client.firmSearch({ ...filter, page: 1 });
    // Pages 1–2 were not fetched again: requests across both runs = total pages (+ the failed one).
    expect(resumed.stats.requests).toBe(first.total_pages);
    expect((await lib.get(resumed.datasetId!)).storedRows).toBe(
      (await s.client.firmCount(filter)).firm_count,
    );
  });
});
