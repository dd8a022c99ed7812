import { afterAll, beforeAll } from 'vitest';
import type { BridgeResult } from '@shared/ipc/errors';
import { setApi } from '../../src/renderer/src/bridge/api';
import { withServiceOutcomes } from '../../src/renderer/src/bridge/service-outcomes';
import { watchCallProfile } from '../../src/renderer/src/features/watch/watch-store';
import { fakeBridge } from './fake-bridge';

/** What ./jobs-tray-backend.ts gives; restated here so this DOM-typed file does not type-check main's modules. */
export interface ServiceBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
  readonly profileId: string;
  setFaults(
    f:
      | {
          errorRate?: number;
          errorStatuses?: number[];
          burst429?: { every: number; count: number; retryAfter?: number };
          seed?: number;
        }
      | undefined,
  ): void;
  requestsServed(): Promise<number>;
  stopService(): Promise<void>;
  startService(): Promise<void>;
  addProfile(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real handlers over the service simulator (./jobs-tray-backend.ts), started once for the calling
 * file's tests and closed after them, behind the window's bridge. `serviceOutcomes`: the bridge as
 * main.tsx installs it, reporting every service call's outcome to the status bar (with the profile
 * each watch call runs with). `events`: main's events reach the window's subscribers.
 */
export function useServiceBackend(opts: {
  serviceOutcomes?: boolean;
  events?: boolean;
  /** How long after a gateway's last "unavailable" answer main takes nothing to be asking any more. */
  quietAfterMs?: number;
  /** Most records one search of a Watched refresh asks for (main's `watchSearchCap`). */
  watchSearchCap?: number;
}): Omit<ServiceBackend, 'close'> {
  let started: ServiceBackend | null = null;
  const now = (): ServiceBackend => {
    if (!started) throw new Error('useServiceBackend: its backend runs only from the file’s beforeAll on');
    return started;
  };
  beforeAll(async () => {
    const backendPath = new URL('./jobs-tray-backend.ts', import.meta.url).pathname;
    const { startTrayBackend } = (await import(/* @vite-ignore */ backendPath)) as {
      startTrayBackend: (o: object) => Promise<ServiceBackend>;
    };
    const backend = await startTrayBackend({
      ...(opts.quietAfterMs !== undefined ? { quietAfterMs: opts.quietAfterMs } : {}),
      ...(opts.watchSearchCap !== undefined ? { watchSearchCap: opts.watchSearchCap } : {}),
    });
    started = backend;
    const api = fakeBridge(
      {},
      {
        fallback: (c, i) => backend.invoke(c, i),
        checkInputs: false,
        ...(opts.events ? { subscribe: (event, listener) => backend.subscribe(event, listener) } : {}),
      },
    ).api;
    setApi(opts.serviceOutcomes ? withServiceOutcomes(api, watchCallProfile) : api);
  }, 60_000);
  afterAll(async () => {
    await started?.close();
    started = null;
  });
  return {
    invoke: (channel, input) => now().invoke(channel, input),
    subscribe: (event, listener) => now().subscribe(event, listener),
    get profileId() {
      return now().profileId;
    },
    setFaults: (f) => now().setFaults(f),
    requestsServed: () => now().requestsServed(),
    stopService: () => now().stopService(),
    startService: () => now().startService(),
    addProfile: (name) => now().addProfile(name),
  };
}
