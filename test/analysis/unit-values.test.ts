import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitValues } from '@shared/analysis/analysis-contract';
import { amountOf, openFixture, save, simRecords, withGaps, type Fixture, type Rec } from './fixtures';

let fx: Fixture;
let id: string;
let records: Rec[];
let hs: string;

/** Quantile with linear interpolation between order statistics (DuckDB's quantile_cont). */
function quantile(sorted: number[], p: number): number {
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Gross weight in kg: the units the records carry, metric tons included; TON and blanks are not usable. */
const FACTOR: Record<string, number> = { KG: 1, LB: 0.45359237, T: 1000 };
function kgOf(r: Rec): number | null {
  const w = amountOf(r.grossWeight);
  const f = FACTOR[(r.grossWeightUnit ?? '').trim().toUpperCase()];
  return w === null || f === undefined ? null : w * f;
}

const hs6 = (r: Rec): string => (r.hsCode ?? '').replace(/[^0-9]/g, '').slice(0, 6);

beforeAll(async () => {
  fx = await openFixture();
  records = withGaps(simRecords(3000, 7));
  // The busiest HS subheading gets a shipment at a million times and one at a millionth of its usual unit value.
  const counts = new Map<string, number>();
  for (const r of records) counts.set(hs6(r), (counts.get(hs6(r)) ?? 0) + 1);
  hs = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const ofHs = records.filter((r) => hs6(r) === hs && amountOf(r.usdFob) !== null && kgOf(r) !== null);
  const uvs = ofHs.map((r) => amountOf(r.usdFob)! / kgOf(r)!).sort((a, b) => a - b);
  const median = quantile(uvs, 0.5);
  records.push(
    {
      ...ofHs[0]!,
      hashId: 'planted-high',
      importerUrlCode: 'planted-hi',
      importerName: 'Planted High Ltd',
      grossWeight: '100.000',
      grossWeightUnit: 'KG',
      usdFob: (median * 1e6 * 100).toFixed(2),
    },
    {
      ...ofHs[1]!,
      hashId: 'planted-low',
      importerUrlCode: 'planted-lo',
      importerName: 'Planted Low Ltd',
      grossWeight: '100',
      grossWeightUnit: 'T',
      usdFob: ((median / 1e6) * 100_000).toFixed(2),
    },
  );
  id = await save(fx.library, records, 'unit values');
});
afterAll(() => fx.cleanup());

describe('unit values', () => {
  let uv: UnitValues;
  beforeAll(async () => {
    uv = await fx.analysis.unitValues(id, 'importer', { limit: 20_000 });
  });

  it('is USD FOB per kg of gross weight (units converted) for every HS code, importer and origin country', () => {
    const usable = records.filter(
      (r) => (amountOf(r.usdFob) ?? 0) > 0 && (kgOf(r) ?? 0) > 0 && hs6(r) !== '',
    );
    expect(uv.shipments).toBe(records.length);
    expect(uv.shipmentsUsed).toBe(usable.length);
    const groups = new Map<string, Rec[]>();
    for (const r of usable) {
      const key = [hs6(r), r.importerUrlCode || '', r.exporterCountryCode || ''].join('|');
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    expect(uv.groups).toBe(groups.size);
    expect(uv.rows).toHaveLength(groups.size);
    for (const row of uv.rows) {
      const rs = groups.get([row.hs, row.firm ?? '', row.country ?? ''].join('|'))!;
      expect(rs, row.hs).toBeDefined();
      const fob = rs.reduce((s, r) => s + amountOf(r.usdFob)!, 0);
      const kg = rs.reduce((s, r) => s + kgOf(r)!, 0);
      expect(row.shipments).toBe(rs.length);
      expect(row.usdPerKg).toBeCloseTo(fob / kg, 3);
    }
  });

  it('flags groups outside 1.5 × IQR of the log unit values within their HS code, and puts them first', () => {
    const usable = records.filter(
      (r) => (amountOf(r.usdFob) ?? 0) > 0 && (kgOf(r) ?? 0) > 0 && hs6(r) !== '',
    );
    const byHs = new Map<string, number[]>();
    // Quartiles of the logarithms: unit values spread over orders of magnitude.
    for (const r of usable)
      byHs.set(hs6(r), [...(byHs.get(hs6(r)) ?? []), Math.log(amountOf(r.usdFob)! / kgOf(r)!)]);
    let flagged = 0;
    for (const row of uv.rows) {
      const list = byHs.get(row.hs)!.sort((a, b) => a - b);
      const q1 = quantile(list, 0.25);
      const q3 = quantile(list, 0.75);
      // Shown to 4 decimals of a dollar.
      expect(Math.abs(row.hsQ1! - Math.exp(q1))).toBeLessThanOrEqual(0.00005 + 1e-9 * Math.exp(q1));
      expect(Math.abs(row.hsQ3! - Math.exp(q3))).toBeLessThanOrEqual(0.00005 + 1e-9 * Math.exp(q3));
      const lo = Math.exp(q1 - 1.5 * (q3 - q1));
      const hi = Math.exp(q3 + 1.5 * (q3 - q1));
      const expected = list.length < 4 ? null : row.usdPerKg < lo ? 'low' : row.usdPerKg > hi ? 'high' : null;
      // Rounded unit values sit exactly on a fence only by accident; compare away from it.
      expect(row.flag, `${row.hs} ${row.firm}`).toBe(expected);
      if (expected) flagged++;
    }
    expect(uv.flagged).toBe(flagged);
    expect(uv.rows.slice(0, flagged).every((r) => r.flag !== null)).toBe(true);
    expect(uv.rows.find((r) => r.firm === 'planted-hi')).toMatchObject({
      hs,
      flag: 'high',
      highShipments: 1,
    });
    expect(uv.rows.find((r) => r.firm === 'planted-lo')).toMatchObject({ hs, flag: 'low', lowShipments: 1 });
  });

  it('drills down to the group’s rows', async () => {
    const row = uv.rows.find((r) => r.firm === 'planted-hi')!;
    const block = await fx.library.getRows(id, {
      startRow: 0,
      endRow: 100,
      filterModel: row.drill.filterModel as never,
    });
    expect(block.rows.map((r) => r.hashId)).toEqual(['planted-high']);
  });

  it('narrows to HS codes starting with given digits, and by exporter', async () => {
    const only = await fx.analysis.unitValues(id, 'importer', { hs: hs.slice(0, 4), limit: 20_000 });
    expect(only.rows.every((r) => r.hs.startsWith(hs.slice(0, 4)))).toBe(true);
    const exporters = await fx.analysis.unitValues(id, 'exporter', { limit: 20_000 });
    expect(exporters.shipmentsUsed).toBe(uv.shipmentsUsed);
    expect(exporters.rows.reduce((s, r) => s + r.shipments, 0)).toBe(uv.shipmentsUsed);
  });
});
