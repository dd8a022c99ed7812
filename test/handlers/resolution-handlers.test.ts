import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AliasImportView,
  FirmDetailView,
  FirmListView,
  ResolutionStatus,
  ReviewListView,
} from '@shared/resolution/resolution-contract';
import type { ShipmentSearchResponse } from '@shared/spec';
import { generateAccount } from '../../src/main/sim';
import { useServiceHarness } from './service-harness';

/**
 * The firm resolution bridge calls against real handlers: a search saved from the simulator, then its
 * firms, evidence, review queue and decisions over the dispatcher, with the events main announces.
 */
let datasetId: string;
const account = generateAccount('acme');

const service = useServiceHarness({ account, records: 4_000, seed: 12, profile: { active: true } });

beforeAll(async () => {
  const r = await service.h.ok<ShipmentSearchResponse & { datasetId: string }>('shipments.search', {
    request: { size: 4000 },
  });
  datasetId = r.datasetId;
}, 60_000);
beforeEach(() => {
  service.h.events.length = 0;
});

const announced = () =>
  service.h.events.filter((e) => e.event === 'resolution.changed').map((e) => e.payload);

describe('firm resolution over the bridge', () => {
  it('lists a dataset’s firms with their spellings, and announces the resolution it ran', async () => {
    const list = await service.h.ok<FirmListView>('resolution.firms', {
      scope: { datasetId },
      mergedOnly: true,
      limit: 20,
    });
    expect(list.total).toBeGreaterThan(20);
    expect(list.firms).toHaveLength(20);
    expect(list.firms.every((f) => f.spellings > 1)).toBe(true);
    // Biggest first; each firm counts the dataset's rows naming any of its spellings.
    const rows = list.firms.map((f) => f.asImporter + f.asExporter);
    expect(rows).toEqual([...rows].sort((a, b) => b - a));
    expect(list.status.parties).toBeGreaterThan(list.status.firms);
    expect(announced()).toEqual([list.status]);

    // The same spellings group into one firm as the simulator knows them.
    const top = list.firms[0]!;
    const detail = await service.h.ok<FirmDetailView>('resolution.firm', {
      firmId: top.firmId,
      scope: { datasetId },
    });
    const truth = new Set(detail.spellings.map((s) => service.sim.dataset.firmByUrlCode(s.code)?.firmId));
    expect(truth.size).toBe(1);
    expect(detail.spellings.reduce((s, x) => s + x.asImporter + x.asExporter, 0)).toBe(
      top.asImporter + top.asExporter,
    );
    expect(detail.evidence.length).toBeGreaterThanOrEqual(detail.spellings.length - 1);
    // Nothing changed since: no second resolution, no second announcement.
    await service.h.ok('resolution.firms', { scope: { datasetId } });
    expect(announced()).toHaveLength(1);
  });

  it('takes decisions by spelling and firm, announces each, and exports and imports them as text', async () => {
    const list = await service.h.ok<FirmListView>('resolution.firms', { scope: { datasetId }, limit: 2 });
    const [a, b] = list.firms;
    let status = await service.h.ok<ResolutionStatus>('resolution.merge', {
      firmIds: [a!.firmId, b!.firmId],
    });
    expect(status.decisions).toBe(1);
    expect(status.firms).toBe(list.status.firms - 1);
    expect(announced()).toEqual([status]);

    const text = await service.h.ok<string>('resolution.exportAliases');
    const file = JSON.parse(text) as { format: string; decisions: unknown[] };
    expect(file.format).toBe('portolan-firm-aliases');
    expect(file.decisions).toHaveLength(1);

    const [decision] = await service.h.ok<{ id: string }[]>('resolution.decisions');
    status = await service.h.ok<ResolutionStatus>('resolution.undo', { decisionId: decision!.id });
    expect(status).toMatchObject({ decisions: 0, firms: list.status.firms });
    const imported = await service.h.ok<AliasImportView>('resolution.importAliases', { text });
    expect(imported).toMatchObject({ added: 1, already: 0 });
    expect(imported.status.firms).toBe(list.status.firms - 1);
  });

  it('queues uncertain pairs with the reason they were not joined', async () => {
    const review = await service.h.ok<ReviewListView>('resolution.review', {
      scope: { datasetId },
      limit: 10,
    });
    expect(review.total).toBeGreaterThan(0);
    for (const p of review.pairs) {
      expect(p.a.firmId).not.toBe(p.b.firmId);
      expect(p.reason.length).toBeGreaterThan(0);
    }
    const pair = review.pairs[0]!;
    const status = await service.h.ok<ResolutionStatus>('resolution.decide', {
      verdict: 'same',
      a: pair.a.partyId,
      b: pair.b.partyId,
    });
    // The pair is settled: out of the queue, its spellings one firm.
    const after = await service.h.ok<ReviewListView>('resolution.review', {
      scope: { datasetId },
      limit: 1000,
    });
    const ids = (p: { a: { partyId: string }; b: { partyId: string } }) =>
      [p.a.partyId, p.b.partyId].sort().join();
    expect(after.pairs.map(ids)).not.toContain(ids(pair));
    expect(status.decisions).toBeGreaterThan(0);
    const firm = await service.h
      .ok<FirmDetailView>('resolution.firm', { firmId: pair.a.firmId, scope: {} })
      .catch(async () =>
        service.h.ok<FirmDetailView>('resolution.firm', { firmId: pair.b.firmId, scope: {} }),
      );
    expect(firm.spellings.map((s) => s.partyId)).toEqual(
      expect.arrayContaining([pair.a.partyId, pair.b.partyId]),
    );
  });

  it('refuses what it cannot do in the analyst’s words, and input the schemas do not allow', async () => {
    const missing = (await service.h.call('resolution.firm', { firmId: 'nope', scope: {} })) as {
      ok: false;
      error: { kind: string; message: string };
    };
    expect(missing.error).toMatchObject({ kind: 'NotFound' });
    expect(missing.error.message).toMatch(/no longer in the library/);
    const notJson = (await service.h.call('resolution.importAliases', { text: 'hello' })) as {
      ok: false;
      error: { kind: string; message: string };
    };
    expect(notJson.error.message).toMatch(/not a Portolan alias list/);
    const extra = (await service.h.call('resolution.firms', { scope: {}, sql: 'DROP TABLE datasets' })) as {
      ok: boolean;
    };
    expect(extra.ok).toBe(false);
    const oneFirm = (await service.h.call('resolution.merge', { firmIds: ['x'] })) as { ok: boolean };
    expect(oneFirm.ok).toBe(false);
  });
});
