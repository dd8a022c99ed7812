import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Library } from '../../src/main/library';
import { JobRunner } from '../../src/main/jobs';
import { expectedHashIds, openSimAndLibrary, type SimAndLibrary, type SimSetup } from './helpers';

// Each case slices tens of thousands of simulated records over HTTP: seconds alone, more on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

// A small per-call cap stands in for the service's 10,000 so that one day holds more than a call
// returns with a simulator of a size a test can afford; the slicing logic is the same.
const CAP = 20;
let s: SimSetup;
let lib: Library;
let env: SimAndLibrary;

beforeAll(async () => {
  env = await openSimAndLibrary({ records: 60_000 });
  ({ s, lib } = env);
});
afterAll(() => env.close());

async function stored(datasetId: string): Promise<string[]> {
  return (
    await lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [datasetId])
  ).map((r) => String(r.h));
}

describe('one day over the cap', () => {
  it('splits by HS chapter and refines prefixes until every window fits', async () => {
    const filter = { start_date: '2024-03-05', end_date: '2024-03-06' };
    const expected = expectedHashIds(s.sim, filter);
    expect(expected.size).toBeGreaterThan(2 * CAP);
    const out = await new JobRunner({ library: lib, cap: CAP }).startShipments({ filter }, s.client);
    expect(out.status).toBe('succeeded');
    const got = await stored(out.datasetId!);
    expect(new Set(got).size).toBe(got.length);
    expect(new Set(got)).toEqual(expected);
    const meta = await lib.get(out.datasetId!);
    expect(meta.status).toBe('complete');
    expect(meta.windows!.some((w) => Array.isArray(w.filter.hs_codes))).toBe(true);
    expect(meta.windows!.every((w) => w.total <= CAP)).toBe(true);
    // Dozens of windows, each a signed round trip and a commit: 19 s on a loaded two-core machine.
  }, 90_000);

  it('splits by the listed HS codes first and dedupes overlapping ones', async () => {
    const day = '2024-03-05';
    const recs = [...s.sim.dataset.records()].filter((r) => r.arrivalDate === day);
    // The nine busiest chapters of that day plus a 4-digit prefix inside the first: the last overlaps it.
    const counts = new Map<string, number>();
    for (const r of recs) counts.set(r.hsCode.slice(0, 2), (counts.get(r.hsCode.slice(0, 2)) ?? 0) + 1);
    const chapters = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 9)
      .map(([c]) => c);
    const first = recs.find((r) => r.hsCode.startsWith(chapters[0]!))!;
    const filter = { start_date: day, end_date: day, hs_codes: [...chapters, first.hsCode.slice(0, 4)] };
    const expected = expectedHashIds(s.sim, filter);
    // The smallest cap the spec allows (size 10), so the day is over it.
    expect(expected.size).toBeGreaterThan(10);
    const out = await new JobRunner({ library: lib, cap: 10 }).startShipments({ filter }, s.client);
    expect(out.status).toBe('succeeded');
    expect(out.stats.duplicates).toBeGreaterThan(0);
    const got = await stored(out.datasetId!);
    expect(new Set(got).size).toBe(got.length);
    expect(new Set(got)).toEqual(expected);
  }, 90_000);
});
