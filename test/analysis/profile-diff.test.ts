import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amountOf,
  blankToNull,
  groupBy,
  measure,
  openFixture,
  save,
  simRecords,
  validMonth,
  withGaps,
  type Fixture,
  type Rec,
} from './fixtures';

let fx: Fixture;
let all: Rec[];
let id: string;

beforeAll(async () => {
  fx = await openFixture();
  all = withGaps(simRecords(3000, 11));
  id = await save(fx.library, all, 'sim 3000');
});
afterAll(async () => {
  await fx.cleanup();
});

async function hashIdsIn(datasetId: string, filterModel: Record<string, unknown>): Promise<string[]> {
  const block = await fx.library.getRows(datasetId, {
    startRow: 0,
    endRow: 5000,
    filterModel: filterModel as never,
  });
  return block.rows.map((r) => String(r.hashId)).sort();
}
const hashes = (rs: readonly Rec[]) => rs.map((r) => r.hashId!).sort();

describe('firm profile', () => {
  it('of the busiest importer: totals, span, partners, HS mix and months match its records', async () => {
    const byImporter = groupBy(all, (r) => r.importerUrlCode!);
    const [code, rows] = [...byImporter.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    const asExporter = all.filter((r) => r.exporterUrlCode === code);
    const mine = all.filter((r) => r.importerUrlCode === code || r.exporterUrlCode === code);
    const p = await fx.analysis.firmProfile(id, code!, { limit: 1000 });

    expect(p.name).toBe(rows[0]!.importerName);
    expect(p.countryCode).toBe(rows[0]!.importerCountryCode);
    expect(p.asImporter.shipments).toBe(rows.length);
    expect(p.asImporter.usdFobMissing).toBe(measure(rows).usdFobMissing);
    expect(p.asImporter.usdFob).toBeCloseTo(measure(rows).usdFob!, 2);
    expect(p.asExporter.shipments).toBe(asExporter.length);

    const dates = mine
      .map((r) => r.arrivalDate!)
      .filter((d) => validMonth(d) !== null)
      .sort();
    expect(p.firstShipment).toBe(dates[0]);
    expect(p.lastShipment).toBe(dates.at(-1));

    const suppliers = groupBy(rows, (r) => blankToNull(r.exporterUrlCode));
    const bought = p.partners.filter((x) => x.detail === 'exporter');
    expect(bought.length).toBe(suppliers.size);
    for (const partner of bought) {
      const members = suppliers.get(partner.key)!;
      expect(partner.shipments).toBe(members.length);
      expect(partner.label).toBe(members[0]!.exporterName);
    }
    // Partners are ordered by shipments, largest first.
    const counts = p.partners.map((x) => x.shipments);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // A partner row drills to exactly the shipments between the two firms.
    const top = bought[0]!;
    expect(await hashIdsIn(id, top.drill!.filterModel)).toEqual(hashes(suppliers.get(top.key)!));

    const headings = groupBy(mine, (r) => (r.hsCode!.length >= 4 ? r.hsCode!.slice(0, 4) : null));
    expect(p.hsMix.length).toBe(headings.size);
    for (const h of p.hsMix) expect(h.shipments).toBe(headings.get(h.key)!.length);
    expect(p.hsMix.reduce((s, h) => s + h.shares.shipments, 0)).toBeCloseTo(1, 9);

    const months = groupBy(mine, (r) => validMonth(r.arrivalDate));
    expect(p.monthly.map((m) => m.key)).toEqual(
      [...months.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b))),
    );
    for (const m of p.monthly) {
      expect(m.shipments).toBe(months.get(m.key)!.length);
      const fob = months
        .get(m.key)!
        .map((r) => amountOf(r.usdFob))
        .filter((v): v is number => v !== null);
      expect(m.usdFob ?? 0).toBeCloseTo(
        fob.reduce((s, v) => s + v, 0),
        2,
      );
    }

    expect(await hashIdsIn(id, p.drillAsImporter!.filterModel)).toEqual(hashes(rows));
    if (asExporter.length)
      expect(await hashIdsIn(id, p.drillAsExporter!.filterModel)).toEqual(hashes(asExporter));
    else expect(p.drillAsExporter).toBeNull();
  });

  it('HS and month rows drill to the firm’s shipments of that heading / month when it has one role', async () => {
    // Every simulated firm trades both ways; drop one firm's export side to get an importer-only firm.
    const code = [...groupBy(all, (r) => r.importerUrlCode!).entries()].sort(
      (a, b) => b[1].length - a[1].length,
    )[0]![0]!;
    const records = all.filter((r) => r.exporterUrlCode !== code);
    const rows = records.filter((r) => r.importerUrlCode === code);
    const oneRoleId = await save(fx.library, records, 'importer only');
    const p = await fx.analysis.firmProfile(oneRoleId, code, {});
    expect(p.drillAsExporter).toBeNull();
    const hashIdsOf = (fm: Record<string, unknown>) => hashIdsIn(oneRoleId, fm);
    const h = p.hsMix.find((x) => x.key !== null)!;
    expect(await hashIdsOf(h.drill!.filterModel)).toEqual(
      hashes(rows.filter((r) => r.hsCode!.startsWith(h.key!))),
    );
    const m = p.monthly.find((x) => x.key !== null)!;
    expect(await hashIdsOf(m.drill!.filterModel)).toEqual(
      hashes(rows.filter((r) => validMonth(r.arrivalDate) === m.key)),
    );
  });

  it('an unknown firm is NotFound', async () => {
    await expect(fx.analysis.firmProfile(id, 'no-such-firm', {})).rejects.toMatchObject({ kind: 'NotFound' });
  });
});

describe('snapshot diff', () => {
  it('new, lost and kept importers with shipment and USD FOB changes', async () => {
    // Two overlapping "snapshots" of the same stream: rows 0..1999 and 1000..2999.
    // Some importers only before (lost), some only after (new).
    const codes0 = [...new Set(all.map((r) => r.importerUrlCode!))].sort();
    const onlyAfter = new Set(codes0.slice(0, 8));
    const onlyBefore = new Set(codes0.slice(8, 14));
    const before = all.slice(0, 2000).filter((r) => !onlyAfter.has(r.importerUrlCode!));
    const after = all.slice(1000).filter((r) => !onlyBefore.has(r.importerUrlCode!));
    const baseId = await save(fx.library, before, 'before');
    const compareId = await save(fx.library, after, 'after');
    const diff = await fx.analysis.diff(baseId, compareId, 'importer', {});

    const a = groupBy(before, (r) => blankToNull(r.importerUrlCode));
    const b = groupBy(after, (r) => blankToNull(r.importerUrlCode));
    const codes = new Set([...a.keys(), ...b.keys()]);
    const expected = { new: 0, lost: 0, kept: 0 };
    for (const c of codes) expected[!a.has(c) ? 'new' : !b.has(c) ? 'lost' : 'kept']++;
    expect(diff.counts).toEqual(expected);
    expect(expected.new + expected.lost).toBeGreaterThan(0);
    expect(diff.rows.length).toBe(codes.size);
    expect(diff.omitted).toBe(0);
    // Two whole answers to the same query: nothing to warn about.
    expect(diff.warnings).toEqual([]);

    for (const row of diff.rows) {
      const was = a.get(row.urlCode) ?? [];
      const now = b.get(row.urlCode) ?? [];
      expect(row.status).toBe(was.length === 0 ? 'new' : now.length === 0 ? 'lost' : 'kept');
      expect(row.shipmentsBefore).toBe(was.length);
      expect(row.shipmentsAfter).toBe(now.length);
      expect(row.shipmentsChange).toBe(now.length - was.length);
      const fb = measure(was).usdFob;
      const fa = measure(now).usdFob;
      if (fb === null) expect(row.usdFobBefore).toBeNull();
      else expect(row.usdFobBefore).toBeCloseTo(fb, 2);
      if (fa === null) expect(row.usdFobAfter).toBeNull();
      else expect(row.usdFobAfter).toBeCloseTo(fa, 2);
    }
    // New first, then lost, then kept.
    const order = diff.rows.map((r) => r.status);
    expect(order).toEqual(
      [...order].sort((x, y) => ['new', 'lost', 'kept'].indexOf(x) - ['new', 'lost', 'kept'].indexOf(y)),
    );

    const limited = await fx.analysis.diff(baseId, compareId, 'exporter', { limit: 3 });
    expect(limited.rows.length).toBe(3);
    expect(limited.omitted).toBe(limited.counts.new + limited.counts.lost + limited.counts.kept - 3);
  });

  it('warns when the two datasets answer different queries, or one holds only a sample', async () => {
    const steel = await fx.library.saveRecords(
      { kind: 'shipments', request: { hs_codes: ['72'], size: 1000 }, name: 'Steel', reportedTotal: 1000 },
      all.slice(0, 1000),
    );
    const machines = await fx.library.saveRecords(
      { kind: 'shipments', request: { hs_codes: ['84'], size: 1000 }, name: 'Machines', reportedTotal: 1000 },
      all.slice(1000, 2000),
    );
    const different = await fx.analysis.diff(steel.id, machines.id, 'importer', {});
    expect(different.warnings).toEqual([
      '“Steel” and “Machines” answer different queries: firms new or lost between them may reflect the filters, not a change in trade.',
    ]);

    // The same query twice, once cut at 1,000 of the 10,000 records that matched.
    const sample = await fx.library.saveRecords(
      {
        kind: 'shipments',
        request: { hs_codes: ['72'], size: 1000 },
        name: 'Steel (first 1,000)',
        reportedTotal: 10_000,
      },
      all.slice(0, 1000),
    );
    const truncated = await fx.analysis.diff(sample.id, steel.id, 'importer', {});
    expect(truncated.warnings).toEqual([
      '“Steel (first 1,000)” holds 1,000 of the 10,000 records that matched its query: firms outside that sample show as new or lost.',
    ]);
  });
});
