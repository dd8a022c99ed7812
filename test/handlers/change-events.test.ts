import { beforeEach, describe, expect, it } from 'vitest';
import type { FetchFinished as JobFinished } from '@shared/jobs/jobs-contract';
import type { DatasetView, ImportResultView } from '@shared/library/library-contract';
import type { ShipmentSearchAnswer, UsageReading } from '@shared/query/query-contract';
import type { UsageSummary } from '@shared/spec';
import { generateAccount } from '../../src/main/sim';
import { useServiceHarness } from './service-harness';

/**
 * Main announces what changed through the hosts' event sink, so the window never has to guess:
 * `usage.changed` after whatever may spend a profile's quota, `library.changed` after whatever saves,
 * edits or deletes a dataset.
 */
const account = generateAccount('acme');

const service = useServiceHarness({ account, records: 3_000, seed: 4, profile: { active: true } });
beforeEach(() => {
  service.h.events.length = 0;
});

const announced = (event: string) => service.h.events.filter((e) => e.event === event).map((e) => e.payload);

describe('change events', () => {
  it('a search announces the spent usage of the active profile and the dataset it saved', async () => {
    const r = await service.h.ok<ShipmentSearchAnswer>('shipments.search', {
      request: { exporter_countries: ['DE'], size: 20 },
    });
    expect(announced('usage.changed')).toEqual([{ profileId: service.profileId }]);
    // The answer comes back while its dataset is still being stored: the library is announced once it is.
    await service.h.ok('library.get', { id: r.datasetId });
    await expect
      .poll(() => announced('library.changed'))
      .toEqual([{ change: 'saved', datasetId: r.datasetId }]);
  });

  it('a count announces usage for the profile it names; a failed search still announces it', async () => {
    await service.h.ok('shipments.count', {
      profileId: service.profileId,
      request: { firm: 'no-such-firm' },
    });
    expect(announced('usage.changed')).toEqual([{ profileId: service.profileId }]);
    const refused = (await service.h.call('firms.search', {
      request: { importer_firm: 'Acme', page: 1, account_name: 'no-such-account' },
    })) as { ok: boolean };
    expect(refused.ok).toBe(false);
    expect(announced('usage.changed')).toEqual([
      { profileId: service.profileId },
      { profileId: service.profileId },
    ]);
    expect(announced('library.changed')).toEqual([]);
  });

  it('reading usage announces the figures themselves, so nobody reads them twice', async () => {
    const reading = await service.h.ok<UsageReading>('usage.get', {});
    expect(announced('usage.changed')).toEqual([{ profileId: service.profileId, ...reading }]);
    const tested = await service.h.ok<UsageSummary>('profiles.testConnection', { id: service.profileId });
    // With the time of the test's own read: the Usage page says how old its figures are.
    expect(announced('usage.changed').at(-1)).toEqual({
      profileId: service.profileId,
      usage: tested,
      readAt: expect.any(Number),
      nextReadAt: expect.any(Number),
    });
  });

  it('edits, deletes and imports announce the dataset they changed; reads announce nothing', async () => {
    const r = await service.h.ok<{ datasetId: string; firms: unknown[] }>('firms.search', {
      request: { importer_firm: 'Trading', page: 1 },
    });
    service.h.events.length = 0;
    const id = r.datasetId;
    await service.h.ok<DatasetView>('library.rename', { id, name: 'Renamed' });
    await service.h.ok<DatasetView>('library.setTags', { id, tags: ['a'] });
    await service.h.ok<DatasetView>('library.setNotes', { id, notes: 'n' });
    await service.h.ok('library.list', {});
    await service.h.ok('library.get', { id });
    await service.h.ok('library.delete', { id });
    const chosen = await service.h.handlers.hostFiles.receiveImport(
      'firms.json',
      Buffer.from(JSON.stringify(r.firms)),
    );
    const imported = await service.h.ok<ImportResultView>('library.import', { file: chosen.handle });
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
    await service.h.ok('jobs.estimate', { kind: 'shipments', request });
    // With main's figures (the estimate read them), so the window need not ask the service again.
    expect(announced('usage.changed')).toEqual([
      {
        profileId: service.profileId,
        usage: expect.any(Object),
        readAt: expect.any(Number),
        nextReadAt: expect.any(Number),
      },
    ]);
    const { jobId } = await service.h.ok<{ jobId: string }>('jobs.start', { kind: 'shipments', request });
    const finished = await service.h.jobFinished<JobFinished>(jobId);
    expect(finished.outcome).toBe('succeeded');
    await expect.poll(() => announced('usage.changed').length).toBe(2);
    expect(announced('library.changed')).toEqual([{ change: 'saved', datasetId: finished.datasetId }]);
  }, 60_000);
});
