import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FetchFinished as JobFinished, FetchProgress, JobProgress } from '@shared/jobs/jobs-contract';
import type { DatasetView, EquivalentView, RowsBlockView } from '@shared/library/library-contract';
import type { JobsList } from '@shared/jobs/jobs-contract';
import { SEARCH_HEAD_ROWS, type ShipmentSearchAnswer } from '@shared/query/query-contract';
import { generateAccount } from '../../src/main/sim';
import { useServiceHarness } from './service-harness';

type Ok<T> = { ok: true; value: T };
type Fail = { ok: false; error: { kind: string; message: string } };
type Result<T> = Ok<T> | Fail;

const RECORDS = 15_000;

async function call<T>(channel: string, input?: unknown): Promise<Result<T>> {
  return (await service.h.call(channel, input)) as Result<T>;
}
async function allRows(id: string): Promise<RowsBlockView['rows']> {
  const out: RowsBlockView['rows'] = [];
  for (let start = 0; ; start += 5000) {
    const block = await service.h.ok<RowsBlockView>('library.getRows', {
      id,
      startRow: start,
      endRow: start + 5000,
      columns: ['hashId'],
    });
    out.push(...block.rows);
    if (block.rows.length < 5000) return out;
  }
}

const account = generateAccount('acme');

const service = useServiceHarness({ account, records: RECORDS, seed: 11 });

describe('search results go to the library', () => {
  it('saves every shipment search as a dataset holding exactly the returned records', async () => {
    const request = { size: 50, importer_countries: ['DE', 'US'] };
    const r = await service.h.ok<ShipmentSearchAnswer>('shipments.search', { request });
    // The records stay in main: the answer carries the counts and the first block, never the whole.
    expect(r).not.toHaveProperty('shipments');
    expect(r.unsaved).toBeUndefined();
    expect(r.returned).toBe(Math.min(50, r.total));
    expect(r.datasetId).toEqual(expect.any(String));
    const meta = await service.h.ok<DatasetView>('library.get', { id: r.datasetId });
    expect(meta).toMatchObject({
      kind: 'shipments',
      storedRows: r.returned,
      reportedTotal: r.total,
      profileId: service.profileId,
      account: account.name,
    });
    expect(meta.status).toBe(r.returned >= r.total ? 'complete' : 'partial');
    const rows = await allRows(meta.id);
    expect(rows).toHaveLength(r.returned);
    expect(rows.map((x) => x.hashId)).toEqual(r.head.map((x) => x.hashId));
    // The first block that came with the answer is the block the grid reads from the library, field for field.
    const block = await service.h.ok<RowsBlockView>('library.getRows', {
      id: meta.id,
      startRow: 0,
      endRow: 200,
    });
    expect(r.head).toEqual(block.rows);
    const listed = await service.h.ok<DatasetView[]>('library.list', { kind: 'shipments' });
    expect(listed.map((d) => d.id)).toContain(meta.id);
  });

  it('hands the first 200 rows of a big answer with it, and reads the rest in blocks once stored', async () => {
    const r = await service.h.ok<ShipmentSearchAnswer>('shipments.search', { request: { size: 1000 } });
    expect(r.returned).toBe(1000);
    expect(r.head).toHaveLength(SEARCH_HEAD_ROWS);
    expect(r.head.map((x) => x._row)).toEqual([...Array(SEARCH_HEAD_ROWS).keys()]);
    const deep = await service.h.ok<RowsBlockView>('library.getRows', {
      id: r.datasetId,
      startRow: 800,
      endRow: 1000,
      sortModel: [{ colId: 'usdFob', sort: 'desc' }],
    });
    expect(deep.lastRow).toBe(1000);
    expect(deep.rows).toHaveLength(200);
  });

  it('hands the first rows with the fields the grid shows only, when it names them, as the library reads them', async () => {
    const headColumns = ['arrivalDate', 'importerName', 'usdFob', 'quantity'];
    const r = await service.h.ok<ShipmentSearchAnswer>('shipments.search', {
      request: { size: 300, exporter_countries: ['CN'] },
      headColumns,
    });
    expect(r.headColumns).toEqual(headColumns);
    expect(r.head).toHaveLength(SEARCH_HEAD_ROWS);
    // The same values as a block of those columns read from the library, and not one field more.
    const block = await service.h.ok<RowsBlockView>('library.getRows', {
      id: r.datasetId,
      startRow: 0,
      endRow: SEARCH_HEAD_ROWS,
      columns: headColumns,
    });
    expect(r.head).toEqual(block.rows);
    expect(Object.keys(r.head[0]!).sort()).toEqual(['_row', ...headColumns].sort());
    // Only fields of a shipment record can be asked for.
    const refused = await call('shipments.search', { request: { size: 10 }, headColumns: ['apiSecret'] });
    expect(refused.ok).toBe(false);
  });

  it('keeps repeated searches of one query as versions of one dataset, each page of a firm search apart', async () => {
    const ids: string[] = [];
    // The same question three times (lists in another order, another size): one series, three versions.
    for (const request of [
      { size: 10, hs_codes: ['72', '73'], exporter_countries: ['TR'] },
      { size: 20, hs_codes: ['73', '72'], exporter_countries: ['TR'] },
      { size: 10, exporter_countries: ['TR'], hs_codes: ['72', '73'] },
    ]) {
      const r = await service.h.ok<{ datasetId: string }>('shipments.search', { request });
      ids.push(r.datasetId);
    }
    const other = await service.h.ok<{ datasetId: string }>('shipments.search', {
      request: { size: 10, hs_codes: ['72'], exporter_countries: ['TR'] },
    });
    const metas = await Promise.all(ids.map((id) => service.h.ok<DatasetView>('library.get', { id })));
    expect(new Set(metas.map((m) => m.series)).size).toBe(1);
    expect(metas[0]!.query).toBe('Shipments · TR→ · HS 72, 73');
    const versions = await service.h.ok<DatasetView[]>('library.versions', { id: ids[1] });
    expect(versions.map((v) => v.id)).toEqual([...ids].reverse());
    const alone = await service.h.ok<DatasetView[]>('library.versions', { id: other.datasetId });
    expect(alone.map((v) => v.id)).toEqual([other.datasetId]);
    expect(alone[0]!.series).not.toBe(metas[0]!.series);

    // Two pages of one firm search are different records: two series, not versions of one.
    const page1 = await service.h.ok<{ datasetId: string }>('firms.search', {
      request: { page: 1, search_type: 'importer', importer_countries: ['DE'] },
    });
    const page2 = await service.h.ok<{ datasetId: string }>('firms.search', {
      request: { page: 2, search_type: 'importer', importer_countries: ['DE'] },
    });
    const [p1, p2] = await Promise.all(
      [page1, page2].map((p) => service.h.ok<DatasetView>('library.get', { id: p.datasetId })),
    );
    expect(p1!.series).not.toBe(p2!.series);
    expect(p2!.query).toMatch(/ · page 2$/);
    expect(await call('library.versions', { id: 'no-such-dataset' })).toMatchObject({
      ok: false,
      error: { kind: 'NotFound' },
    });
  });

  it('a new version keeps the name, tags and notes the analyst gave the dataset it versions', async () => {
    const request = { size: 10, hs_codes: ['7208'], exporter_countries: ['DE'] };
    const first = await service.h.ok<{ datasetId: string }>('shipments.search', { request });
    const made = await service.h.ok<DatasetView>('library.get', { id: first.datasetId });
    expect(made.name).toBe('Shipments · DE→ · HS 7208');
    await service.h.ok('library.rename', { id: first.datasetId, name: 'German flat steel' });
    await service.h.ok('library.setTags', { id: first.datasetId, tags: ['flat-rolled', 'q3 review'] });
    await service.h.ok('library.setNotes', { id: first.datasetId, notes: 'Baseline for the Q3 memo.' });

    // The same question again (another size, lists in another order): a new version, with what the analyst gave.
    const again = await service.h.ok<{ datasetId: string }>('shipments.search', {
      request: { size: 20, exporter_countries: ['DE'], hs_codes: ['7208'] },
    });
    expect(again.datasetId).not.toBe(first.datasetId);
    const v2 = await service.h.ok<DatasetView>('library.get', { id: again.datasetId });
    expect(v2).toMatchObject({
      name: 'German flat steel',
      tags: ['flat-rolled', 'q3 review'],
      notes: 'Baseline for the Q3 memo.',
    });
    expect(v2.series).toBe(made.series);
    // The earlier version keeps its own (the edits of one version stay with it).
    await service.h.ok('library.setNotes', { id: again.datasetId, notes: 'Refetched for the final memo.' });
    expect((await service.h.ok<DatasetView>('library.get', { id: first.datasetId })).notes).toBe(
      'Baseline for the Q3 memo.',
    );
    // A third version takes the newest version's notes.
    const third = await service.h.ok<{ datasetId: string }>('shipments.search', { request });
    expect(await service.h.ok<DatasetView>('library.get', { id: third.datasetId })).toMatchObject({
      name: 'German flat steel',
      notes: 'Refetched for the final memo.',
    });

    // Another question is another dataset: it inherits nothing.
    const other = await service.h.ok<{ datasetId: string }>('shipments.search', {
      request: { size: 10, hs_codes: ['7209'], exporter_countries: ['DE'] },
    });
    expect(await service.h.ok<DatasetView>('library.get', { id: other.datasetId })).toMatchObject({
      name: 'Shipments · DE→ · HS 7209',
      tags: [],
      notes: '',
    });

    // A fetch-all job of the same question is a version too, and keeps them.
    const started = await service.h.ok<{ jobId: string }>('jobs.start', { kind: 'shipments', request });
    const done = await service.h.jobFinished<JobFinished>(started.jobId);
    expect(done.outcome).toBe('succeeded');
    const jobDataset = await service.h.ok<DatasetView>('library.get', { id: done.datasetId });
    expect(jobDataset).toMatchObject({ name: 'German flat steel', tags: ['flat-rolled', 'q3 review'] });
    expect(jobDataset.series).toBe(made.series);
  });

  it('offers the saved copy for the same question, and not for another account or a bigger size', async () => {
    const first = await service.h.ok<{ datasetId: string; total: number }>('shipments.search', {
      request: { size: 20, hs_codes: ['84', '85'] },
    });
    expect(first.total).toBeGreaterThan(20);
    // The same question with the lists in another order and a smaller size: the saved copy answers it.
    const same = await service.h.ok<EquivalentView | null>('library.findEquivalent', {
      request: { size: 10, hs_codes: ['85', '84'] },
    });
    expect(same?.dataset.id).toBe(first.datasetId);
    expect(same?.ageSeconds).toBeGreaterThanOrEqual(0);
    const bigger = await service.h.ok<EquivalentView | null>('library.findEquivalent', {
      request: { size: 5000, hs_codes: ['84', '85'] },
    });
    expect(bigger).toBeNull();
    const other = await service.h.ok<EquivalentView | null>('library.findEquivalent', {
      request: { size: 10, hs_codes: ['84', '85'], account_name: 'someone-else' },
    });
    expect(other).toBeNull();
  });

  it('saves one firm page as partial when there are more pages, so it never passes for the whole search', async () => {
    const r = await service.h.ok<{ total_pages: number; firms: unknown[]; datasetId: string }>(
      'firms.search',
      {
        request: { page: 1, importer_countries: ['DE'] },
      },
    );
    const meta = await service.h.ok<DatasetView>('library.get', { id: r.datasetId });
    expect(meta.storedRows).toBe(r.firms.length);
    expect(meta.status).toBe(r.total_pages > 1 ? 'partial' : 'complete');
    const offer = await service.h.ok<EquivalentView | null>('library.findEquivalent', {
      kind: 'firms',
      request: { page: 1, importer_countries: ['DE'] },
    });
    if (r.total_pages > 1) expect(offer).toBeNull();
    else expect(offer?.dataset.id).toBe(meta.id);
  });
});

describe('fetch jobs', () => {
  it('estimates, then fetches past the 10,000 cap with progress events, into a dataset equal to the simulator data', async () => {
    const estimate = await service.h.ok<{
      total: number;
      estimatedRequests: number;
      estimatedDownloads: number;
      enough: boolean;
    }>('jobs.estimate', {
      kind: 'shipments',
      request: { size: 1000 },
    });
    expect(estimate.total).toBe(RECORDS);
    expect(estimate.estimatedRequests).toBeGreaterThanOrEqual(2);
    expect(estimate.estimatedDownloads).toBeGreaterThanOrEqual(RECORDS);

    const { jobId } = await service.h.ok<{ jobId: string }>('jobs.start', {
      kind: 'shipments',
      request: { size: 1000 },
      name: 'Everything',
    });
    const finished = await service.h.jobFinished<JobFinished>(jobId);
    expect(finished.outcome).toBe('succeeded');
    const progress = service.h.events
      .filter((e) => e.event === 'jobs.progress' && (e.payload as JobProgress).jobId === jobId)
      .map((e) => e.payload as JobProgress);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({
      done: RECORDS,
      total: RECORDS,
      unit: 'records',
      kind: 'shipments',
    });

    const meta = await service.h.ok<DatasetView>('library.get', { id: finished.datasetId });
    expect(meta).toMatchObject({ name: 'Everything', storedRows: RECORDS, status: 'complete' });
    // The simulator's own data, read directly rather than through its query engine or HTTP.
    const expected = new Set<string>();
    for (const rec of service.sim.dataset.records()) expected.add(rec.hashId);
    const got = (await allRows(meta.id)).map((r) => String(r.hashId));
    expect(got.length).toBe(expected.size);
    expect(new Set(got)).toEqual(expected);

    const jobs = await service.h.ok<JobsList>('jobs.list');
    expect(jobs.running.map((j) => j.id)).not.toContain(jobId);
    expect(jobs.resumable.map((j) => j.id)).not.toContain(jobId);
  }, 60_000);

  it('a cancelled job leaves no dataset and nothing to resume', async () => {
    const before = (await service.h.ok<DatasetView[]>('library.list')).map((d) => d.id);
    service.sim.setFaults({ latencyMs: 300 });
    try {
      const { jobId } = await service.h.ok<{ jobId: string }>('jobs.start', {
        kind: 'shipments',
        request: { importer_countries: ['DE'] },
      });
      const listed = await service.h.ok<JobsList>('jobs.list');
      expect(listed.running.map((j) => j.id)).toContain(jobId);
      await service.h.ok('jobs.cancel', { jobId });
      const finished = await service.h.jobFinished<JobFinished>(jobId);
      expect(finished.outcome).toBe('cancelled');
      expect(finished.datasetId ?? null).toBeNull();
      const after = (await service.h.ok<DatasetView[]>('library.list')).map((d) => d.id);
      expect(after).toEqual(before);
      const jobs = await service.h.ok<JobsList>('jobs.list');
      expect([...jobs.running, ...jobs.resumable].map((j) => j.id)).not.toContain(jobId);
    } finally {
      service.sim.setFaults(undefined);
    }
  }, 30_000);

  it('a job says its size as it starts, before its first request: the plan from a search’s total, a probe’s, a firm page count', async () => {
    const progressOf = (jobId: string) =>
      service.h.events
        .filter((e) => e.event === 'jobs.progress' && (e.payload as JobProgress).jobId === jobId)
        .map((e) => e.payload as FetchProgress);
    const startSlow = async (kind: 'shipments' | 'firms', request: object, knownTotal?: number) => {
      await service.h.ok('jobs.estimate', {
        kind,
        request,
        ...(knownTotal !== undefined ? { knownTotal } : {}),
      });
      const { jobId } = await service.h.ok<{ jobId: string }>('jobs.start', { kind, request });
      // Listed with what is known, not as "Starting…" with no size.
      const listed = (await service.h.ok<JobsList>('jobs.list')).running.find((j) => j.id === jobId);
      const first = progressOf(jobId)[0];
      await service.h.ok('jobs.cancel', { jobId });
      await service.h.jobFinished<JobFinished>(jobId);
      return { listed, first };
    };
    service.sim.setFaults({ latencyMs: 2_000 });
    try {
      // From the total the search reported: no request is made before the job's own, and none answered yet.
      const planned = await startSlow('shipments', { importer_countries: ['US'] }, 4_321);
      expect(planned.first).toMatchObject({ done: 0, total: 4_321, unit: 'records', requestsUsed: 0 });
      expect(planned.listed).toMatchObject({
        total: 4_321,
        done: 0,
        label: expect.not.stringMatching(/Starting/),
      });
      // From the estimate's probe (one request, already answered).
      const probed = await startSlow('shipments', { exporter_countries: ['DE'] });
      expect(probed.first).toMatchObject({ done: 0, total: expect.any(Number), requestsUsed: 1 });
      expect(probed.listed?.total).toBe(probed.first?.total);
      // A firm search's page count, from the search the analyst ran.
      const firms = await startSlow('firms', { importer_firm: 'Trading' }, 7);
      expect(firms.first).toMatchObject({ done: 0, total: 7, unit: 'pages', requestsUsed: 0 });
      expect(firms.listed).toMatchObject({ total: 7, unit: 'pages' });
    } finally {
      service.sim.setFaults(undefined);
    }
  }, 60_000);
});

describe('library calls', () => {
  it('refuses a bad import with a clear message and leaves the library unchanged', async () => {
    const before = await service.h.ok<DatasetView[]>('library.list');
    const chosen = await service.h.handlers.hostFiles.receiveImport(
      'broken.json',
      Buffer.from('[{"hashId": "x", "arrivalDate": '),
    );
    const r = await call('library.import', { file: chosen.handle });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('InvalidInput');
      expect(r.error.message).toMatch(/broken\.json/);
      expect(r.error.message).toMatch(/not changed/);
    }
    expect(await service.h.ok<DatasetView[]>('library.list')).toEqual(before);
  });

  it('imports a good file uploaded to the browser host, named by its handle, and removes the upload', async () => {
    const source = (await service.h.ok<DatasetView[]>('library.list', { kind: 'shipments' }))[0]!;
    const rows = await service.h.ok<RowsBlockView>('library.getRows', {
      id: source.id,
      startRow: 0,
      endRow: 5,
    });
    const records = rows.rows.map(({ _row, ...rest }) => rest);
    const chosen = await service.h.handlers.hostFiles.receiveImport(
      'five.json',
      Buffer.from(JSON.stringify(records)),
    );
    expect(chosen).toMatchObject({ name: 'five.json', size: expect.any(Number) });
    const r = await service.h.ok<{ dataset: DatasetView; rows: number }>('library.import', {
      file: chosen.handle,
    });
    expect(r.rows).toBe(5);
    expect(r.dataset).toMatchObject({ source: 'import', storedRows: 5, kind: 'shipments' });
    // One choice, one import: the handle is used up and the uploaded copy is gone.
    expect(await readdir(join(service.h.dataDir, 'imports'))).toEqual([]);
    const again = await call('library.import', { file: chosen.handle });
    expect(!again.ok && again.error.kind).toBe('NotFound');
  });

  it('refuses grid queries naming unknown columns, before any SQL', async () => {
    const id = (await service.h.ok<DatasetView[]>('library.list'))[0]!.id;
    const badSort = await call('library.getRows', {
      id,
      startRow: 0,
      endRow: 10,
      sortModel: [{ colId: 'hashId"; DROP TABLE datasets; --', sort: 'asc' }],
    });
    expect(!badSort.ok && badSort.error.kind).toBe('InvalidInput');
    const badFilter = await call('library.getRows', {
      id,
      startRow: 0,
      endRow: 10,
      filterModel: { 'no such field': { filterType: 'text', type: 'contains', filter: 'a' } },
    });
    expect(!badFilter.ok && badFilter.error.kind).toBe('InvalidInput');
    const badColumns = await call('library.getRows', { id, startRow: 0, endRow: 10, columns: ['_extra'] });
    expect(!badColumns.ok && badColumns.error.kind).toBe('InvalidInput');
    const tooBig = await call('library.getRows', { id, startRow: 0, endRow: 50_000 });
    expect(!tooBig.ok && tooBig.error.kind).toBe('InvalidInput');
    // A valid sort, filter and quick filter on the same dataset works.
    const good = await service.h.ok<RowsBlockView>('library.getRows', {
      id,
      startRow: 0,
      endRow: 10,
      sortModel: [{ colId: 'arrivalDate', sort: 'desc' }],
      filterModel: { importerCountryCode: { filterType: 'text', type: 'equals', filter: 'DE' } },
    });
    for (const r of good.rows) expect(r.importerCountryCode).toBe('DE');
    const dates = good.rows.map((r) => String(r.arrivalDate));
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('renames, tags, annotates and deletes', async () => {
    const id = (await service.h.ok<DatasetView[]>('library.list'))[0]!.id;
    expect((await service.h.ok<DatasetView>('library.rename', { id, name: '  Q1 steel  ' })).name).toBe(
      'Q1 steel',
    );
    expect((await call('library.rename', { id, name: 'x'.repeat(201) })).ok).toBe(false);
    expect((await service.h.ok<DatasetView>('library.setTags', { id, tags: ['steel', 'q1'] })).tags).toEqual([
      'steel',
      'q1',
    ]);
    expect((await service.h.ok<DatasetView>('library.setNotes', { id, notes: 'for the board' })).notes).toBe(
      'for the board',
    );
    expect((await service.h.ok<DatasetView[]>('library.list', { tag: 'steel' })).map((d) => d.id)).toEqual([
      id,
    ]);
    expect(
      (await service.h.ok<DatasetView[]>('library.list', { search: 'q1 ste' })).map((d) => d.id),
    ).toEqual([id]);
    await service.h.ok('library.delete', { id });
    const gone = await call('library.get', { id });
    expect(!gone.ok && gone.error.kind).toBe('NotFound');
  });

  it('still lists and reads datasets with the service down', async () => {
    await service.sim.close();
    const list = await service.h.ok<DatasetView[]>('library.list');
    expect(list.length).toBeGreaterThan(0);
    const block = await service.h.ok<RowsBlockView>('library.getRows', {
      id: list[0]!.id,
      startRow: 0,
      endRow: 3,
      quickFilter: '',
    });
    expect(block.rows.length).toBeGreaterThan(0);
    const search = await call('shipments.search', { request: { size: 10 } });
    expect(!search.ok && search.error.kind).toBe('NetworkError');
  });
});
