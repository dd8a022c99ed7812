import { connect } from 'node:net';
import type { ServiceConnection } from '@shared/profiles/profiles-contract';

/** Whether something listens at an address: one TCP connection, opened and closed, no request sent. */
export type Probe = (baseUrl: string, timeoutMs: number) => Promise<boolean>;

export const tcpProbe: Probe = (baseUrl, timeoutMs) =>
  new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      resolve(false);
      return;
    }
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = connect({ host, port });
    const done = (ok: boolean): void => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });

export interface ConnectionMonitorOptions {
  /** Announces a change of a profile's connection (the window's status bar follows it). */
  emit: (change: ServiceConnection) => void;
  probe?: Probe;
  /** How often an unreachable service is probed again. */
  probeEveryMs?: number;
}

export interface ConnectionMonitor {
  /** The outcome of one attempt to reach a profile's service (see the API client's `onReach`). */
  report(profileId: string, baseUrl: string, reached: boolean, message?: string): void;
  /**
   * Whether the profile's service at this address has answered since the app started: a service that
   * stops answering then is down or restarting, not set up wrong.
   */
  answeredBefore(profileId: string, baseUrl: string): boolean;
  /**
   * Resolves once the profile's service at this address answers again (a request got through, or a
   * probe found it listening), at once when it is not known to be down; rejects with an AbortError
   * when `signal` aborts or the monitor is disposed. Waiting costs no request: only the probes run.
   */
  whenAnswers(profileId: string, baseUrl: string, signal?: AbortSignal): Promise<void>;
  /** Stops every probe (shut-down, tests). */
  dispose(): void;
}

/**
 * Main's knowledge of whether each profile's service answers. Any request's outcome (a search, a
 * job's page, a usage read) says so at once; while a service does not answer, it is probed every
 * few seconds with a bare TCP connection — no request, so no quota is spent — and its return is
 * announced as soon as it listens again. Only changes are announced.
 */
export function createConnectionMonitor(opts: ConnectionMonitorOptions): ConnectionMonitor {
  const probe = opts.probe ?? tcpProbe;
  const every = opts.probeEveryMs ?? 2000;
  const state = new Map<
    string,
    { reachable: boolean; answered: boolean; baseUrl: string; timer: NodeJS.Timeout | null }
  >();
  const waiters = new Set<{ profileId: string; baseUrl: string; done: (error?: Error) => void }>();

  function wake(profileId: string, baseUrl: string): void {
    for (const w of [...waiters]) if (w.profileId === profileId && w.baseUrl === baseUrl) w.done();
  }

  function schedule(profileId: string): void {
    const s = state.get(profileId);
    if (!s || s.reachable || s.timer) return;
    s.timer = setTimeout(() => {
      s.timer = null;
      void probe(s.baseUrl, Math.min(every, 3000)).then((ok) => {
        const now = state.get(profileId);
        if (now !== s || now.reachable) return;
        if (ok) report(profileId, s.baseUrl, true);
        else schedule(profileId);
      });
    }, every);
    // A probe must never keep the process alive.
    s.timer.unref?.();
  }

  function report(profileId: string, baseUrl: string, reached: boolean, message?: string): void {
    const prev = state.get(profileId);
    if (prev && prev.baseUrl !== baseUrl && prev.timer) clearTimeout(prev.timer);
    if (prev && prev.baseUrl === baseUrl && prev.reachable === reached) return;
    const same = prev?.baseUrl === baseUrl;
    const next = {
      reachable: reached,
      answered: reached || (same && prev.answered),
      baseUrl,
      timer: same ? prev.timer : null,
    };
    state.set(profileId, next);
    if (reached && next.timer) {
      clearTimeout(next.timer);
      next.timer = null;
    }
    if (reached) wake(profileId, baseUrl);
    // The first news of a profile that answers is no change worth announcing.
    if (prev || !reached) {
      opts.emit({
        profileId,
        reachable: reached,
        message: reached ? null : (message ?? 'The service does not answer.'),
      });
    }
    if (!reached) schedule(profileId);
  }

  return {
    report,
    answeredBefore(profileId, baseUrl) {
      const s = state.get(profileId);
      return s !== undefined && s.baseUrl === baseUrl && s.answered;
    },
    whenAnswers(profileId, baseUrl, signal) {
      const s = state.get(profileId);
      if (!s || s.baseUrl !== baseUrl || s.reachable) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          profileId,
          baseUrl,
          done: (error?: Error) => {
            waiters.delete(waiter);
            signal?.removeEventListener('abort', onAbort);
            if (error) reject(error);
            else resolve();
          },
        };
        const onAbort = (): void => waiter.done(abortError('The wait for the service was stopped.'));
        if (signal?.aborted) {
          onAbort();
          return;
        }
        waiters.add(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    dispose() {
      for (const s of state.values()) if (s.timer) clearTimeout(s.timer);
      state.clear();
      // Nothing will tell them any more: whoever waits stops as if stopped by hand.
      for (const w of [...waiters]) w.done(abortError('Portolan is shutting down.'));
    },
  };
}

function abortError(message: string): Error {
  return Object.assign(new Error(message), { name: 'AbortError' });
}
