import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FetchFinished as JobFinished } from '@shared/jobs/jobs-contract';
import type { DatasetView, ImportResultView } from '@shared/library/library-contract';
import type { ShipmentSearchAnswer, UsageReading } from '@shared/query/query-contract';
import type { UsageSummary } from '@shared/spec';
import { generateAccount, startSimulator, type RunningSimulator } from '../../src/main/sim';
import { createHarness, type Harness } from './helpers';

/**
 * Main announces what changed through the hosts' event sink, so the window never has to guess:
 * `usage.changed` after whatever may spend a profile's quota, `library.changed` after whatever saves,
 * edits or deletes a dataset.
 */
let h: Harness;
let sim: RunningSimulator;
let profileId: string;
const account = generateAccount('acme');

beforeAll(async () => {
  sim = await startSimulator({ port: 0, records: 3_000, seed: 4, accounts: [account] });
  h = await createHarness();
  profileId = (await h.addProfile(sim.url, account, { active: true })).id;
}, 60_000);
afterAll(async () => {
  await h?.close();
  await sim?.close();
});
beforeEach(() => {
  h.events.length = 0;
});

const announced = (event: string) => h.events.filter((e) => e.event === event).map((e) => e.payload);

describe('change events', () => {
  it('a search announces the spent usage of the active profile and the dataset it saved', async () => {
    const r = await h.ok<ShipmentSearchAnswer>('shipments.search', {
      request: { exporter_countries: ['DE'], size: 20 },
    });
    expect(announced('usage.changed')).toEqual([{ profileId }]);
    // The answer comes back while its dataset is still being stored: the library is announced once it is.
    await h.ok('library.get', { id: r.datasetId });
    await expect
      .poll(() => announced('library.changed'))
      .toEqual([{ change: 'saved', datasetId: r.datasetId }]);
  });

  it('a count announces usage for the profile it names; a failed search still announces it', async () => {
    await h.ok('shipments.count', { profileId, request: { firm: 'no-such-firm' } });
    expect(announced('usage.changed')).toEqual([{ profileId }]);
    const refused = (await h.call('firms.search', {
      request: { importer_firm: 'Acme', page: 1, account_name: 'no-such-account' },
    })) as { ok: boolean };
    expect(refused.ok).toBe(false);
    expect(announced('usage.changed')).toEqual([{ profileId }, { profileId }]);
    expect(announced('library.changed')).toEqual([]);
  });

  it('reading usage announces the figures themselves, so nobody reads them twice', async () => {
    const reading = await h.ok<UsageReading>('usage.get', {});
    expect(announced('usage.changed')).toEqual([{ profileId, ...reading }]);
    const tested = await h.ok<UsageSummary>('profiles.testConnection', { id: profileId });
    // With the time of the test's own read: the Usage page says how old its figures are.
    expect(announced('usage.changed').at(-1)).toEqual({
      profileId,
      usage: tested,
      readAt: expect.any(Number),
      nextReadAt: expect.any(Number),
    });
  });

  it('edits, deletes and imports announce the dataset they changed; reads announce nothing', async () => {
    const r = await h.ok<{ datasetId: string; firms: unknown[] }>('firms.search', {
      request: { importer_firm: 'Trading', page: 1 },
    });
    h.events.length = 0;
    const id = r.datasetId;
    await h.ok<DatasetView>('library.rename', { id, name: 'Renamed' });
    await h.ok<DatasetView>('library.setTags', { id, tags: ['a'] });
    await h.ok<DatasetView>('library.setNotes', { id, notes: 'n' });
    await h.ok('library.list', {});
    await h.ok('library.get', { id });
    await h.ok('library.delete', { id });
    const chosen = await h.handlers.hostFiles.receiveImport(
      'firms.json',
      Buffer.from(JSON.stringify(r.firms)),
    );
    const imported = await h.ok<ImportResultView>('library.import', { file: chosen.handle });
    expect(announced('library.changed')).toEqual([
      { change: 'updated', datasetId: id },
      { change: 'updated', datasetId: id },
      { change: 'updated', datasetId: id },
      { change: 'removed', datasetId: id },
      { change: 'saved', datasetId: imported.dataset.id },
    ]);
    expect(announced('usage.changed')).toEqual([]);
  });

  it('a fetch job announces its probe, its end, the usage it spent and the dataset it finished', async () => {
    const request = { exporter_countries: ['DE'] };
    await h.ok('jobs.estimate', { kind: 'shipments', request });
    // With main's figures (the estimate read them), so the window need not ask the service again.
    expect(announced('usage.changed')).toEqual([
      { profileId, usage: expect.any(Object), readAt: expect.any(Number), nextReadAt: expect.any(Number) },
    ]);
    const { jobId } = await h.ok<{ jobId: string }>('jobs.start', { kind: 'shipments', request });
    const finished = await h.jobFinished<JobFinished>(jobId);
    expect(finished.outcome).toBe('succeeded');
    await expect.poll(() => announced('usage.changed').length).toBe(2);
    expect(announced('library.changed')).toEqual([{ change: 'saved', datasetId: finished.datasetId }]);
  }, 60_000);
});
