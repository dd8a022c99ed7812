import type { ShipmentRecord } from '@shared/spec/records';
import type { SimSetup } from '../jobs/helpers';

/** What the service has charged so far (its own counter, not the client's). */
export async function charged(s: SimSetup): Promise<number> {
  const usage = await s.client.usage();
  return Object.values(usage)[0]!['shipments/search']!.current;
}

/**
 * The records the service holds for arrival dates from `from` as of its day, computed from the data,
 * not the engine.
 */
export function published(s: SimSetup, from: string): Map<string, ShipmentRecord> {
  const asOf = s.sim.asOf()!;
  const out = new Map<string, ShipmentRecord>();
  for (let i = 0; i < s.sim.dataset.size; i++) {
    if (s.sim.dataset.publishedOn(i) > asOf) continue;
    const r = s.sim.dataset.record(i);
    if (r.arrivalDate >= from) out.set(r.hashId, r);
  }
  return out;
}
