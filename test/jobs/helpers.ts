import { tempDir as freshTempDir, type TempDir } from '../helpers/temp-dir';
import { createServiceClient, type ServiceClient } from '../../src/main/api';
import { Library } from '../../src/main/library';
import {
  generateAccount,
  startSimulator,
  type RunningSimulator,
  type SimAccount,
  type SimOptions,
} from '../../src/main/sim';
import type { ShipmentFilter } from '@shared/spec/filter';
import type { ShipmentRecord } from '@shared/spec/records';

export const tempDir = (): Promise<TempDir> => freshTempDir('portolan-jobs-test-');

export interface SimSetup {
  sim: RunningSimulator;
  account: SimAccount;
  client: ServiceClient;
}

export async function startSim(
  opts: Partial<SimOptions> & { limits?: SimAccount['limits']; clientRetries?: number } = {},
): Promise<SimSetup> {
  const account: SimAccount = { ...generateAccount('acme'), ...(opts.limits ? { limits: opts.limits } : {}) };
  const { limits: _l, clientRetries, ...rest } = opts;
  const sim = await startSimulator({ port: 0, records: 20_000, seed: 7, ...rest, accounts: [account] });
  const client = createServiceClient({
    baseUrl: sim.url,
    credentials: { apiKey: account.apiKey, apiSecret: account.apiSecret },
    ...(clientRetries !== undefined ? { retry: { maxAttempts: clientRetries } } : {}),
  });
  return { sim, account, client };
}

/** A simulator and a library in a temp folder, shared by one test file; `close` ends both. */
export interface SimAndLibrary {
  s: SimSetup;
  lib: Library;
  close: () => Promise<void>;
}

export async function openSimAndLibrary(opts: Parameters<typeof startSim>[0] = {}): Promise<SimAndLibrary> {
  const s = await startSim(opts);
  const t = await tempDir();
  const lib = await Library.open(t.dir);
  return {
    s,
    lib,
    close: async () => {
      await lib.close();
      await s.sim.close();
      await t.cleanup();
    },
  };
}

/**
 * The records a filter of dates, importer countries and HS prefixes should return, computed straight from the
 * simulator's data (not through its query engine or HTTP).
 */
export function expectedHashIds(sim: RunningSimulator, filter: ShipmentFilter): Set<string> {
  const out = new Set<string>();
  for (const r of sim.dataset.records() as Generator<ShipmentRecord>) {
    if (filter.start_date && r.arrivalDate < filter.start_date) continue;
    if (filter.end_date && r.arrivalDate > filter.end_date) continue;
    if (filter.importer_countries && !filter.importer_countries.includes(r.importerCountryCode)) continue;
    if (filter.hs_codes && !filter.hs_codes.some((p) => r.hsCode.startsWith(p))) continue;
    out.add(r.hashId);
  }
  return out;
}

/** Records a job has committed so far, read from the library file. */
export async function committedRows(library: Library, jobId: string): Promise<number> {
  const r = await library.reader.one(
    `SELECT count(*) AS n FROM shipment_rows WHERE dataset_id = (SELECT dataset_id FROM jobs WHERE id = $1)`,
    [jobId],
  );
  return Number(r?.n ?? 0);
}
