import { afterAll, beforeAll } from 'vitest';
import type { SimulatorAccount } from '../../src/main/handlers';
import { startSimulator, type RunningSimulator } from '../../src/main/sim';
import { createHarness, type Harness } from './helpers';

export interface ServiceHarness {
  /** The service: the simulator, with `account` its one account. */
  readonly sim: RunningSimulator;
  /** The real handlers, as the window calls them. */
  readonly h: Harness;
  /** The profile of `account` on `sim`, saved through the bridge. */
  readonly profileId: string;
}

/**
 * What the handlers' tests against the service share: the simulator with `account` (its `records`
 * of `seed`, `asOf` its day), the handlers (`harness`: createHarness's options) and a profile of the
 * account saved as the analyst's form does (`profile`: its name, account name, whether active), started
 * once before the calling file's tests and closed after them. A `beforeAll` of the file runs after
 * these have started, an `afterAll` before they close.
 */
export function useServiceHarness(opts: {
  account: SimulatorAccount;
  records: number;
  seed: number;
  asOf?: string;
  harness?: Parameters<typeof createHarness>[0];
  profile?: { name?: string; accountName?: string | null; active?: boolean };
}): ServiceHarness {
  let sim: RunningSimulator | undefined;
  let h: Harness | undefined;
  let profileId: string | undefined;

  beforeAll(async () => {
    const { account, records, seed, asOf } = opts;
    sim = await startSimulator({ port: 0, records, seed, accounts: [account], ...(asOf ? { asOf } : {}) });
    h = await createHarness(opts.harness);
    profileId = (await h.addProfile(sim.url, account, opts.profile)).id;
  });
  afterAll(async () => {
    await h?.close();
    // A test may have stopped the service already, as an outage does.
    await sim?.close().catch(() => undefined);
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useServiceHarness: read before its tests started');
    return value;
  };
  return {
    get sim() {
      return started(sim);
    },
    get h() {
      return started(h);
    },
    get profileId() {
      return started(profileId);
    },
  };
}
