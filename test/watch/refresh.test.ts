import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShipmentFilter } from '@shared/spec/filter';
import { LOST_COLUMN, SNAPSHOT_COLUMN } from '../../src/main/library';
import { createWatchService, fetchRest, probeWindow, type WatchService } from '../../src/main/watch';
import { openSimAndLibrary, type SimAndLibrary } from '../jobs/helpers';
import { heldRows, type HeldRow } from './held-rows';
import { charged, published } from './service-truth';

const QUERY: ShipmentFilter = { start_date: '2025-01-01' };

let env: SimAndLibrary;
let watch: WatchService;
beforeAll(async () => {
  env = await openSimAndLibrary({ asOf: '2025-06-01' });
  watch = createWatchService(env.lib);
});
afterAll(() => env.close());

const ctx = () => ({ source: env.s.client, profileId: 'p1', profileName: 'Main', account: null });

/** The records the service holds for the query as of its day. */
const publishedNow = () => published(env.s, QUERY.start_date!);

const rows = (datasetId: string) => heldRows(env.lib, datasetId);

const present = (rs: HeldRow[]): Set<string> =>
  new Set(rs.filter((r) => r.lost === null).map((r) => r.hashId));

describe('a watched query refreshed twice against a service that grows', () => {
  let watchId = '';
  let datasetId = '';

  it('takes the first snapshot of the whole query at the cost it previewed', async () => {
    const before = await charged(env.s);
    const preview = await watch.preview({ request: QUERY, name: 'All from 2025' }, ctx());
    expect(preview.first).toBe(true);
    expect(preview.windows).toHaveLength(1);
    const expected = publishedNow();
    expect(preview.windows[0]!.total).toBe(expected.size);
    expect(await charged(env.s)).toBe(before + preview.checkDownloads);
    expect(preview.checkDownloads).toBe(10);
    expect(preview.exact).toBe(true);

    const out = await watch.refresh(preview.previewId, ctx());
    expect(await charged(env.s)).toBe(before + preview.checkDownloads + preview.downloads);
    expect(out.fetchDownloads).toBe(preview.downloads);
    watchId = out.watch.id;
    datasetId = out.watch.datasetId;
    const rs = await rows(datasetId);
    expect(present(rs)).toEqual(new Set(expected.keys()));
    expect(rs.every((r) => r.snapshot === '1')).toBe(true);
    expect(out.snapshot).toMatchObject({
      no: 1,
      status: 'complete',
      records: expected.size,
      added: expected.size,
    });
    expect(out.snapshot.downloads).toBe(preview.checkDownloads + preview.downloads);
    const meta = await env.lib.get(datasetId);
    expect(meta.extraColumns).toEqual([SNAPSHOT_COLUMN, LOST_COLUMN]);
    expect(meta.storedRows).toBe(expected.size);
  });

  for (const [no, days] of [
    [2, 14],
    [3, 10],
  ] as const) {
    it(`refresh ${no - 1}: fetches only the new dates and the overlap, costs what it previewed, stores exactly the new records`, async () => {
      const held = present(await rows(datasetId));
      const newest = [...publishedNow().values()]
        .filter((r) => held.has(r.hashId))
        .reduce((m, r) => (r.arrivalDate > m ? r.arrivalDate : m), '');
      env.s.sim.advance(days);
      const expected = publishedNow();
      const newOnes = [...expected.keys()].filter((h) => !held.has(h));
      expect(newOnes.length).toBeGreaterThan(0);

      const before = await charged(env.s);
      const preview = await watch.preview({ watchId }, ctx());
      expect(preview.first).toBe(false);
      expect(preview.since).toBe(newest);
      // One window: from 30 days before the newest record held.
      const from = new Date(Date.parse(`${newest}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);
      expect(preview.windows.map((w) => w.label)).toEqual([`from ${from}`]);
      const inWindow = [...expected.values()].filter((r) => r.arrivalDate >= from);
      const overlap = inWindow.filter((r) => held.has(r.hashId)).length;
      expect(preview.windows[0]).toMatchObject({ total: inWindow.length, held: overlap });
      expect(await charged(env.s)).toBe(before + preview.checkDownloads);

      const out = await watch.refresh(preview.previewId, ctx());
      const spent = (await charged(env.s)) - before;
      expect(out.fetchDownloads).toBe(preview.downloads);
      expect(spent).toBe(preview.checkDownloads + preview.downloads);
      // At most the new records plus the overlap, and the cost check's records of the day it stopped on.
      expect(spent).toBeLessThanOrEqual(newOnes.length + overlap + 10);
      expect(spent).toBeGreaterThanOrEqual(newOnes.length + overlap);

      const rs = await rows(datasetId);
      expect(present(rs)).toEqual(new Set(expected.keys()));
      expect(rs).toHaveLength(expected.size);
      expect(new Set(rs.filter((r) => r.snapshot === String(no)).map((r) => r.hashId))).toEqual(
        new Set(newOnes),
      );
      expect(out.snapshot).toMatchObject({
        no,
        status: 'complete',
        records: expected.size,
        added: newOnes.length,
        lost: 0,
        downloads: spent,
      });
      // Late arrivals (dated before the newest record already held) came too.
      expect(newOnes.some((h) => expected.get(h)!.arrivalDate <= newest)).toBe(true);
    });
  }

  it('marks records the service no longer returns as lost, and found again when they come back', async () => {
    const asOf = env.s.sim.asOf()!;
    const held = present(await rows(datasetId));
    env.s.sim.setAsOf(new Date(Date.parse(`${asOf}T00:00:00Z`) - 5 * 86_400_000).toISOString().slice(0, 10));
    const expected = publishedNow();
    const gone = [...held].filter((h) => !expected.has(h));
    expect(gone.length).toBeGreaterThan(0);
    const out = await watch.refresh((await watch.preview({ watchId }, ctx())).previewId, ctx());
    expect(out.snapshot).toMatchObject({ no: 4, added: 0, lost: gone.length, records: expected.size });
    const rs = await rows(datasetId);
    expect(new Set(rs.filter((r) => r.lost === '4').map((r) => r.hashId))).toEqual(new Set(gone));

    env.s.sim.setAsOf(asOf);
    const back = await watch.refresh((await watch.preview({ watchId }, ctx())).previewId, ctx());
    expect(back.snapshot).toMatchObject({ no: 5, added: 0, lost: 0, records: held.size });
    expect(present(await rows(datasetId))).toEqual(held);
  });

  it('lists the snapshots with date, size and completeness, newest last', async () => {
    const d = await watch.detail(watchId);
    expect(d.snapshots.map((s) => s.no)).toEqual([1, 2, 3, 4, 5]);
    for (const s of d.snapshots) {
      expect(s.status).toBe('complete');
      expect(Date.parse(s.takenAt)).not.toBeNaN();
      expect(s.records).toBeGreaterThan(0);
    }
    const list = await watch.list();
    expect(list).toEqual([expect.objectContaining({ id: watchId, snapshots: 5, name: 'All from 2025' })]);
  });

  it('refuses a preview used twice or with another profile', async () => {
    const p = await watch.preview({ watchId }, ctx());
    await expect(watch.refresh(p.previewId, { ...ctx(), profileId: 'other' })).rejects.toThrow(
      /another connection/,
    );
    await watch.refresh(p.previewId, ctx());
    await expect(watch.refresh(p.previewId, ctx())).rejects.toThrow(/check the cost again/);
    await expect(watch.preview({ watchId }, { ...ctx(), profileId: 'other' })).rejects.toThrow(
      /another connection/,
    );
  });
});

describe('fetching a window bigger than one search', () => {
  it('narrows by date, newest first, each search sized to what is left, and gets every record once', async () => {
    const client = env.s.client;
    const probe = await probeWindow(QUERY, { start: '2025-01-01', end: '2025-04-30' }, client);
    const f = await fetchRest(QUERY, probe, client, { cap: 300 });
    const expected = [...publishedNow().values()].filter((r) => r.arrivalDate <= '2025-04-30');
    expect(probe.total).toBe(expected.length);
    expect(new Set(f.records.map((r) => r.hashId))).toEqual(new Set(expected.map((r) => r.hashId)));
    expect(f.records).toHaveLength(expected.length);
    expect(f.incomplete).toBeNull();
    expect(f.requests).toBeGreaterThanOrEqual(Math.ceil((expected.length - 10) / 300));
  });

  it('reports a single day holding more than a search returns as not fetched whole', async () => {
    const client = env.s.client;
    const probe = await probeWindow(QUERY, { start: '2025-03-01', end: '2025-03-10' }, client);
    const f = await fetchRest(QUERY, probe, client, { cap: 10 });
    expect(f.incomplete).not.toBeNull();
    expect(f.incomplete!.start).toBe('2025-03-01');
  });
});
