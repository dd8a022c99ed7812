import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExportStarted } from '@shared/export/export-contract';
import type { BridgeResult } from '@shared/ipc/errors';
import {
  KEPT_ANSWERS_LIMIT,
  type DatasetView,
  type RowsBlockView,
  type SaveFailed,
} from '@shared/library/library-contract';
import type { ShipmentSearchAnswer, UsageReading } from '@shared/query/query-contract';
import type { ShipmentRecord } from '@shared/spec';
import { useServiceHarness } from './service-harness';
import { canFreezeLibrary, freezeLibrary, thawLibrary } from '../helpers/frozen-library';

/**
 * A shipment search whose answer the library cannot store: the library's folder and files are made
 * unwritable under the running app (see frozen-library.ts), so DuckDB's own commit really fails. The
 * answer was paid for: main keeps it, says so, and stores it under the same id once the cause is gone.
 */
const account = { name: 'main', apiKey: 'ak_test_keep_7a31', apiSecret: 'secret-keep-52e9' };

let frozen = false;

const freeze = () => {
  freezeLibrary(service.h.dataDir);
  frozen = true;
};
const thaw = () => {
  if (frozen) thawLibrary(service.h.dataDir);
  frozen = false;
};
const used = async () =>
  (await service.h.ok<UsageReading>('usage.get', { profileId: service.profileId })).usage.main?.[
    'shipments/search'
  ]?.current ?? 0;
const search = (size: number) =>
  service.h.ok<ShipmentSearchAnswer>('shipments.search', { profileId: service.profileId, request: { size } });
const failures = () =>
  service.h.events.filter((e) => e.event === 'library.saveFailed').map((e) => e.payload as SaveFailed);
const failureOf = async (datasetId: string): Promise<SaveFailed> => {
  await expect
    .poll(() => failures().find((f) => f.datasetId === datasetId), { timeout: 10_000 })
    .toBeTruthy();
  return failures().find((f) => f.datasetId === datasetId)!;
};
const errorOf = (r: unknown) => (r as Extract<BridgeResult<unknown>, { ok: false }>).error;

const service = useServiceHarness({
  account,
  records: 800,
  seed: 11,
  profile: { name: 'Keep', accountName: null },
});

beforeAll(async () => {
  // The library opened and written once, as in a session before the trouble starts (and the browser
  // host's exports folder made, as an earlier export would have).
  await service.h.ok('library.get', { id: (await search(10)).datasetId });
  await mkdir(join(service.h.dataDir, 'exports'), { recursive: true });
});
afterEach(() => thaw());
afterAll(async () => {
  thaw();
});

describe.skipIf(!canFreezeLibrary)('a search whose answer the library cannot store', () => {
  it('is kept in main, announced with its reason, saved again once the cause is gone, and listed', async () => {
    freeze();
    const answer = await search(300);
    const id = answer.datasetId!;
    expect(answer.returned).toBe(300);
    expect(answer.head.length).toBe(200);

    const failed = await failureOf(id);
    expect(failed.records).toBe(300);
    expect(failed.reason).toMatch(/^Portolan may not write to its data folder/);
    // The grid's reads say why, in words.
    const read = await service.h.call('library.getRows', { id, startRow: 0, endRow: 100 });
    expect(errorOf(read).message).toContain('could not be saved to the library. Portolan may not write');

    // The records are all kept, in the answer's order.
    const kept = await service.h.ok<ShipmentRecord[]>('library.keptRecords', { id });
    expect(kept.length).toBe(300);
    expect(kept.slice(0, 200).map((r) => r.hashId)).toEqual(answer.head.map((r) => r.hashId));

    // Exported from memory while the library cannot store it: every record, as answered.
    const started = await service.h.ok<ExportStarted>('export.start', {
      source: { datasetId: id },
      format: 'csv',
    });
    const finished = await service.h.jobFinished(started.jobId, 10_000);
    expect(finished.outcome).toBe('succeeded');
    const csv = await readFile(started.path, 'utf8');
    expect(csv.trim().split(/\r?\n/)).toHaveLength(301);
    expect(csv).toContain(kept[299]!.hashId);

    // Still frozen: Save again says it failed, and the answer stays kept.
    const usedBefore = await used();
    const still = await service.h.call('library.saveAgain', { id });
    expect(errorOf(still).message).toMatch(
      /^It still could not be saved, and it is still kept\. Portolan may/,
    );
    expect((await service.h.ok<ShipmentRecord[]>('library.keptRecords', { id })).length).toBe(300);

    thaw();
    const saved = await service.h.ok<DatasetView>('library.saveAgain', { id });
    expect(saved).toMatchObject({ id, storedRows: 300, reportedTotal: answer.total, kind: 'shipments' });
    // Nothing was asked of the service again.
    expect(await used()).toBe(usedBefore);
    expect(service.h.events).toContainEqual({
      event: 'library.changed',
      payload: { change: 'saved', datasetId: id },
    });
    expect((await service.h.ok<DatasetView[]>('library.list')).map((d) => d.id)).toContain(id);
    const rows = await service.h.ok<RowsBlockView>('library.getRows', { id, startRow: 0, endRow: 300 });
    expect(rows.lastRow).toBe(300);
    expect(rows.rows.map((r) => r.hashId)).toEqual(kept.map((r) => r.hashId));

    // Stored, it is no longer kept; a second press answers with the stored dataset, not a second copy.
    expect(errorOf(await service.h.call('library.keptRecords', { id })).kind).toBe('NotFound');
    expect(await service.h.ok<DatasetView>('library.saveAgain', { id })).toMatchObject({
      id,
      storedRows: 300,
    });
    expect((await service.h.ok<DatasetView[]>('library.list')).filter((d) => d.id === id)).toHaveLength(1);
  });

  it(`keeps only the newest ${KEPT_ANSWERS_LIMIT} answers whose save failed`, async () => {
    freeze();
    const ids: string[] = [];
    for (const size of [50, 60, 70]) {
      const id = (await search(size)).datasetId!;
      await failureOf(id);
      ids.push(id);
    }
    const [oldest, ...newest] = ids;
    const gone = await service.h.call('library.keptRecords', { id: oldest });
    expect(errorOf(gone)).toMatchObject({ kind: 'NotFound', message: expect.stringMatching(/Search again/) });
    expect(errorOf(await service.h.call('library.saveAgain', { id: oldest })).kind).toBe('NotFound');
    expect(
      await Promise.all(
        newest.map(
          async (id) => (await service.h.ok<ShipmentRecord[]>('library.keptRecords', { id })).length,
        ),
      ),
    ).toEqual([60, 70]);

    thaw();
    for (const id of newest)
      expect((await service.h.ok<DatasetView>('library.saveAgain', { id })).id).toBe(id);
    const listed = (await service.h.ok<DatasetView[]>('library.list')).map((d) => d.id);
    expect(listed).toEqual(expect.arrayContaining(newest));
    expect(listed).not.toContain(oldest);
  });

  it('refuses an answer it never kept in the analyst’s words', async () => {
    const r = await service.h.call('library.saveAgain', { id: 'no-such-answer' });
    expect(errorOf(r)).toMatchObject({
      kind: 'NotFound',
      message: expect.stringMatching(/^This answer is no longer kept/),
    });
  });
});
