import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AppError } from '@shared/ipc/errors';
import { createFileHandles, type FileHandles } from '../file-handles';
import type { ProfileView, ProfilesState } from '@shared/profiles/profiles-contract';
import { MIN_CREDENTIAL_LENGTH, credentialOrigin, isProfileNameTaken } from '@shared/profiles/profile-rules';
import { Library } from '../library';
import { registerSecret, type Logger } from '../log';
import { createProfileStore, type Profile, type ProfileStore } from '../profiles';
import { createMemorySecretStore, type Credentials, type SecretStore } from '../secrets';
import { lastFolder } from './export-handlers';
import { makeDataPrivate, sweepLeftovers } from './leftovers';
import type { HandlerDeps, SimulatorAccount, StartSimulator } from './types';

export const DEMO_PROFILE_NAME = 'Demo workspace';
export const DEMO_RECORDS = 50_000;
const DEMO_SEED = 20_240_601;

/** What the capability modules share: the profile store, the right secret store per profile, the demo. */
export interface HandlerContext {
  deps: HandlerDeps;
  profiles: ProfileStore;
  /** The keychain for real profiles; process memory for the demo profile (see memory-store.ts). */
  secretsFor(profile: Profile): SecretStore;
  /** The given profile, or the active one; NotFound / NoCredentials when there is none. */
  resolveProfile(profileId: string | undefined): Promise<Profile>;
  /** The profile's credentials, registered with the log redactor; NoCredentials when none are stored. */
  credentialsFor(profile: Profile): Promise<Credentials>;
  /** Stores the profile's pair in its secret store, bound to the origin of the profile's base address. */
  storeCredentials(profile: Profile, pair: { apiKey: string; apiSecret: string }): Promise<void>;
  /** Keeps the profile's pair on the log scrub list until it is replaced or the profile is forgotten. */
  protectCredentials(profileId: string, creds: Credentials): void;
  /** Takes a deleted profile's pair off the scrub list. */
  forgetCredentials(profileId: string): void;
  toView(profile: Profile): Promise<ProfileView>;
  state(): Promise<ProfilesState>;
  demo: DemoRuntime;
  /** The files the window names by handle (chosen in a dialog, uploaded, or in the host's own folders). */
  files: FileHandles;
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

export function createHandlerContext(deps: HandlerDeps): HandlerContext {
  const log = deps.logger.child('handlers');
  const profiles = createProfileStore({ dataDir: deps.dataDir, logger: log });
  const demoSecrets = createMemorySecretStore();
  const files = deps.fileHandles ?? createFileHandles();
  /**
   * Scrub-list registrations by owner (a profile id, or the demo simulator). A pair stays registered
   * exactly as long as its owner holds it: a deleted profile's or a replaced secret must not go on
   * masking text for the rest of the process.
   */
  const held = new Map<string, { apiKey: string; apiSecret: string; release: () => void }>();

  function protect(owner: string, creds: Credentials): void {
    const current = held.get(owner);
    if (current && current.apiKey === creds.apiKey && current.apiSecret === creds.apiSecret) return;
    const releaseSecret = registerSecret(creds.apiSecret);
    const releaseKey = registerSecret(creds.apiKey, { keepLast: 4 });
    held.set(owner, {
      apiKey: creds.apiKey,
      apiSecret: creds.apiSecret,
      release: () => {
        releaseSecret();
        releaseKey();
      },
    });
    // Released after the new pair is in, so a value both pairs share is never unprotected in between.
    current?.release();
  }

  function forget(owner: string): void {
    const current = held.get(owner);
    held.delete(owner);
    current?.release();
  }

  const secretsFor = (p: Profile) => (p.demo ? demoSecrets : deps.secrets);

  const demo = createDemoRuntime(deps, profiles, demoSecrets, protect, forget);

  // Start-up: the data folder made the analyst's alone, and what a crash left behind swept away.
  const startup = prepareDataFolder(deps.dataDir, log);

  // A DuckDB file may be opened once per process: every capability shares this one instance.
  let libraryOpening: Promise<Library> | null = null;
  function library(): Promise<Library> {
    if (!libraryOpening) {
      const opening = startup.then(async () => {
        const lib = await Library.open(deps.dataDir);
        if (lib.recovery) log.warn('damaged library kept aside, a fresh one opened', { ...lib.recovery });
        return lib;
      });
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
    if (!p)
      throw new AppError(
        'NotFound',
        'That connection profile no longer exists. Choose another one in Settings → Profiles.',
      );
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
    // Stored before the minimum existed: the redactor cannot mask a value this short, so it is not used.
    if (
      creds.apiKey.trim().length < MIN_CREDENTIAL_LENGTH ||
      creds.apiSecret.length < MIN_CREDENTIAL_LENGTH
    ) {
      throw new AppError(
        'NoCredentials',
        `The API key or secret saved for "${profile.name}" is too short to be a real one. Enter both again in Settings → Profiles.`,
      );
    }
    // Bound to the origin they were saved for: a profile whose address moved never sends them elsewhere.
    // (Items saved before the origin was recorded are taken as bound to the address they sit with.)
    const origin = credentialOrigin(profile.baseUrl);
    if (origin === null || (creds.origin !== undefined && creds.origin !== origin)) {
      throw new AppError(
        'NoCredentials',
        `The API key and secret of "${profile.name}" were saved for ${creds.origin ?? 'another address'}, not for ${origin ?? profile.baseUrl}. Enter them again in Settings → Profiles.`,
      );
    }
    protect(profile.id, creds);
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
    storeCredentials: (p, pair) => secretsFor(p).setCredentials(p.id, boundTo(p.baseUrl, pair)),
    protectCredentials: protect,
    forgetCredentials: forget,
    toView: (p) => toView(p),
    state,
    demo,
    files,
    library,
    async dispose() {
      await startup;
      await demo.stop();
      await files.dispose();
      const opened = libraryOpening;
      libraryOpening = null;
      if (opened) await opened.then((l) => l.close()).catch(() => undefined);
      for (const owner of [...held.keys()]) forget(owner);
    },
  };
}

/** Makes the data folder private and sweeps leftovers; never fails the start (a problem is logged). */
async function prepareDataFolder(dataDir: string, log: Logger): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await makeDataPrivate(dataDir);
    const last = await lastFolder(dataDir);
    const { removed } = await sweepLeftovers(dataDir, { exportFolders: last ? [last] : [] });
    if (removed.length > 0) log.info('leftovers of an earlier run removed', { count: removed.length });
  } catch (error) {
    log.warn('data folder not fully prepared', { error });
  }
}

/** The pair as it is stored: with the origin of the base address it is saved for. */
export function boundTo(baseUrl: string, pair: { apiKey: string; apiSecret: string }): Credentials {
  const origin = credentialOrigin(baseUrl);
  return { apiKey: pair.apiKey, apiSecret: pair.apiSecret, ...(origin ? { origin } : {}) };
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

function createDemoRuntime(
  deps: HandlerDeps,
  profiles: ProfileStore,
  demoSecrets: SecretStore,
  protect: (owner: string, c: Credentials) => void,
  forget: (owner: string) => void,
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
      protect(DEMO_SIMULATOR_OWNER, account);
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
      forget(DEMO_SIMULATOR_OWNER);
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
