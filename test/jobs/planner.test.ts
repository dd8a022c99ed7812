import { describe, expect, it } from 'vitest';
import { carveCut, nextSweepStep, type FrontierItem, type SweepLimits } from '../../src/main/jobs';

/** The slicing sweep's decisions on their own: no service, no library. */
const limits = (over: Partial<SweepLimits> = {}): SweepLimits => ({
  cap: 10_000,
  probeSize: 10,
  fill: 0.95,
  budget: Number.POSITIVE_INFINITY,
  ...over,
});
const part = (
  start: string,
  end: string,
  total: number | null,
  facet: Partial<FrontierItem['window']> = {},
) => ({
  window: { start, end, ...facet },
  total,
});

describe('nextSweepStep', () => {
  it('is done when nothing is left, and probes a part it knows nothing of', () => {
    expect(nextSweepStep([], limits())).toEqual({ kind: 'done' });
    expect(nextSweepStep([part('2024-01-01', '2024-12-31', null)], limits())).toEqual({
      kind: 'probe',
      index: 0,
    });
  });

  it('carves a date prefix off a part over the cap, aiming at even slices under the fill', () => {
    // 25,000 records: three slices of ~8,333 each fill 95 % of the cap at most.
    const step = nextSweepStep([part('2024-01-01', '2024-12-31', 25_000)], limits());
    expect(step.kind).toBe('carve');
    if (step.kind === 'carve') {
      expect(step.index).toBe(0);
      expect(step.want).toBeCloseTo(25_000 / 3, 6);
    }
  });

  it('splits a single day over the cap by facet instead', () => {
    expect(nextSweepStep([part('2024-03-01', '2024-03-01', 12_000)], limits())).toEqual({ kind: 'split' });
  });

  it('fetches the longest run of adjoining known parts that fits one request, with its exact size', () => {
    const frontier = [
      part('2024-01-01', '2024-01-31', 3_000),
      part('2024-02-01', '2024-02-29', 4_000),
      part('2024-03-01', '2024-03-31', 2_500),
      part('2024-04-01', '2024-04-30', 5_000),
    ];
    expect(nextSweepStep(frontier, limits())).toEqual({ kind: 'fetch', count: 3, sum: 9_500 });
  });

  it('does not join parts that do not adjoin or narrow different facets', () => {
    const gap = [part('2024-01-01', '2024-01-31', 3_000), part('2024-03-01', '2024-03-31', 3_000)];
    expect(nextSweepStep(gap, limits())).toEqual({ kind: 'fetch', count: 1, sum: 3_000 });
    const facets = [
      part('2024-01-01', '2024-01-01', 3_000, { hs_codes: ['72'] }),
      part('2024-01-02', '2024-01-02', 3_000, { hs_codes: ['73'] }),
    ];
    expect(nextSweepStep(facets, limits())).toEqual({ kind: 'fetch', count: 1, sum: 3_000 });
  });

  it('probes the next adjoining part first when the room left is worth filling', () => {
    const frontier = [part('2024-01-01', '2024-01-31', 2_000), part('2024-02-01', '2024-12-31', null)];
    expect(nextSweepStep(frontier, limits())).toEqual({ kind: 'probe', index: 1 });
  });

  it('carves the next adjoining part when it is over the cap and the room is worth filling', () => {
    const frontier = [part('2024-01-01', '2024-01-31', 2_000), part('2024-02-01', '2024-12-31', 30_000)];
    const step = nextSweepStep(frontier, limits());
    expect(step).toMatchObject({ kind: 'carve', index: 1 });
  });

  it('fetches what it has when the room left is too small to be worth a probe', () => {
    const frontier = [part('2024-01-01', '2024-01-31', 8_000), part('2024-02-01', '2024-12-31', null)];
    expect(nextSweepStep(frontier, limits())).toEqual({ kind: 'fetch', count: 1, sum: 8_000 });
  });

  it('carves what the downloads left can pay for, keeping room for the probe that cuts it', () => {
    const step = nextSweepStep([part('2024-01-01', '2024-12-31', 25_000)], limits({ budget: 3_000 }));
    expect(step.kind).toBe('carve');
    if (step.kind === 'carve') expect(step.want).toBeCloseTo((3_000 - 10) * 0.9, 6);
  });

  it('stops when the downloads left cannot pay for a useful request', () => {
    expect(nextSweepStep([part('2024-01-01', '2024-12-31', 25_000)], limits({ budget: 50 }))).toEqual({
      kind: 'out-of-downloads',
      needs: 10_000,
    });
    expect(nextSweepStep([part('2024-03-01', '2024-03-01', 900)], limits({ budget: 500 }))).toEqual({
      kind: 'out-of-downloads',
      needs: 900,
    });
  });
});

describe('carveCut', () => {
  const today = '2025-01-01';

  it('cuts by the average density of the part when nothing before it is known', () => {
    // 366 days holding 36,600 records: 100 a day, so 1,000 records are the first 10 days.
    const { prefix, rest } = carveCut(part('2024-01-01', '2024-12-31', 36_600), 1_000, today, null);
    expect(prefix).toEqual({ start: '2024-01-01', end: '2024-01-10' });
    expect(rest).toEqual({ start: '2024-01-11', end: '2024-12-31' });
  });

  it('follows the density just before the cut when data trends, not when it marks where data starts', () => {
    const item = part('2024-02-01', '2024-12-31', 33_500); // 100 a day on average
    const denser = part('2024-01-01', '2024-01-31', 6_200); // 200 a day just before
    expect(carveCut(item, 2_000, today, denser).prefix.end).toBe('2024-02-10');
    const sparse = part('2024-01-01', '2024-01-31', 310); // 10 a day: the data starting
    expect(carveCut(item, 2_000, today, sparse).prefix.end).toBe('2024-02-20');
  });
});
