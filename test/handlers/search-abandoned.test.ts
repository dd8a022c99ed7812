import { describe, expect, it } from 'vitest';
import type { DatasetView } from '@shared/library/library-contract';
import type { UsageReading } from '@shared/query/query-contract';
import { useServiceHarness } from './service-harness';

/**
 * A search whose window stops waiting (a reload, a closed window: the transport aborts the call)
 * through the real dispatcher, handlers and simulator. The spec does not say whether the service
 * charges a request whose answer is never read, so main never abandons a sent search: it completes,
 * and its answer is saved to the library.
 */
const account = { name: 'main', apiKey: 'ak_test_abandon_5d21', apiSecret: 'secret-abandon-8c0f' };

type Result<T> = { ok: true; value: T } | { ok: false; error: { kind: string; message: string } };

const used = async (metric: 'shipments/search' | 'firms/search') =>
  (await service.h.ok<UsageReading>('usage.get', { profileId: service.profileId })).usage.main?.[metric]
    ?.current ?? 0;
const datasets = async () => service.h.ok<DatasetView[]>('library.list', {});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const service = useServiceHarness({
  account,
  records: 500,
  seed: 5,
  profile: { name: 'Abandon', accountName: null },
});

describe('a search the window stops waiting for', () => {
  it.each([
    ['shipments.search', { size: 100 }, 'shipments/search'],
    ['firms.search', { importer_countries: ['DE'], page: 1 }, 'firms/search'],
  ] as const)(
    '%s still completes and its answer is saved to the library',
    async (channel, request, metric) => {
      const usedBefore = await used(metric);
      const savedBefore = (await datasets()).length;
      const gone = new AbortController();
      service.sim.setFaults({ latencyMs: 800 });
      try {
        const searching = service.h.dispatch(channel, { profileId: service.profileId, request }, 'app', {
          signal: gone.signal,
        });
        await sleep(200);
        gone.abort();
        const r = (await searching) as Result<{ datasetId: string | null }>;
        expect(r.ok).toBe(true);
        expect(r.ok && r.value.datasetId).toMatch(/\S/);
      } finally {
        service.sim.setFaults(undefined);
      }
      const after = await datasets();
      expect(after.length).toBe(savedBefore + 1);
      expect(await used(metric)).toBeGreaterThan(usedBefore);
    },
  );
});
