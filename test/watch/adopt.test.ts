import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whyNotWatchable } from '@shared/watch/watch-contract';
import { LOST_COLUMN, SNAPSHOT_COLUMN, type RecordObject } from '../../src/main/library';
import { createWatchService, type WatchService } from '../../src/main/watch';
import { openSimAndLibrary, type SimAndLibrary } from '../jobs/helpers';
import { heldRows } from './held-rows';
import { charged, published } from './service-truth';

let env: SimAndLibrary;
let watch: WatchService;
beforeAll(async () => {
  env = await openSimAndLibrary({ asOf: '2025-06-01', records: 4_000 });
  watch = createWatchService(env.lib);
});
afterAll(() => env.close());

const ctx = () => ({ source: env.s.client, profileId: 'p1', profileName: 'Main', account: null });

const rows = (datasetId: string) => heldRows(env.lib, datasetId);

/** A search run and saved as the Search page saves it, with the profile it ran with. */
async function searched(request: { start_date: string; size: number }, name: string) {
  const res = await env.s.client.shipmentSearch(request);
  return env.lib.saveShipmentSearch(request, res, {
    name,
    profileId: 'p1',
    profileName: 'Main',
    account: null,
  });
}

describe('watching a dataset of the library', () => {
  it('takes its rows as the first snapshot without downloading, then refreshes only what is new', async () => {
    const from = '2025-04-01';
    const held = published(env.s, from);
    expect(held.size).toBeGreaterThan(20);
    expect(held.size).toBeLessThan(10_000);
    const d = await searched({ start_date: from, size: 10_000 }, 'Since April');
    expect(d.status).toBe('complete');

    const before = await charged(env.s);
    const w = await watch.adopt(d.id);
    expect(await charged(env.s)).toBe(before);
    expect(w.datasetId).toBe(d.id);
    expect(w.name).toBe('Since April');
    expect(w.request).toEqual({ start_date: from });
    expect(w.profileId).toBe('p1');
    const newest = [...held.values()].reduce((m, r) => (r.arrivalDate > m ? r.arrivalDate : m), '');
    expect(w.snapshots).toEqual([
      expect.objectContaining({
        no: 1,
        status: 'complete',
        records: held.size,
        added: held.size,
        lost: 0,
        downloads: 0,
        requests: 0,
        newestDate: newest,
        incomplete: [],
      }),
    ]);
    const rs1 = await rows(d.id);
    expect(new Set(rs1.map((r) => r.hashId))).toEqual(new Set(held.keys()));
    expect(rs1.every((r) => r.snapshot === '1' && r.lost === null)).toBe(true);
    expect((await env.lib.get(d.id)).extraColumns).toEqual([SNAPSHOT_COLUMN, LOST_COLUMN]);
    expect((await watch.list()).map((x) => x.id)).toContain(w.id);

    env.s.sim.advance(21);
    const now = published(env.s, from);
    const newOnes = [...now.keys()].filter((h) => !held.has(h));
    expect(newOnes.length).toBeGreaterThan(0);
    const start = await charged(env.s);
    const preview = await watch.preview({ watchId: w.id }, ctx());
    expect(preview.first).toBe(false);
    expect(preview.since).toBe(newest);
    expect(await charged(env.s)).toBe(start + preview.checkDownloads);
    const out = await watch.refresh(preview.previewId, ctx());
    expect((await charged(env.s)) - start).toBe(preview.checkDownloads + preview.downloads);
    expect(out.fetchDownloads).toBe(preview.downloads);
    const rs2 = await rows(d.id);
    // Exactly the records the service holds now, each once (the overlap de-duplicated by hashId).
    expect(rs2).toHaveLength(now.size);
    expect(new Set(rs2.map((r) => r.hashId))).toEqual(new Set(now.keys()));
    expect(new Set(rs2.filter((r) => r.snapshot === '2').map((r) => r.hashId))).toEqual(new Set(newOnes));
    expect(out.snapshot).toMatchObject({ no: 2, records: now.size, added: newOnes.length, lost: 0 });
  });

  it('takes a sample that holds only part of what matched as an incomplete first snapshot, completed by the refresh', async () => {
    const from = '2025-02-01';
    const d = await searched({ start_date: from, size: 10 }, 'A sample');
    expect(d.status).toBe('partial');
    const w = await watch.adopt(d.id, 'Since February');
    expect(w.name).toBe('Since February');
    expect((await env.lib.get(d.id)).name).toBe('Since February');
    expect(w.snapshots[0]).toMatchObject({
      no: 1,
      status: 'partial',
      records: 10,
      incomplete: [`from ${from}`],
    });

    const expected = published(env.s, from);
    const start = await charged(env.s);
    const preview = await watch.preview({ watchId: w.id }, ctx());
    expect(preview.windows).toEqual([
      expect.objectContaining({ label: `from ${from}`, total: expected.size, held: 10 }),
    ]);
    const out = await watch.refresh(preview.previewId, ctx());
    expect((await charged(env.s)) - start).toBe(preview.checkDownloads + preview.downloads);
    const rs = await rows(d.id);
    expect(rs).toHaveLength(expected.size);
    expect(new Set(rs.map((r) => r.hashId))).toEqual(new Set(expected.keys()));
    expect(out.snapshot).toMatchObject({ no: 2, status: 'complete', added: expected.size - 10 });
  });

  it('refuses, in words, an imported file, a firm search and a dataset watched already', async () => {
    const rec = (await env.s.client.shipmentSearch({ start_date: '2025-01-01', size: 10 })).shipments;
    const imported = await env.lib.saveRecords(
      { kind: 'shipments', request: {}, name: 'From a file', source: 'import' },
      rec as unknown as RecordObject[],
    );
    await expect(watch.adopt(imported.id)).rejects.toThrow(/imported from a file/);
    const firms = await env.lib.saveRecords({ kind: 'firms', request: { search_type: 'importer' } }, []);
    await expect(watch.adopt(firms.id)).rejects.toThrow(/Only shipment datasets/);

    const d = await searched({ start_date: '2025-05-01', size: 10 }, 'Twice');
    const w = await watch.adopt(d.id);
    await expect(watch.adopt(d.id)).rejects.toThrow(/watched already, as "Twice"/);
    expect((await watch.detail(w.id)).snapshots).toHaveLength(1);
    await expect(watch.adopt('no-such-dataset')).rejects.toThrow(/not in the library/);
  });

  it('says why a dataset cannot be watched before anything is asked', () => {
    expect(whyNotWatchable({ kind: 'shipments', source: 'fetch', request: { size: 10 } })).toBeNull();
    expect(whyNotWatchable({ kind: 'shipments', source: 'import', request: {} })).toMatch(/imported/);
    expect(whyNotWatchable({ kind: 'firms', source: 'fetch', request: {} })).toMatch(/firm search/);
    expect(
      whyNotWatchable({ kind: 'shipments', source: 'fetch', request: { start_date: '2025-13-01' } }),
    ).toMatch(/not one the service takes/);
  });
});
