import { beforeAll, describe, expect, it } from 'vitest';
import type { RowsBlockView } from '@shared/library/library-contract';
import type { ShipmentRecord } from '@shared/spec/records';
import type {
  RefreshOutcome,
  RefreshPreview,
  SnapshotChanges,
  WatchSummary,
} from '@shared/watch/watch-contract';
import { generateAccount } from '../../src/main/sim';
import { useServiceHarness } from './service-harness';
import { snapshotWarnings } from '../../src/main/watch';

const REQUEST = { start_date: '2025-03-01', importer_countries: ['DE', 'TR', 'US', 'CN', 'GB'] };
const account = generateAccount('acme');

const service = useServiceHarness({
  account,
  records: 20_000,
  seed: 5,
  asOf: '2025-06-01',
  profile: { active: true },
});

/** The query's records as the service holds them on its day, from the data itself. */
function published(): ShipmentRecord[] {
  const asOf = service.sim.asOf()!;
  const out: ShipmentRecord[] = [];
  for (let i = 0; i < service.sim.dataset.size; i++) {
    if (service.sim.dataset.publishedOn(i) > asOf) continue;
    const r = service.sim.dataset.record(i);
    if (r.arrivalDate >= REQUEST.start_date && REQUEST.importer_countries.includes(r.importerCountryCode))
      out.push(r);
  }
  return out;
}

async function snapshot(target: object): Promise<RefreshOutcome> {
  const p = await service.h.ok<RefreshPreview>('watch.preview', target);
  return service.h.ok<RefreshOutcome>('watch.refresh', { previewId: p.previewId });
}

async function rowsOf(drill: { datasetId: string; filterModel: unknown }): Promise<string[]> {
  const block = await service.h.ok<RowsBlockView>('library.getRows', {
    id: drill.datasetId,
    startRow: 0,
    endRow: 5000,
    filterModel: drill.filterModel,
    columns: ['hashId'],
  });
  return block.rows.map((r) => String(r.hashId)).sort();
}

describe('what changed between two snapshots of a watched query', () => {
  let watchId = '';
  let before: ShipmentRecord[] = [];
  let after: ShipmentRecord[] = [];

  beforeAll(async () => {
    before = published();
    const first = await snapshot({ request: REQUEST, name: 'Five importers' });
    watchId = first.watch.id;
    service.sim.advance(21);
    after = published();
    await snapshot({ watchId });
  }, 60_000);

  it('lists the watch and announces its dataset to the library', async () => {
    const list = await service.h.ok<WatchSummary[]>('watch.list');
    expect(list).toEqual([expect.objectContaining({ id: watchId, snapshots: 2, records: after.length })]);
    expect(service.h.events.some((e) => e.event === 'library.changed')).toBe(true);
    expect(service.h.events.some((e) => e.event === 'usage.changed')).toBe(true);
  });

  it('counts new firms, shipments, value and weight by importer exactly as the records say', async () => {
    const c = await service.h.ok<SnapshotChanges>('watch.changes', {
      id: watchId,
      from: 1,
      to: 2,
      by: 'importers',
      limit: 20_000,
    });
    const held = new Set(before.map((r) => r.hashId));
    const added = after.filter((r) => !held.has(r.hashId));
    expect(c.totals).toMatchObject({
      shipmentsBefore: before.length,
      shipmentsAfter: after.length,
      added: added.length,
      lost: 0,
    });
    const sum = (rs: ShipmentRecord[]) =>
      Math.round(rs.reduce((s, r) => s + Number(r.usdFob), 0) * 100) / 100;
    expect(c.totals.usdFobAfter! - c.totals.usdFobBefore!).toBeCloseTo(sum(added), 1);
    const kg = (rs: ShipmentRecord[]) => rs.reduce((s, r) => s + Number(r.grossWeight), 0);
    expect(c.totals.kgAfter! - c.totals.kgBefore!).toBeCloseTo(kg(added), 1);

    const importersBefore = new Set(before.map((r) => r.importerUrlCode));
    const newImporters = new Set(added.map((r) => r.importerUrlCode).filter((u) => !importersBefore.has(u)));
    expect(c.counts.new).toBe(newImporters.size);
    expect(c.counts.lost).toBe(0);
    expect(new Set(c.rows.filter((r) => r.status === 'new').map((r) => r.key))).toEqual(newImporters);
    for (const row of c.rows.slice(0, 20)) {
      const mine = added.filter((r) => r.importerUrlCode === row.key);
      expect(row.added).toBe(mine.length);
      expect(row.shipmentsAfter - row.shipmentsBefore).toBe(mine.length);
    }
    expect(c.warnings).toEqual([]);
  });

  it('drills down to exactly the rows that arrived, for a firm and for the whole query', async () => {
    const c = await service.h.ok<SnapshotChanges>('watch.changes', {
      id: watchId,
      from: 1,
      to: 2,
      by: 'importers',
    });
    const held = new Set(before.map((r) => r.hashId));
    const added = after.filter((r) => !held.has(r.hashId));
    const top = c.rows.find((r) => r.added > 0)!;
    expect(await rowsOf(top.drillAdded!)).toEqual(
      added
        .filter((r) => r.importerUrlCode === top.key)
        .map((r) => r.hashId)
        .sort(),
    );
    expect(await rowsOf(c.drillAdded!)).toEqual(added.map((r) => r.hashId).sort());
  });

  it('groups by HS code and by country, and by resolved firm', async () => {
    const held = new Set(before.map((r) => r.hashId));
    const added = after.filter((r) => !held.has(r.hashId));
    const hs = await service.h.ok<SnapshotChanges>('watch.changes', {
      id: watchId,
      from: 1,
      to: 2,
      by: 'hs',
      limit: 20_000,
    });
    const perHs = new Map<string, number>();
    for (const r of added) perHs.set(r.hsCode.slice(0, 6), (perHs.get(r.hsCode.slice(0, 6)) ?? 0) + 1);
    for (const row of hs.rows) expect(row.added).toBe(perHs.get(row.key) ?? 0);
    const countries = await service.h.ok<SnapshotChanges>('watch.changes', {
      id: watchId,
      from: 1,
      to: 2,
      by: 'exporterCountries',
      limit: 20_000,
    });
    const perCountry = new Map<string, number>();
    for (const r of added)
      perCountry.set(r.exporterCountryCode, (perCountry.get(r.exporterCountryCode) ?? 0) + 1);
    for (const row of countries.rows) expect(row.added).toBe(perCountry.get(row.key) ?? 0);
    const resolved = await service.h.ok<SnapshotChanges>('watch.changes', {
      id: watchId,
      from: 1,
      to: 2,
      by: 'importers',
      firms: 'resolved',
      limit: 20_000,
    });
    expect(resolved.totals.added).toBe(added.length);
    // Spellings of one firm are one row: never more rows than parties.
    const asWritten = await service.h.ok<SnapshotChanges>('watch.changes', {
      id: watchId,
      from: 1,
      to: 2,
      by: 'importers',
      limit: 20_000,
    });
    expect(resolved.counts.groups).toBeLessThanOrEqual(asWritten.counts.groups);
  });

  it('refuses a later snapshot first and a snapshot that does not exist, in the analyst’s words', async () => {
    const back = await service.h.call('watch.changes', { id: watchId, from: 2, to: 1, by: 'hs' });
    expect(back).toMatchObject({
      ok: false,
      error: { kind: 'InvalidInput', message: expect.stringMatching(/earlier snapshot/) },
    });
    const missing = await service.h.call('watch.changes', { id: watchId, from: 1, to: 7, by: 'hs' });
    expect(missing).toMatchObject({
      ok: false,
      error: { kind: 'NotFound', message: expect.stringMatching(/no snapshot 7/) },
    });
  });
});

describe('warnings on incomplete snapshots', () => {
  it('names each incomplete snapshot and the dates it misses', () => {
    expect(
      snapshotWarnings(
        { no: 1, status: 'complete', incomplete: [] },
        { no: 2, status: 'partial', incomplete: ['2025-03-01 – 2025-03-04'] },
      ),
    ).toEqual([
      expect.stringMatching(/^Snapshot 2 is incomplete: 2025-03-01 – 2025-03-04 could not be fetched whole/),
    ]);
    expect(snapshotWarnings({ no: 1, status: 'complete', incomplete: [] })).toEqual([]);
  });
});
