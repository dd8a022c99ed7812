import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Measure, Measures, SummaryResult, SummaryRow } from '@shared/analysis/analysis-contract';
import { filterModelSchema } from '@shared/library/library-contract';
import { parseCsv } from '../helpers/csv-parse';
import {
  HS_CSV,
  amountOf,
  blankToNull,
  groupBy,
  kgOf,
  measure,
  openFixture,
  save,
  simRecords,
  validMonth,
  withGaps,
  type Expected,
  type Fixture,
  type Rec,
} from './fixtures';

let fx: Fixture;
let id: string;
let records: Rec[];

beforeAll(async () => {
  fx = await openFixture();
  records = withGaps(simRecords(3000, 7));
  id = await save(fx.library, records, 'sim 3000');
});
afterAll(async () => {
  await fx.cleanup();
});

function close(actual: number | null, expected: number | null, what: string): void {
  if (expected === null) {
    expect(actual, what).toBeNull();
    return;
  }
  expect(actual, what).not.toBeNull();
  // Sums are rounded to cents (grams) by the engine; float order differs from ours.
  expect(Math.abs((actual as number) - expected), what).toBeLessThanOrEqual(
    0.006 + Math.abs(expected) * 1e-12,
  );
}

function expectMeasures(actual: Measures, expected: Expected, what: string): void {
  expect(actual.shipments, `${what} shipments`).toBe(expected.shipments);
  close(actual.usdFob, expected.usdFob, `${what} usdFob`);
  close(actual.usdCif, expected.usdCif, `${what} usdCif`);
  close(actual.grossWeightKg, expected.grossWeightKg, `${what} kg`);
  expect(actual.usdFobMissing, `${what} usdFobMissing`).toBe(expected.usdFobMissing);
  expect(actual.usdCifMissing, `${what} usdCifMissing`).toBe(expected.usdCifMissing);
  expect(actual.grossWeightMissing, `${what} kgMissing`).toBe(expected.grossWeightMissing);
}

/** Every row of the result against the hand-computed groups; shares against the hand-computed total. */
function expectGroups(
  result: SummaryResult,
  groups: Map<string | null, Rec[]>,
  keyOf: (row: SummaryRow) => string | null,
): void {
  const total = measure(records);
  expectMeasures(result.totals, total, 'totals');
  for (const row of result.rows) {
    const members = groups.get(keyOf(row));
    expect(members, `group ${String(keyOf(row))} exists`).toBeDefined();
    const e = measure(members!);
    expectMeasures(row, e, `group ${String(keyOf(row))}`);
    expect(row.shares.shipments).toBeCloseTo(e.shipments / total.shipments, 12);
    expect(row.shares.usdFob).toBeCloseTo((e.usdFob ?? 0) / total.usdFob!, 9);
  }
}

const value = (e: Expected, m: Measure): number => (m === 'shipments' ? e.shipments : (e[m] ?? -Infinity));

/** The drill-down's filter, run through the library's own grid query, selects exactly the group's records. */
async function expectDrillSelects(row: SummaryRow, members: readonly Rec[]): Promise<void> {
  expect(row.drill, `drill of ${row.label}`).not.toBeNull();
  // What the Library page will send over the bridge: the library's own filterModel schema accepts it.
  expect(filterModelSchema.safeParse(row.drill!.filterModel).success).toBe(true);
  const block = await fx.library.getRows(id, {
    startRow: 0,
    endRow: 5000,
    filterModel: row.drill!.filterModel,
  });
  const got = block.rows.map((r) => String(r.hashId)).sort();
  const want = members.map((r) => r.hashId!).sort();
  expect(block.lastRow).toBe(want.length);
  expect(got).toEqual(want);
}

describe('firm summaries', () => {
  it.each([
    ['importers', 'importer', 'usdFob'],
    ['exporters', 'exporter', 'grossWeightKg'],
    ['importers', 'importer', 'shipments'],
  ] as const)('top %s by %s match the records', async (kind, role, m) => {
    const result = await fx.analysis.summary(id, kind, { measure: m, limit: 5000 });
    const groups = groupBy(records, (r) => blankToNull(r[`${role}UrlCode`]));
    expect(result.rows.length).toBe(groups.size);
    expect(result.omittedGroups).toBe(0);
    expectGroups(result, groups, (row) => row.key);
    for (const row of result.rows) {
      const members = groups.get(row.key)!;
      expect(row.label).toBe(members[0]![`${role}Name`]);
      expect(row.detail).toBe(members[0]![`${role}CountryCode`]);
    }
    // Ordered by the measure, largest first.
    const values = result.rows.map((r) => value(measure(groups.get(r.key)!), m));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    // Shares of all groups add up to the whole.
    expect(result.rows.reduce((s, r) => s + r.shares.shipments, 0)).toBeCloseTo(1, 9);
  });

  it('a limit keeps the top groups and reports how many were left out', async () => {
    const all = groupBy(records, (r) => blankToNull(r.importerUrlCode));
    const ranked = [...all.entries()]
      .map(([k, rs]) => ({ k, fob: measure(rs).usdFob ?? -Infinity }))
      .sort((a, b) => b.fob - a.fob || String(a.k).localeCompare(String(b.k)));
    const result = await fx.analysis.summary(id, 'importers', { measure: 'usdFob', limit: 5 });
    expect(result.rows.map((r) => r.key)).toEqual(ranked.slice(0, 5).map((g) => g.k));
    expect(result.omittedGroups).toBe(all.size - 5);
    expectMeasures(result.totals, measure(records), 'totals under a limit');
  });

  it('drill-down of a firm row selects exactly its shipments', async () => {
    const result = await fx.analysis.summary(id, 'exporters', { limit: 3 });
    const groups = groupBy(records, (r) => blankToNull(r.exporterUrlCode));
    for (const row of result.rows) await expectDrillSelects(row, groups.get(row.key)!);
  });
});

describe('months, flows, ports', () => {
  it('monthly trend: every month of arrivalDate, oldest first, invalid dates apart', async () => {
    const result = await fx.analysis.summary(id, 'months', { limit: 1 });
    const groups = groupBy(records, (r) => validMonth(r.arrivalDate));
    expect(result.rows.length).toBe(groups.size);
    expectGroups(result, groups, (row) => row.key);
    const keys = result.rows.map((r) => r.key).filter((k): k is string => k !== null);
    expect(keys).toEqual([...keys].sort());
    const invalid = result.rows.find((r) => r.key === null);
    expect(invalid?.shipments).toBe(records.filter((r) => validMonth(r.arrivalDate) === null).length);
    expect(invalid?.drill).toBeNull();
    // The grid it opens is headed with the month as the table names it ("Arrivals in Mar 2024").
    const first = result.rows[0]!;
    const [year, month] = first.key!.split('-');
    const named = new Date(Date.UTC(Number(year), Number(month) - 1, 1)).toLocaleString('en-US', {
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(first.drill?.label).toBe(`Arrivals in ${named}`);
    for (const row of [
      result.rows[0]!,
      result.rows[Math.floor(result.rows.length / 2)]!,
      result.rows.at(-2)!,
    ]) {
      await expectDrillSelects(row, groups.get(row.key)!);
    }
  });

  it('country flows exporter → importer', async () => {
    const result = await fx.analysis.summary(id, 'flows', { measure: 'usdCif', limit: 5000 });
    const groups = groupBy(records, (r) => `${r.exporterCountryCode}→${r.importerCountryCode}`);
    expect(result.rows.length).toBe(groups.size);
    expectGroups(result, groups, (row) => row.key);
    const top = result.rows[0]!;
    expect(top.key).toBe(`${top.from}→${top.to}`);
    await expectDrillSelects(top, groups.get(top.key)!);
  });

  it.each([
    ['departurePorts', 'portOfDeparture'],
    ['arrivalPorts', 'portOfArrival'],
  ] as const)('%s, with blank ports as one drillable group', async (kind, field) => {
    const result = await fx.analysis.summary(id, kind, { limit: 5000 });
    const groups = groupBy(records, (r) => blankToNull(r[field]));
    expect(result.rows.length).toBe(groups.size);
    expectGroups(result, groups, (row) => row.key);
    await expectDrillSelects(result.rows[0]!, groups.get(result.rows[0]!.key)!);
    const blank = result.rows.find((r) => r.key === null);
    if (groups.has(null)) await expectDrillSelects(blank!, groups.get(null)!);
    else expect(blank).toBeUndefined();
  });
});

describe('HS breakdown', () => {
  const names = new Map(
    parseCsv(readFileSync(HS_CSV, 'utf8'))
      .slice(1)
      .map((r) => [r[1]!, r[2]!]),
  );

  it('chapter → heading → subheading sums and names match the records and the nomenclature', async () => {
    const result = await fx.analysis.summary(id, 'hs', { limit: 1 });
    expectMeasures(result.totals, measure(records), 'totals');
    for (const level of [2, 4, 6] as const) {
      const groups = groupBy(records, (r) => {
        const dg = r.hsCode!.replace(/\D/g, '');
        return dg.length >= level ? dg.slice(0, level) : null;
      });
      const rows = result.rows.filter((r) => r.level === level);
      // A null key at a deeper level exists once per parent; compare the named groups here.
      const named = rows.filter((r) => r.key !== null);
      expect(named.length).toBe([...groups.keys()].filter((k) => k !== null).length);
      for (const row of named) {
        expectMeasures(row, measure(groups.get(row.key)!), `HS ${row.key}`);
        expect(row.parent).toBe(level === 2 ? null : row.key!.slice(0, level - 2));
        const name = names.get(row.key!);
        expect(row.label).toBe(name ? `${row.key} ${name}` : row.key);
      }
      // Every level adds up to the whole.
      expect(rows.reduce((s, r) => s + r.shipments, 0)).toBe(records.length);
    }
    // The shortened codes (4 digits) show as "no 6-digit code" under their heading.
    const short = result.rows.filter((r) => r.level === 6 && r.key === null);
    expect(short.reduce((s, r) => s + r.shipments, 0)).toBe(
      records.filter((r) => r.hsCode!.length < 6).length,
    );
    // Tree order: a chapter row comes before its headings.
    const firstChapter = result.rows[0]!;
    expect(firstChapter.level).toBe(2);
    expect(result.rows[1]!.parent).toBe(firstChapter.key);
  });

  it('drill-down of a chapter and a subheading selects exactly their shipments', async () => {
    const result = await fx.analysis.summary(id, 'hs', {});
    const chapter = [...result.rows]
      .filter((r) => r.level === 2)
      .sort((a, b) => b.shipments - a.shipments)[0]!;
    const sub = result.rows.find((r) => r.level === 6 && r.key !== null && r.shipments > 1)!;
    for (const row of [chapter, sub]) {
      await expectDrillSelects(
        row,
        records.filter((r) => r.hsCode!.startsWith(row.key!)),
      );
    }
  });
});

describe('unusable values', () => {
  it('are never counted as zero: sums skip them and the missing counts say how many', async () => {
    const result = await fx.analysis.summary(id, 'importers', { limit: 1 });
    const fobMissing = records.filter((r) => amountOf(r.usdFob) === null).length;
    const kgMissing = records.filter((r) => kgOf(r) === null).length;
    expect(fobMissing).toBeGreaterThan(300);
    expect(result.totals.usdFobMissing).toBe(fobMissing);
    expect(result.totals.grossWeightMissing).toBe(kgMissing);
    // "TON" is ambiguous and left out; "LB" is converted to kg.
    const lb = records.find((r) => r.grossWeightUnit === 'LB' && amountOf(r.grossWeight) !== null)!;
    const lbOnly = await fx.analysis.summary(await save(fx.library, [lb], 'one LB'), 'importers', {});
    expect(lbOnly.totals.grossWeightKg).toBeCloseTo(Number(lb.grossWeight) * 0.45359237, 3);
    const ton = { ...lb, grossWeightUnit: 'TON', usdFob: '-', usdCif: '' };
    const tonOnly = await fx.analysis.summary(await save(fx.library, [ton], 'one TON'), 'importers', {});
    expect(tonOnly.totals).toMatchObject({
      shipments: 1,
      usdFob: null,
      usdCif: null,
      grossWeightKg: null,
      grossWeightMissing: 1,
    });
    expect(tonOnly.rows[0]!.shares.usdFob).toBe(0);
  });

  it('an empty dataset gives zero totals and no rows; a firm list is refused', async () => {
    const emptyId = await save(fx.library, [], 'empty');
    const r = await fx.analysis.summary(emptyId, 'hs', {});
    expect(r.rows).toEqual([]);
    expect(r.totals.shipments).toBe(0);
    const firms = await fx.library.saveRecords({ kind: 'firms', request: { page: 1 } }, [
      { name: 'A', firm_type: 1 },
    ]);
    await expect(fx.analysis.summary(firms.id, 'importers', {})).rejects.toMatchObject({
      kind: 'InvalidInput',
    });
    await expect(fx.analysis.summary('no-such-id', 'importers', {})).rejects.toMatchObject({
      kind: 'NotFound',
    });
  });
});
