import { afterEach } from 'vitest';
import type { ServiceConnection } from '@shared/profiles/profiles-contract';
import { generateAccount, startSimulator, type RunningSimulator } from '../../src/main/sim';
import { createHarness, type Harness } from './helpers';

/**
 * What the handlers' tests of a service that goes away share: the simulator (stopped and started again
 * at its port by the test), the handlers with the connection monitor probing every 100 ms and its
 * profile active, and the connection news main sends. Everything started is closed after each test.
 */
export function useServiceOutage(opts: { records: number; latencyMs?: number }) {
  const account = generateAccount('acme');
  const sims: RunningSimulator[] = [];
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
    for (const s of sims.splice(0)) await s.close();
  });
  return {
    account,
    /** The service at `port` (a free one by default), answering after `latencyMs`. */
    async simulator(port = 0, latencyMs = opts.latencyMs ?? 0): Promise<RunningSimulator> {
      const sim = await startSimulator({
        port,
        records: opts.records,
        seed: 3,
        accounts: [account],
        ...(latencyMs ? { faults: { latencyMs } } : {}),
      });
      sims.push(sim);
      return sim;
    },
    /** The handlers, with `sim`'s profile the active one. */
    async harness(sim: RunningSimulator, extra: { maxServiceWaitMs?: number } = {}): Promise<Harness> {
      h = await createHarness({ probeEveryMs: 100, ...extra });
      await h.addProfile(sim.url, account, { active: true });
      return h;
    },
  };
}

/** The service connection news main has sent the window, oldest first. */
export const connectionNews = (h: Harness): ServiceConnection[] =>
  h.events.filter((e) => e.event === 'service.connection').map((e) => e.payload as ServiceConnection);
