import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AppError } from '@shared/ipc/errors';
import type { ProfileView, ProfilesState } from '@shared/ipc/contract';
import { Library } from '../library';
import { registerSecret } from '../log';
import { createProfileStore, type Profile, type ProfileStore } from '../profiles';
import { createMemorySecretStore, type Credentials, type SecretStore } from '../secrets';
import type { ServiceDeps, SimulatorAccount, StartSimulator } from './types';

export const DEMO_PROFILE_NAME = 'Demo workspace';
export const DEMO_RECORDS = 50_000;
const DEMO_SEED = 20_240_601;

/** What the capability modules share: the profile store, the right secret store per profile, the demo. */
export interface ServiceContext {
  deps: ServiceDeps;
  profiles: ProfileStore;
  /** The keychain for real profiles; process memory for the demo profile (see memory-store.ts). */
  secretsFor(profile: Profile): SecretStore;
  /** The given profile, or the active one; NotFound / NoCredentials when there is none. */
  resolveProfile(profileId: string | undefined): Promise<Profile>;
  /** The profile's credentials, registered with the log redactor; NoCredentials when none are stored. */
  credentialsFor(profile: Profile): Promise<Credentials>;
  toView(profile: Profile): Promise<ProfileView>;
  state(): Promise<ProfilesState>;
  demo: DemoRuntime;
  /** The app's one offline library at `<dataDir>`, opened on first use (needs neither network nor keychain). */
  library(): Promise<Library>;
  dispose(): Promise<void>;
}

export interface DemoRuntime {
  /** Starts the simulator once (or again after a restart) and makes sure the demo profile points at it. */
  start(): Promise<Profile>;
  running(): boolean;
  stop(): Promise<void>;
}

export function createServiceContext(deps: ServiceDeps): ServiceContext {
  const log = deps.logger.child('services');
  const profiles = createProfileStore({ dataDir: deps.dataDir, logger: log });
  const demoSecrets = createMemorySecretStore();
  const unregister: Array<() => void> = [];
  const registered = new Set<string>();

  /** Every secret this process has seen is scrubbed from logs for the rest of its life. */
  function protect(creds: Credentials): void {
    if (registered.has(creds.apiSecret)) return;
    registered.add(creds.apiSecret);
    unregister.push(registerSecret(creds.apiSecret));
  }

  const secretsFor = (p: Profile) => (p.demo ? demoSecrets : deps.secrets);

  const demo = createDemoRuntime(deps, profiles, demoSecrets, protect);

  // A DuckDB file may be opened once per process: every capability shares this one instance.
  let libraryOpening: Promise<Library> | null = null;
  function library(): Promise<Library> {
    if (!libraryOpening) {
      const opening = Library.open(deps.dataDir);
      libraryOpening = opening;
      // A failed open (e.g. a locked file) is retried on the next call rather than remembered.
      opening.catch(() => {
        if (libraryOpening === opening) libraryOpening = null;
      });
    }
    return libraryOpening;
  }

  async function resolveProfile(profileId: string | undefined): Promise<Profile> {
    const id = profileId ?? (await profiles.getActiveId());
    if (id === null) {
      throw new AppError(
        'NoCredentials',
        'No connection profile is selected. Create one in Settings → Profiles, or start the demo workspace.',
      );
    }
    const p = await profiles.get(id);
    if (!p) throw new AppError('NotFound', 'That connection profile no longer exists. Choose another one in Settings → Profiles.');
    return p;
  }

  async function credentialsFor(profile: Profile): Promise<Credentials> {
    let creds = await secretsFor(profile).getCredentials(profile.id);
    if (!creds && profile.demo) {
      // The demo's generated pair lives only as long as the process: bring the demo back on first use.
      const fresh = await demo.start();
      creds = await demoSecrets.getCredentials(fresh.id);
      if (creds) profile.baseUrl = fresh.baseUrl;
    }
    if (!creds || !creds.apiKey || !creds.apiSecret) {
      throw new AppError(
        'NoCredentials',
        `The profile "${profile.name}" has no API key and secret yet. Add them in Settings → Profiles.`,
      );
    }
    protect(creds);
    return creds;
  }

  async function toView(p: Profile, keychainDown = false): Promise<ProfileView> {
    let described = { apiKeyMasked: null as string | null, hasSecret: false };
    if (!(keychainDown && !p.demo)) {
      try {
        described = await secretsFor(p).describe(p.id);
      } catch (e) {
        if (!(e instanceof AppError && e.kind === 'KeychainUnavailable')) throw e;
      }
    }
    return {
      id: p.id,
      name: p.name,
      baseUrl: p.baseUrl,
      accountName: p.accountName,
      apiKeyMasked: described.apiKeyMasked,
      hasSecret: described.hasSecret,
      demo: p.demo,
    };
  }

  async function state(): Promise<ProfilesState> {
    const keychainProblem = await deps.secrets.probe();
    const list = await profiles.list();
    const views = await Promise.all(list.map((p) => toView(p, keychainProblem !== null)));
    return { profiles: views, activeId: await profiles.getActiveId(), keychainProblem };
  }

  return {
    deps,
    profiles,
    secretsFor,
    resolveProfile,
    credentialsFor,
    toView: (p) => toView(p),
    state,
    demo,
    library,
    async dispose() {
      await demo.stop();
      const opened = libraryOpening;
      libraryOpening = null;
      if (opened) await opened.then((l) => l.close()).catch(() => undefined);
      for (const u of unregister.splice(0)) u();
      registered.clear();
    },
  };
}

function generateDemoAccount(): SimulatorAccount {
  return {
    name: 'demo',
    apiKey: `demo_${randomBytes(12).toString('hex')}`,
    apiSecret: randomBytes(32).toString('base64url'),
  };
}

function createDemoRuntime(
  deps: ServiceDeps,
  profiles: ProfileStore,
  demoSecrets: SecretStore,
  protect: (c: Credentials) => void,
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
      protect(account);
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
    const existing = (await profiles.list()).find((p) => p.demo);
    const profile = existing
      ? ((await profiles.update(existing.id, { baseUrl: sim.url, accountName: account.name })) ?? existing)
      : await profiles.create({ name: DEMO_PROFILE_NAME, baseUrl: sim.url, accountName: account.name, demo: true });
    await demoSecrets.setCredentials(profile.id, account);
    await profiles.setActiveId(profile.id);
    return profile;
  }

  async function stop(): Promise<void> {
    const c = current;
    current = null;
    if (c) await c.sim.close();
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
