import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createMemorySink, type MemorySink } from '../../../src/main/log';
import { createKeytarSecretStore } from '../../../src/main/secrets';
import {
  generateAccount,
  startSimulator,
  type RunningSimulator,
  type SimAccount,
} from '../../../src/main/sim';
import { createWebHost, type WebHost } from '../../../src/main/web-host';
import { RENDERER_DIR, RESOURCES_DIR } from './paths';

export interface Stack {
  host: WebHost;
  sim: RunningSimulator;
  account: SimAccount;
  dataDir: string;
  /** Every log line the handlers wrote; tests check no secret ever lands here. */
  log: MemorySink;
  close(): Promise<void>;
}

/**
 * A simulator and a browser host over real handlers: a fresh data dir, the real keychain (under a
 * per-run service name so runs never see each other's items), nothing faked.
 */
export async function startStack(
  opts: { records?: number; seed?: number; account?: SimAccount } = {},
): Promise<Stack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portolan-e2e-'));
  const account = opts.account ?? generateAccount('e2e-account');
  const sim = await startSimulator({
    port: 0,
    records: opts.records ?? 2_000,
    seed: opts.seed ?? 7,
    accounts: [account],
  });
  const log = createMemorySink();
  const logger = createLogger({ sink: log, level: 'debug' });
  let host: WebHost;
  try {
    host = await createWebHost({
      rendererDir: RENDERER_DIR,
      logger,
      deps: {
        dataDir,
        resourcesDir: RESOURCES_DIR,
        logger,
        secrets: createKeytarSecretStore({ service: `Portolan e2e ${randomUUID()}` }),
        version: '0.0.0-e2e',
      },
    });
  } catch (e) {
    await sim.close();
    throw e;
  }
  return {
    host,
    sim,
    account,
    dataDir,
    log,
    async close() {
      await host.close();
      await sim.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The stack's account usage as the service reports it (its one account's metrics), read straight from
 * the simulator with a signed request: what the analyst was charged, whatever the app shows. The read
 * itself counts as a request.
 */
export async function serviceUsage(stack: Stack): Promise<Record<string, { current: number }>> {
  const res = await fetch(new URL('api/v1/statistics/usage', stack.sim.url), {
    headers: {
      'X-API-KEY': stack.account.apiKey,
      'X-SIGNATURE': createHmac('sha256', stack.account.apiSecret).update('').digest('base64'),
    },
  });
  const usage = (await res.json()) as Record<string, Record<string, { current: number }>>;
  return Object.values(usage)[0]!;
}
