import { afterEach, describe, expect, it } from 'vitest';
import { JobRunner, resumableJobs, type ShipmentSource } from '../../src/main/jobs';
import type { RunningSimulator } from '../../src/main/sim';
import { useLibrary } from '../helpers/library';
import { expectedHashIds, startSim, type SimSetup } from './helpers';

/*
 * A fetch job one of whose answers arrives cut off (the simulator's `truncateRate`: a 200 whose body
 * stops half-way). The service charged it; the job asks for that window again at once, a few times at
 * most, instead of failing and leaving a resume to fetch it again.
 */

const store = useLibrary('portolan-jobs-cut-off-');
const filter = { start_date: '2021-01-01', end_date: '2025-12-31' };
const sims: RunningSimulator[] = [];
afterEach(async () => {
  for (const s of sims.splice(0)) await s.close();
});

/** `cutOnce`: the answers are whole again after the first cut-off one. */
async function service(cutOnce: boolean): Promise<{
  s: SimSetup;
  sent: { cut: number; all: number };
  source: ShipmentSource;
}> {
  const s = await startSim({ records: 25_000 });
  sims.push(s.sim);
  const sent = { cut: 0, all: 0 };
  const source: ShipmentSource = {
    shipmentSearch: async (req, o) => {
      sent.all++;
      try {
        return await s.client.shipmentSearch(req, o);
      } catch (e) {
        if ((e as { kind?: unknown }).kind === 'BadResponse') {
          sent.cut++;
          if (cutOnce) s.sim.setFaults(undefined);
        }
        throw e;
      }
    },
  };
  return { s, sent, source };
}

async function storedIds(datasetId: string): Promise<{ rows: number; ids: Set<string> }> {
  const rows = await store.lib.reader.all(`SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1`, [
    datasetId,
  ]);
  return { rows: rows.length, ids: new Set(rows.map((r) => String(r.h))) };
}

describe('a fetch job whose answer arrives cut off', () => {
  it('asks for that window again and completes: every record once, the cut-off answer counted as spent', async () => {
    const { s, sent, source } = await service(true);
    const expected = expectedHashIds(s.sim, filter);
    let cutAfter = -1;
    const out = await new JobRunner({ library: store.lib }).startShipments({ filter }, source, {
      onProgress: (p) => {
        // Once a step is stored, the next answer comes cut off; the one after it whole again.
        if (cutAfter < 0 && p.recordsStored > 0) {
          cutAfter = sent.all;
          s.sim.setFaults({ truncateRate: 1 });
        }
      },
    });
    expect(sent.cut).toBe(1);
    expect(out.status).toBe('succeeded');
    const { rows, ids } = await storedIds(out.datasetId!);
    expect(ids).toEqual(expected);
    expect(rows).toBe(expected.size);
    // Every request sent is counted, the cut-off one too: the service charged it.
    expect(out.stats.requests).toBe(sent.all);
    expect(await resumableJobs(store.lib)).toEqual([]);
  }, 60_000);

  it('stops, resumable, when the answers keep coming cut off: three of the same request at most', async () => {
    const { s, sent, source } = await service(false);
    let at = -1;
    const out = await new JobRunner({ library: store.lib }).startShipments({ filter }, source, {
      onProgress: (p) => {
        if (at < 0 && p.recordsStored > 0) {
          at = sent.all;
          s.sim.setFaults({ truncateRate: 1 });
        }
      },
    });
    expect(out.status).toBe('failed');
    expect(out.message).toMatch(
      /^The service answered, but its answer could not be read \(the JSON ends early/,
    );
    expect(out.message).toMatch(/The job can be resumed\.$/);
    // The first request after the cut began, and two more of it: then the job stopped.
    expect(sent.all - at).toBe(3);
    expect(sent.cut).toBe(3);
    expect(await resumableJobs(store.lib)).toMatchObject([{ id: out.jobId, status: 'failed' }]);
  }, 60_000);
});
