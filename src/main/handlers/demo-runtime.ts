import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { isProfileNameTaken } from '@shared/profiles/profile-rules';
import type { Profile, ProfileStore } from '../profiles';
import type { SecretStore } from '../secrets';
import { boundTo, type CredentialGuard } from './credential-guard';
import type { HandlerDeps, SimulatorAccount, StartSimulator } from './types';

export const DEMO_PROFILE_NAME = 'Demo workspace';
export const DEMO_RECORDS = 50_000;
const DEMO_SEED = 20_240_601;

export interface DemoRuntime {
  /** Starts the simulator once (or again after a restart) and makes sure the demo profile points at it. */
  start(): Promise<Profile>;
  running(): boolean;
  stop(): Promise<void>;
}

function generateDemoAccount(): SimulatorAccount {
  return {
    name: 'demo',
    apiKey: `demo_${randomBytes(12).toString('hex')}`,
    apiSecret: randomBytes(32).toString('base64url'),
  };
}

/** Not a profile id (those are UUIDs): the simulator's own hold on the account it was started with. */
const DEMO_SIMULATOR_OWNER = 'demo-simulator';

/** The demo's usual name, or a numbered one when the analyst already has a profile called that. */
function demoProfileName(existing: readonly Profile[]): string {
  let name = DEMO_PROFILE_NAME;
  for (let n = 2; isProfileNameTaken(name, existing); n += 1) name = `${DEMO_PROFILE_NAME} (${n})`;
  return name;
}

/**
 * The demo workspace: the simulator started in this process with a generated account, and the demo
 * profile pointing at it (its pair kept in `demoSecrets`, process memory, never the keychain).
 */
export function createDemoRuntime(
  deps: HandlerDeps,
  profiles: ProfileStore,
  demoSecrets: SecretStore,
  guard: CredentialGuard,
): DemoRuntime {
  const log = deps.logger.child('demo');
  let current: { sim: { url: string; close(): Promise<void> }; account: SimulatorAccount } | null = null;
  let starting: Promise<Profile> | null = null;

  async function loadStarter(): Promise<StartSimulator> {
    if (deps.startSimulator) return deps.startSimulator;
    const mod = await import('../sim');
    return mod.startSimulator;
  }

  async function doStart(): Promise<Profile> {
    if (!current) {
      const account = generateDemoAccount();
      guard.protect(DEMO_SIMULATOR_OWNER, account);
      const start = await loadStarter();
      const csv = join(deps.resourcesDir, 'data', 'hs-codes.csv');
      const sim = await start({
        port: 0,
        host: '127.0.0.1',
        records: DEMO_RECORDS,
        seed: DEMO_SEED,
        accounts: [account],
        ...(existsSync(csv) ? { hsCodesCsvPath: csv } : {}),
      });
      current = { sim, account };
      log.info('demo simulator started', { url: sim.url, records: DEMO_RECORDS });
    }
    const { sim, account } = current;
    const all = await profiles.list();
    const existing = all.find((p) => p.demo);
    const profile = existing
      ? ((await profiles.update(existing.id, { baseUrl: sim.url, accountName: account.name })) ?? existing)
      : await profiles.create({
          name: demoProfileName(all),
          baseUrl: sim.url,
          accountName: account.name,
          demo: true,
        });
    await demoSecrets.setCredentials(profile.id, boundTo(profile.baseUrl, account));
    // The host passes --demo on every start (npm start), and a profile query may bring the demo back
    // on the fly: the demo takes over only when no profile is active (first run), never from a profile
    // the analyst chose.
    if ((await profiles.getActiveId()) === null) await profiles.setActiveId(profile.id);
    return profile;
  }

  async function stop(): Promise<void> {
    const c = current;
    current = null;
    if (c) {
      await c.sim.close();
      guard.forget(DEMO_SIMULATOR_OWNER);
    }
  }

  return {
    start() {
      starting ??= doStart().finally(() => {
        starting = null;
      });
      return starting;
    },
    running: () => current !== null,
    stop,
  };
}
