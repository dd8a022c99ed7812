import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  diffInputSchema,
  firmProfileInputSchema,
  summaryInputSchema,
  type Drill,
} from '@shared/analysis/analysis-contract';
import { SimData } from '../../src/main/sim/dataset';
import { loadHsSubheadings } from '../../src/main/sim/hs-codes';
import { HS_CSV, measure, openFixture, save, withGaps, type Fixture, type Rec } from './fixtures';

/**
 * Analysis by resolved firm: top firms, the firm profile, snapshot diffs and drill-downs count every
 * spelling of a firm as one, checked against the simulator's truth of which parties are one firm.
 */
let fx: Fixture;
let sim: SimData;
let all: Rec[];
let id: string;

beforeAll(async () => {
  fx = await openFixture();
  sim = new SimData({ records: 3000, seed: 14, hsSubheadings: loadHsSubheadings(HS_CSV) });
  all = withGaps([...sim.records()].map((r) => ({ ...r }) as Rec));
  id = await save(fx.library, all, 'sim 3000');
});
afterAll(async () => {
  await fx.cleanup();
});

/** The simulator's firm of a record's party. */
const truthOf = (r: Rec, role: 'importer' | 'exporter'): number =>
  sim.firmByUrlCode(r[`${role}UrlCode`]!)!.firmId;

async function rowsOf(drill: Drill): Promise<Rec[]> {
  const block = await fx.library.getRows(drill.datasetId, {
    startRow: 0,
    endRow: 5000,
    filterModel: drill.filterModel as never,
  });
  return block.rows as unknown as Rec[];
}

describe('analysis by resolved firm', () => {
  it('counts every spelling of an importer as one firm, and drills into all of its rows', async () => {
    const asWritten = await fx.analysis.summary(id, 'importers', { limit: 20_000 });
    const resolved = await fx.analysis.summary(id, 'importers', { limit: 20_000, firms: 'resolved' });
    expect(resolved.firms).toBe('resolved');
    expect(resolved.rows.length).toBeLessThan(asWritten.rows.length);
    expect(resolved.totals).toEqual(asWritten.totals);

    const top = resolved.rows[0]!;
    expect(top.spellings).toBeGreaterThan(1);
    const rows = await rowsOf(top.drill!);
    expect(rows).toHaveLength(top.shipments);
    // Every row of the drill is the same firm in the simulator's truth, and that is all its rows.
    const firm = truthOf(rows[0]!, 'importer');
    expect(new Set(rows.map((r) => truthOf(r, 'importer')))).toEqual(new Set([firm]));
    expect(all.filter((r) => truthOf(r, 'importer') === firm)).toHaveLength(top.shipments);
    expect(new Set(rows.map((r) => r.importerName)).size).toBe(top.spellings);
    expect(top.usdFob).toBeCloseTo(measure(rows).usdFob!, 2);
    // Named after the spelling most of its rows carry.
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.importerName!, (counts.get(r.importerName!) ?? 0) + 1);
    expect(counts.get(top.label)).toBe(Math.max(...counts.values()));
  });

  it('profiles a resolved firm with all its spellings, partners resolved too', async () => {
    const top = (await fx.analysis.summary(id, 'exporters', { limit: 1, firms: 'resolved' })).rows[0]!;
    const p = await fx.analysis.firmProfile(id, { firmId: top.key! }, { limit: 1000 });
    expect(p.firmId).toBe(top.key);
    expect(p.spellings.length).toBeGreaterThan(1);
    expect(p.name).toBe(p.spellings[0]);
    expect(p.asExporter.shipments).toBe(top.shipments);
    const firm = sim.firmByUrlCode(
      all.find((r) => r.exporterName === p.spellings[0])!.exporterUrlCode!,
    )!.firmId;
    const mine = all.filter((r) => truthOf(r, 'importer') === firm || truthOf(r, 'exporter') === firm);
    // All of its rows in either role, in one drill.
    expect((await rowsOf(p.drillAll!)).length).toBe(mine.length);
    // Partners are firms too: a partner's shipments are the rows with any of its spellings.
    const partner = p.partners.find((x) => x.detail === 'importer')!;
    const withPartner = await rowsOf(partner.drill!);
    expect(withPartner).toHaveLength(partner.shipments);
    expect(new Set(withPartner.map((r) => truthOf(r, 'importer'))).size).toBe(1);
    // HS and month drills stay within the firm's rows.
    const month = p.monthly.find((m) => m.drill !== null)!;
    expect(await rowsOf(month.drill!)).toHaveLength(month.shipments);
  });

  it('compares snapshots by firm: a firm written another way in the later snapshot is kept, not new and lost', async () => {
    // Importers in China known by name alone (no tax id or contact details to tell them apart).
    const as = (r: Rec, importerName: string, importerUrlCode: string): Rec => ({
      ...r,
      importerName,
      importerUrlCode,
      importerCountryCode: 'CN',
      importerCountry: 'China',
      importerTaxId: '',
      importerTel: '',
      importerEmail: '',
      importerWeb: '',
    });
    const base = [as(all[0]!, 'Acme Co Ltd', 'A1'), as(all[1]!, 'Apex Trading', 'P1')];
    const compare = [as(all[2]!, 'ACME COMPANY LIMITED', 'A2'), as(all[3]!, 'ACME CO., LTD.', 'A3')];
    const baseId = await save(fx.library, base, 'before');
    const compareId = await save(fx.library, compare, 'after');
    const written = await fx.analysis.diff(baseId, compareId, 'importer', {});
    expect(written.counts).toEqual({ new: 2, lost: 2, kept: 0 });
    const resolved = await fx.analysis.diff(baseId, compareId, 'importer', { firms: 'resolved' });
    expect(resolved.counts).toEqual({ new: 0, lost: 1, kept: 1 });
    const acme = resolved.rows.find((r) => r.status === 'kept')!;
    expect(acme).toMatchObject({ shipmentsBefore: 1, shipmentsAfter: 2, urlCode: '' });
    expect(acme.firmId).not.toBeNull();
    expect(resolved.rows.find((r) => r.status === 'lost')!.name).toBe('Apex Trading');
  });

  it('follows the analyst: a merge shows at once in the firm summaries', async () => {
    const before = await fx.analysis.summary(id, 'importers', { limit: 20_000, firms: 'resolved' });
    const [a, b] = before.rows.filter((r) => r.key !== null);
    await fx.library.firms.merge([a!.key!, b!.key!]);
    const after = await fx.analysis.summary(id, 'importers', { limit: 20_000, firms: 'resolved' });
    expect(after.rows.length).toBe(before.rows.length - 1);
    expect(after.rows[0]!.shipments).toBe(a!.shipments + b!.shipments);
    expect(await rowsOf(after.rows[0]!.drill!)).toHaveLength(a!.shipments + b!.shipments);
    for (const d of await fx.library.firms.decisions()) await fx.library.firms.undo(d.id);
  });

  it('refuses a firm filter on a field that is not a firm, and a firm field with another filter', async () => {
    await expect(
      fx.library.getRows(id, {
        startRow: 0,
        endRow: 10,
        filterModel: { importerName: { filterType: 'firm', firmId: 'x' } } as never,
      }),
    ).rejects.toThrow(/does not take that filter/);
    await expect(
      fx.library.getRows(id, {
        startRow: 0,
        endRow: 10,
        filterModel: { anyFirm: { filterType: 'text', type: 'equals', filter: 'x' } } as never,
      }),
    ).rejects.toThrow(/does not take that filter/);
    const none = await fx.library.getRows(id, {
      startRow: 0,
      endRow: 10,
      filterModel: { anyFirm: { filterType: 'firm', firmId: 'no-such-firm' } } as never,
    });
    expect(none.lastRow).toBe(0);
  });

  it('takes a firm by its firm code or by its resolved firm at the bridge, one of the two; firms as written by default', () => {
    expect(firmProfileInputSchema.safeParse({ datasetId: 'd', urlCode: 'A1' }).success).toBe(true);
    expect(firmProfileInputSchema.safeParse({ datasetId: 'd', firmId: 'f' }).success).toBe(true);
    expect(firmProfileInputSchema.safeParse({ datasetId: 'd', urlCode: 'A1', firmId: 'f' }).success).toBe(
      false,
    );
    expect(firmProfileInputSchema.safeParse({ datasetId: 'd' }).success).toBe(false);
    expect(summaryInputSchema.parse({ datasetId: 'd', kind: 'importers' }).firms).toBe('asWritten');
    expect(diffInputSchema.parse({ baseId: 'a', compareId: 'b', role: 'importer' }).firms).toBe('asWritten');
    expect(summaryInputSchema.safeParse({ datasetId: 'd', kind: 'importers', firms: 'merged' }).success).toBe(
      false,
    );
  });
});
