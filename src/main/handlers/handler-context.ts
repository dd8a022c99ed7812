import { mkdir } from 'node:fs/promises';
import { AppError } from '@shared/ipc/errors';
import { createConnectionMonitor, type ConnectionMonitor } from '../connection';
import type { ProfileView, ProfilesState } from '@shared/profiles/profiles-contract';
import { createFileHandles, type FileHandles } from '../file-handles';
import type { Library } from '../library';
import type { Logger } from '../log';
import { createProfileStore, type Profile, type ProfileStore } from '../profiles';
import { createMemorySecretStore, type Credentials, type SecretStore } from '../secrets';
import { boundTo, createCredentialGuard } from './credential-guard';
import { createDemoRuntime, type DemoRuntime } from './demo-runtime';
import { createKeptAnswers, type KeptAnswers } from './kept-answers';
import { createLibraryHandle } from './library-handle';
import { lastFolder } from './export-settings';
import { makeDataPrivate, sweepLeftovers } from './leftovers';
import type { HandlerDeps } from './types';
import { createUsageLedgers, type UsageLedgers } from './usage-ledgers';

export type { DemoRuntime } from './demo-runtime';

/**
 * What the capability modules share, composed here from modules of their own: the profile store and
 * the right secret store per profile, the credential guard (credential-guard.ts), the demo runtime
 * (demo-runtime.ts), the file handles and the library handle (library-handle.ts). A call's profile,
 * client and provenance are resolved together in profile-session.ts.
 */
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
  /** Search answers the library could not store, kept in memory to be saved again (kept-answers.ts). */
  kept: KeptAnswers;
  /** Whether each profile's service answers, announced as `service.connection` when it changes. */
  connection: ConnectionMonitor;
  /** What each profile has spent, kept from the service's answers (usage-ledgers.ts). */
  usage: UsageLedgers;
  dispose(): Promise<void>;
}

export function createHandlerContext(deps: HandlerDeps): HandlerContext {
  const log = deps.logger.child('handlers');
  const profiles = createProfileStore({ dataDir: deps.dataDir, logger: log });
  const demoSecrets = createMemorySecretStore();
  const files = deps.fileHandles ?? createFileHandles();
  const guard = createCredentialGuard();
  const connection = createConnectionMonitor({
    emit: (change) => deps.events.emit('service.connection', change),
    ...(deps.connectionProbe ? { probe: deps.connectionProbe } : {}),
    ...(deps.connectionProbeEveryMs !== undefined ? { probeEveryMs: deps.connectionProbeEveryMs } : {}),
    ...(deps.connectionQuietAfterMs !== undefined ? { quietAfterMs: deps.connectionQuietAfterMs } : {}),
  });
  const usage = createUsageLedgers(deps.now);

  const secretsFor = (p: Profile) => (p.demo ? demoSecrets : deps.secrets);

  const demo = createDemoRuntime(deps, profiles, demoSecrets, guard);

  // Start-up: the data folder made the analyst's alone, and what a crash left behind swept away.
  const startup = prepareDataFolder(deps.dataDir, log);
  const library = createLibraryHandle(deps.dataDir, { ready: startup, logger: log });

  async function resolveProfile(profileId: string | undefined): Promise<Profile> {
    const id = profileId ?? (await profiles.getActiveId());
    if (id === null) {
      throw new AppError(
        'NoCredentials',
        'No connection profile is selected. Create one in Settings → Connection profiles, or start the demo workspace.',
      );
    }
    const p = await profiles.get(id);
    if (!p)
      throw new AppError(
        'NotFound',
        'That connection profile no longer exists. Choose another one in Settings → Connection profiles.',
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
    return guard.usable(profile, creds);
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
    storeCredentials: async (p, pair) => {
      await secretsFor(p).setCredentials(p.id, boundTo(p.baseUrl, pair));
      usage.forget(p.id);
    },
    protectCredentials: (profileId, creds) => guard.protect(profileId, creds),
    forgetCredentials: (profileId) => {
      guard.forget(profileId);
      usage.forget(profileId);
    },
    toView: (p) => toView(p),
    state,
    demo,
    files,
    library: () => library.get(),
    kept: createKeptAnswers(),
    connection,
    usage,
    async dispose() {
      await startup;
      connection.dispose();
      await demo.stop();
      await files.dispose();
      await library.close();
      guard.forgetAll();
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
