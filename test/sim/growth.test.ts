import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShipmentRecord } from '@shared/spec';
import type { RunningSimulator } from '../../src/main/sim';
import { parseCli } from '../../src/main/sim/cli-options';
import { PATHS, documentedOrder, ok, start } from './helpers';

interface Search {
  total: number;
  shipments: ShipmentRecord[];
}

/** Records of the data set published on or before `asOf` with an arrival date in [from, to], computed without the engine. */
function published(sim: RunningSimulator, asOf: string, from: string, to = '9999-12-31'): ShipmentRecord[] {
  const out: ShipmentRecord[] = [];
  for (let i = 0; i < sim.dataset.size; i++) {
    if (sim.dataset.publishedOn(i) > asOf) continue;
    const r = sim.dataset.record(i);
    if (r.arrivalDate >= from && r.arrivalDate <= to) out.push(r);
  }
  return out.sort(documentedOrder);
}

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start({ asOf: '2025-09-01' });
});
afterAll(() => sim.close());

describe('a simulator that grows', () => {
  it('shows only the records published by its day, and adds the later ones as it moves on', async () => {
    const request = { start_date: '2025-06-01', size: 10_000 };
    const first = await ok<Search>(sim, PATHS.shipmentSearch, request);
    const expected1 = published(sim, '2025-09-01', '2025-06-01');
    expect(first.total).toBe(expected1.length);
    expect(first.shipments.map((r) => r.hashId)).toEqual(expected1.map((r) => r.hashId));
    // Published the day of createdAt, 1 to 20 days after arrival: nothing arrived on or after asOf.
    for (const r of first.shipments) {
      expect(r.arrivalDate < '2025-09-01').toBe(true);
      const created = new Date(Number(r.createdAt) * 1000).toISOString().slice(0, 10);
      expect(created <= '2025-09-01').toBe(true);
    }

    expect(sim.advance(14)).toBe('2025-09-15');
    expect(sim.asOf()).toBe('2025-09-15');
    const second = await ok<Search>(sim, PATHS.shipmentSearch, request);
    const expected2 = published(sim, '2025-09-15', '2025-06-01');
    expect(second.total).toBe(expected2.length);
    expect(second.shipments.map((r) => r.hashId)).toEqual(expected2.map((r) => r.hashId));
    // Nothing goes away; records are added, some of them late (older than the newest shown before).
    const before = new Set(first.shipments.map((r) => r.hashId));
    const added = second.shipments.filter((r) => !before.has(r.hashId));
    expect(second.shipments.filter((r) => before.has(r.hashId))).toHaveLength(first.shipments.length);
    expect(added.length).toBeGreaterThan(0);
    const newestBefore = first.shipments[0]!.arrivalDate;
    expect(added.some((r) => r.arrivalDate <= newestBefore)).toBe(true);
    expect(added.some((r) => r.arrivalDate > newestBefore)).toBe(true);
  });

  it('counts firms and shipments over the published records alone', async () => {
    sim.setAsOf('2025-03-01');
    const search = await ok<Search>(sim, PATHS.shipmentSearch, { start_date: '2025-01-01', size: 10 });
    expect(search.total).toBe(published(sim, '2025-03-01', '2025-01-01').length);
    const firms = await ok<{ total_shipment: number }>(sim, PATHS.firmSearch, {
      start_date: '2025-01-01',
      page: 1,
    });
    expect(firms.total_shipment).toBe(search.total);
  });

  it('refuses a day that is not a date, and a move backwards in days', () => {
    expect(() => sim.setAsOf('2025-02-30')).toThrow(/calendar date/);
    expect(() => sim.advance(-1)).toThrow(/whole number/);
  });
});

describe('growth on the command line', () => {
  it('reads --as-of and --grow', () => {
    const { options } = parseCli(['--as-of', '2025-01-01', '--grow', '7:60']);
    expect(options.asOf).toBe('2025-01-01');
    expect(options.grow).toEqual({ days: 7, everySeconds: 60 });
  });

  it('refuses --grow without --as-of and a malformed value', () => {
    expect(() => parseCli(['--grow', '7:60'])).toThrow(/--as-of/);
    expect(() => parseCli(['--as-of', '2025-01-01', '--grow', '7'])).toThrow(/DAYS:SECONDS/);
    expect(() => parseCli(['--as-of', '2025-13-01'])).toThrow(/yyyy-MM-dd/);
  });
});
