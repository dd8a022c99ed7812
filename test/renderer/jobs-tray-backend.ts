import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BridgeResult } from '@shared/ipc/errors';
import { createLogger, createMemorySink } from '../../src/main/log';
import { createMemorySecretStore } from '../../src/main/secrets';
import { createServiceClient } from '../../src/main/api';
import { createDispatcher, createHandlers } from '../../src/main/handlers';
import { generateAccount, startSimulator, type SimAccount, type SimFaults } from '../../src/main/sim';

export interface TrayBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
  profileId: string;
  /** Takes the profile's key and secret away, as after a restart on a machine without them. */
  forgetCredentials(): Promise<void>;
  setFaults(f: SimFaults | undefined): void;
  /** The requests the service has admitted so far, read from its own count (the reads not counted). */
  requestsServed(): Promise<number>;
  /** Stops the service, as a restart or a network blip does, until `startService`. */
  stopService(): Promise<void>;
  /** Starts the service again at the same address, with the same data and account. */
  startService(): Promise<void>;
  /** Saves another profile of the same account (named `name`) and returns its id; the active one stays. */
  addProfile(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real handlers (jobs, library, profiles) behind the real dispatcher, over the service simulator,
 * in process, for the jobs tray's renderer test. Secrets are held in memory (no keychain needed).
 */
export async function startTrayBackend(
  opts: {
    limits?: SimAccount['limits'];
    faults?: SimFaults;
    quietAfterMs?: number;
    watchSearchCap?: number;
  } = {},
): Promise<TrayBackend> {
  const account: SimAccount = { ...generateAccount('acme'), ...(opts.limits ? { limits: opts.limits } : {}) };
  const simulator = (port: number) =>
    startSimulator({
      port,
      records: 30_000,
      seed: 5,
      accounts: [account],
      ...(opts.faults ? { faults: opts.faults } : {}),
    });
  let sim = await simulator(0);
  const port = Number(new URL(sim.url).port);
  const dataDir = await mkdtemp(join(tmpdir(), 'portolan-tray-'));
  const logger = createLogger({ sink: createMemorySink() });
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const secrets = createMemorySecretStore();
  const handlers = createHandlers({
    dataDir,
    resourcesDir: join(dataDir, 'resources'),
    logger,
    events: { emit: (event, payload) => listeners.get(event)?.forEach((l) => l(payload)) },
    secrets,
    appInfo: { version: '0.0.0-test', host: 'browser' },
    clientOptions: { timeoutMs: 10_000, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2_000 } },
    connectionProbeEveryMs: 200,
    ...(opts.quietAfterMs !== undefined ? { connectionQuietAfterMs: opts.quietAfterMs } : {}),
    ...(opts.watchSearchCap !== undefined ? { watchSearchCap: opts.watchSearchCap } : {}),
  });
  const dispatch = createDispatcher<'app'>({ handlers, logger, isTrustedSender: () => true });
  const invoke = (channel: string, input: unknown) => dispatch(channel, input, 'app');
  const created = await invoke('profiles.create', {
    name: 'QA sim',
    baseUrl: sim.url,
    accountName: account.name,
    apiKey: account.apiKey,
    apiSecret: account.apiSecret,
  });
  if (!created.ok) throw new Error(`profiles.create: ${created.error.message}`);
  const profileId = (created.value as { id: string }).id;
  await invoke('profiles.setActive', { id: profileId });
  let usageReads = 0;
  return {
    invoke,
    subscribe: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
    profileId,
    forgetCredentials: () => secrets.deleteCredentials(profileId),
    setFaults: (f) => sim.setFaults(f),
    requestsServed: async () => {
      const usage = await createServiceClient({
        baseUrl: sim.url,
        credentials: { apiKey: account.apiKey, apiSecret: account.apiSecret },
      }).usage();
      usageReads++;
      return usage[account.name]!.dailyRequest!.current - usageReads;
    },
    stopService: () => sim.close(),
    startService: async () => {
      sim = await simulator(port);
      // A new service counts from zero.
      usageReads = 0;
    },
    addProfile: async (name) => {
      const r = await invoke('profiles.create', {
        name,
        baseUrl: sim.url,
        accountName: account.name,
        apiKey: account.apiKey,
        apiSecret: account.apiSecret,
      });
      if (!r.ok) throw new Error(`profiles.create: ${r.error.message}`);
      return (r.value as { id: string }).id;
    },
    close: async () => {
      await handlers.dispose();
      await sim.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
