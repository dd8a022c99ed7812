import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShipmentSearchRequest } from '@shared/spec/operations';
import type { ShipmentFilter } from '@shared/spec/filter';
import { checkedRecordList } from '@shared/spec/records';
import { LibraryWriter, type Library } from '../../src/main/library';
import { JobRunner, type FirmSource, type ShipmentSource, type SliceWindow } from '../../src/main/jobs';
import { dayNumber, isoDay, OPEN_END, OPEN_START } from '../../src/main/jobs/windows';
import { expectedHashIds, openSimAndLibrary, type SimAndLibrary, type SimSetup } from './helpers';

// Each case slices tens of thousands of simulated records over HTTP: seconds alone, more on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

/** Equal runs of whole days, as the earlier slicing cut a window. */
function equalDaySlices(start: string, end: string, parts: number): SliceWindow[] {
  const a = dayNumber(start);
  const days = dayNumber(end) - a + 1;
  return Array.from({ length: parts }, (_, i) => ({
    start: isoDay(a + Math.floor((i * days) / parts)),
    end: isoDay(a + Math.floor(((i + 1) * days) / parts) - 1),
  }));
}

// A per-call cap well below the service's 10,000 gives a slicing of the same shape on a simulator
// small enough to be quick: 20,000 records over 2021–2025 need at least 10 windows of 2,000.
const CAP = 2_000;
let s: SimSetup;
let lib: Library;
let env: SimAndLibrary;

beforeAll(async () => {
  env = await openSimAndLibrary({ records: 20_000 });
  ({ s, lib } = env);
});
afterAll(() => env.close());

interface Call {
  start: string;
  end: string;
  size: number;
}

/** The real client, with every request it passes on written down (and optionally a lost answer). */
function recording(
  loseAnswer?: (req: Call, earlier: readonly Call[]) => boolean,
): ShipmentSource & FirmSource & { calls: Call[] } {
  const calls: Call[] = [];
  let lost = false;
  return {
    calls,
    firmSearch: (req, opts) => s.client.firmSearch(req, opts),
    async shipmentSearch(req: ShipmentSearchRequest, opts?: { signal?: AbortSignal }) {
      const call = { start: String(req.start_date), end: String(req.end_date), size: req.size };
      const earlier = [...calls];
      calls.push(call);
      const res = await s.client.shipmentSearch(req, opts);
      // The service answered (and counted the downloads) but the answer never arrived.
      if (!lost && loseAnswer?.(call, earlier)) {
        lost = true;
        throw new Error('socket hang up');
      }
      return res;
    },
  };
}

/** A fetch over more than one part: its days strictly contain a part probed before it. */
function isMerged(call: Call, earlier: readonly Call[]): boolean {
  return (
    call.size > 10 &&
    earlier.some(
      (p) =>
        p.size === 10 &&
        p.start >= call.start &&
        p.end <= call.end &&
        (p.start !== call.start || p.end !== call.end),
    )
  );
}

async function storedHashIds(datasetId: string): Promise<string[]> {
  return (
    await lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [datasetId])
  ).map((r) => String(r.h));
}

/** Covered windows sorted by start: they must tile [first, last] day by day, without overlap. */
function expectTiling(
  windows: readonly { filter: Record<string, unknown>; total: number }[],
  first: string,
  last: string,
): void {
  const sorted = [...windows].sort((a, b) =>
    String(a.filter.start_date).localeCompare(String(b.filter.start_date)),
  );
  expect(sorted[0]!.filter.start_date).toBe(first);
  expect(sorted.at(-1)!.filter.end_date).toBe(last);
  for (let i = 1; i < sorted.length; i++) {
    expect(dayNumber(String(sorted[i]!.filter.start_date))).toBe(
      dayNumber(String(sorted[i - 1]!.filter.end_date)) + 1,
    );
  }
}

describe('merged windows', () => {
  it('fetch the empty years of an open date range together with data, and the union is the full result', async () => {
    const filter: ShipmentFilter = {};
    const expected = expectedHashIds(s.sim, filter);
    const source = recording();
    const out = await new JobRunner({ library: lib, cap: CAP }).startShipments({ filter }, source);
    expect(out.status).toBe('succeeded');
    const got = await storedHashIds(out.datasetId!);
    expect(new Set(got).size).toBe(got.length);
    expect(new Set(got)).toEqual(expected);

    const meta = await lib.get(out.datasetId!);
    expect(meta.status).toBe('complete');
    expectTiling(meta.windows!, OPEN_START, OPEN_END);
    expect(meta.windows!.every((w) => w.total <= CAP && w.complete)).toBe(true);
    expect(meta.windows!.reduce((n, w) => n + w.total, 0)).toBe(expected.size);
    // The decades before the data were probed empty, then fetched in one request with the first data.
    const first = meta.windows!.find((w) => w.filter.start_date === OPEN_START)!;
    expect(first.total).toBeGreaterThan(0);
    expect(source.calls.some((c, i) => isMerged(c, source.calls.slice(0, i)))).toBe(true);
    // No request downloads more than the cap, and every fetch is sized to what it returns.
    expect(source.calls.every((c) => c.size <= CAP)).toBe(true);

    // Spending: one fetch per covered window (empty ones cost none), about one probe per cut, and every
    // record downloaded once plus the probes. Equal day slices of the eras spent 3.7× the optimum here.
    const fetches = source.calls.filter((c) => c.size > 10).length;
    expect(fetches).toBeLessThanOrEqual(meta.windows!.filter((w) => w.total > 0).length);
    expect(out.stats.requests).toBe(source.calls.length);
    expect(out.stats.requests).toBeLessThanOrEqual(2.6 * out.stats.optimumRequests!);
    expect(out.stats.downloads).toBeLessThanOrEqual(expected.size + 10 * (out.stats.requests - fetches));
  });

  it('store the records the client checked without checking them a second time', async () => {
    // The client checks each response once and vouches for its record list; the job keeps only the
    // records it does not hold yet, and what it stores must still be that vouched-for list.
    const append = vi.spyOn(LibraryWriter.prototype, 'appendRecords');
    try {
      const filter = { start_date: '2023-01-01', end_date: '2023-12-31' };
      const out = await new JobRunner({ library: lib, cap: CAP }).startShipments({ filter }, recording());
      expect(out.status).toBe('succeeded');
      const stored = append.mock.calls.map((c) => c[3]).filter((records) => records.length > 0);
      expect(stored.length).toBeGreaterThan(1);
      for (const records of stored) expect(checkedRecordList(records)).toEqual({ allInSpecOrder: true });
      expect(stored.reduce((n, r) => n + r.length, 0)).toBe(expectedHashIds(s.sim, filter).size);
    } finally {
      append.mockRestore();
    }
  });

  it('slice a closed range into windows filled close to the cap', async () => {
    const filter = { start_date: '2022-01-01', end_date: '2024-12-31' };
    const expected = expectedHashIds(s.sim, filter);
    const source = recording();
    const out = await new JobRunner({ library: lib, cap: CAP }).startShipments({ filter }, source);
    expect(out.status).toBe('succeeded');
    expect(new Set(await storedHashIds(out.datasetId!))).toEqual(expected);
    const meta = await lib.get(out.datasetId!);
    expectTiling(meta.windows!, filter.start_date, filter.end_date);
    const optimum = Math.ceil(expected.size / CAP);
    // A date sweep's floor is 2 × optimum: the whole range's probe, a probe per cut and a fetch per window.
    expect(out.stats.requests).toBeGreaterThanOrEqual(2 * optimum);
    expect(out.stats.requests).toBeLessThanOrEqual(2 * optimum + 4);
    expect(meta.windows!.length).toBeLessThanOrEqual(optimum + 1);
  });

  it('resume after the answer to a merged fetch was lost fetches that window again and nothing already committed', async () => {
    const filter: ShipmentFilter = { start_date: '2021-01-01', end_date: '2025-12-31' };
    const expected = expectedHashIds(s.sim, filter);
    const runner = new JobRunner({ library: lib, cap: CAP });
    const failing = recording(isMerged);
    const out = await runner.startShipments({ filter }, failing);
    expect(out.status).toBe('failed');
    expect(out.message).toMatch(/socket hang up/);
    const lostCall = failing.calls.at(-1)!;
    expect(isMerged(lostCall, failing.calls.slice(0, -1))).toBe(true);
    const job = await lib.reader.one('SELECT dataset_id FROM jobs WHERE id = $1', [out.jobId]);
    await expect(lib.get(String(job?.dataset_id))).rejects.toThrow(); // still pending, not in the library
    const committedBefore = await lib.reader.all('SELECT window_key FROM job_windows WHERE job_id = $1', [
      out.jobId,
    ]);
    const rowsBefore = (await storedHashIds(String(job?.dataset_id))).length;
    expect(rowsBefore).toBeGreaterThan(0);

    const resumedSource = recording();
    const usageBefore = (await s.client.usage()).acme!['shipments/search']!.current;
    const resumed = await runner.resume(out.jobId, resumedSource);
    expect(resumed.status).toBe('succeeded');
    // The first request of the resumed run is the lost merged fetch, from the persisted probed parts.
    expect(resumedSource.calls[0]).toEqual(lostCall);
    const got = await storedHashIds(resumed.datasetId!);
    expect(new Set(got).size).toBe(got.length);
    expect(new Set(got)).toEqual(expected);
    const meta = await lib.get(resumed.datasetId!);
    expectTiling(meta.windows!, filter.start_date!, filter.end_date!);
    expect(
      meta.windows!.some((w) => w.filter.start_date === lostCall.start && w.filter.end_date === lostCall.end),
    ).toBe(true);
    // Nothing committed before the failure was fetched again; no window was committed twice.
    const resumedFetches = resumedSource.calls.filter((c) => c.size > 10);
    for (const row of committedBefore) {
      const [start, end] = JSON.parse(String(row.window_key)) as [string, string];
      expect(resumedFetches.some((c) => c.start <= end && c.end >= start)).toBe(false);
    }
    const twice = await lib.reader.all(
      'SELECT window_key FROM job_windows WHERE job_id = $1 GROUP BY 1 HAVING count(*) > 1',
      [out.jobId],
    );
    expect(twice).toEqual([]);
    const usageAfter = (await s.client.usage()).acme!['shipments/search']!.current;
    // The resumed run downloaded what was missing plus its probes' records, nothing more.
    const probes = resumedSource.calls.filter((c) => c.size === 10).length;
    expect(usageAfter - usageBefore).toBeGreaterThanOrEqual(expected.size - rowsBefore);
    expect(usageAfter - usageBefore).toBeLessThanOrEqual(expected.size - rowsBefore + 10 * probes);
  });

  it('a job saved with equal day slices (the earlier slicing) resumes and completes', async () => {
    const filter: ShipmentFilter = { start_date: '2021-01-01', end_date: '2025-12-31' };
    const expected = expectedHashIds(s.sim, filter);
    const runner = new JobRunner({ library: lib, cap: CAP });
    // Fail the very first request, leaving a job whose state we then write as the earlier code left it
    // mid-way: equal day slices, each probed (or, the last, derived), none fetched yet.
    const failed = await runner.startShipments(
      { filter },
      { shipmentSearch: () => Promise.reject(new Error('offline')) },
    );
    expect(failed.status).toBe('failed');
    const parts = equalDaySlices(filter.start_date!, filter.end_date!, 14);
    const byDay = new Map<string, number>();
    for (const r of s.sim.dataset.records()) byDay.set(r.arrivalDate, (byDay.get(r.arrivalDate) ?? 0) + 1);
    const count = (start: string, end: string): number =>
      [...byDay].reduce((n, [d, k]) => (d >= start && d <= end ? n + k : n), 0);
    const frontier = parts.map((w) => ({ window: w, total: count(w.start, w.end) }));
    const state = {
      kind: 'shipments',
      rootTotal: expected.size,
      frontier,
      covered: [],
      requests: 14,
      downloads: 140,
      stored: 0,
      duplicates: 0,
      coveredRecords: 0,
      elapsedMs: 0,
      gaps: [],
    };
    await lib.write((tx) => tx.jobs.saveState(failed.jobId, state));
    const source = recording();
    const out = await runner.resume(failed.jobId, source);
    expect(out.status).toBe('succeeded');
    expect(new Set(await storedHashIds(out.datasetId!))).toEqual(expected);
    const meta = await lib.get(out.datasetId!);
    expectTiling(meta.windows!, filter.start_date!, filter.end_date!);
    expect(meta.windows!.every((w) => w.total <= CAP && w.complete)).toBe(true);
    // Known slices are never probed again, and adjoining small ones are fetched together.
    expect(
      source.calls.some((c) =>
        frontier.some(
          (f) => f.total <= CAP && c.size === 10 && c.start === f.window.start && c.end === f.window.end,
        ),
      ),
    ).toBe(false);
  });
});
