import { connect } from 'node:net';
import type { ServiceConnection, ServiceReach } from '@shared/profiles/profiles-contract';

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
  /**
   * How long after a gateway's last "unavailable" answer, with no attempt since, nothing is taken to be
   * asking any more (a refresh cancelled, a job stopped). Default 45 s: longer than a fetch job's or a
   * refresh's longest pause between askings (30 s), with room for the asking itself.
   */
  quietAfterMs?: number;
}

export interface ConnectionMonitor {
  /**
   * The outcome of one attempt to reach a profile's service (see the API client's `onReach`);
   * `message` says why nothing answered.
   */
  report(profileId: string, baseUrl: string, reach: ServiceReach, message?: string): void;
  /**
   * Whether the profile's service at this address has answered since the app started: a service that
   * stops answering then is down or restarting, not set up wrong.
   */
  answeredBefore(profileId: string, baseUrl: string): boolean;
  /**
   * Resolves once the profile's service at this address answers again (a request got through, or a
   * probe found it listening), at once when it is not known to be down (a gateway that answers it is
   * unavailable is no reason to wait here: whoever asks paces its own askings); rejects with an AbortError
   * when `signal` aborts or the monitor is disposed. Waiting costs no request: only the probes run.
   */
  whenAnswers(profileId: string, baseUrl: string, signal?: AbortSignal): Promise<void>;
  /** Stops every probe (shut-down, tests). */
  dispose(): void;
}

/** Why the status bar says the service is not answering while its gateway says it is unavailable. */
const UNAVAILABLE_MESSAGE =
  'The service is not answering: its gateway says it is unavailable for now (a restart or an overload). Portolan asks again until it answers.';
/** The same, once nothing has asked for a while: trying again would no longer be true. */
const UNAVAILABLE_IDLE_MESSAGE =
  'The service was not answering when last asked: its gateway said it was unavailable. Nothing is asking it now; the next search or refresh tells whether it is back.';

/**
 * Main's knowledge of whether each profile's service answers. Any request's outcome (a search, a
 * job's page, a usage read) says so at once; while a service does not answer, it is probed every
 * few seconds with a bare TCP connection — no request, so no quota is spent — and its return is
 * announced as soon as it listens again. A gateway answering that the service is unavailable is
 * announced at its first such answer (the client's retries and a job's pauses come after it), and
 * not probed: its door is open, only the next request's answer tells. Only changes are announced.
 */
export function createConnectionMonitor(opts: ConnectionMonitorOptions): ConnectionMonitor {
  const probe = opts.probe ?? tcpProbe;
  const every = opts.probeEveryMs ?? 2000;
  const quietAfter = opts.quietAfterMs ?? 45_000;
  /** `timer`: the next probe while nothing answers, or the end of the askings while unavailable. */
  interface Known {
    reach: ServiceReach;
    answered: boolean;
    baseUrl: string;
    timer: NodeJS.Timeout | null;
    /** Unavailable, and nothing has asked since `quietAfter`. */
    idle: boolean;
  }
  const state = new Map<string, Known>();
  const waiters = new Set<{ profileId: string; baseUrl: string; done: (error?: Error) => void }>();

  function wake(profileId: string, baseUrl: string): void {
    for (const w of [...waiters]) if (w.profileId === profileId && w.baseUrl === baseUrl) w.done();
  }

  function schedule(profileId: string): void {
    const s = state.get(profileId);
    if (!s || s.reach !== 'no-answer' || s.timer) return;
    s.timer = setTimeout(() => {
      s.timer = null;
      void probe(s.baseUrl, Math.min(every, 3000)).then((ok) => {
        const now = state.get(profileId);
        if (now !== s || now.reach !== 'no-answer') return;
        if (ok) report(profileId, s.baseUrl, 'answered');
        else schedule(profileId);
      });
    }, every);
    // A probe must never keep the process alive.
    s.timer.unref?.();
  }

  const unavailableNews = (profileId: string, idle: boolean): ServiceConnection =>
    idle
      ? { profileId, reachable: false, unavailable: true, idle: true, message: UNAVAILABLE_IDLE_MESSAGE }
      : { profileId, reachable: false, unavailable: true, message: UNAVAILABLE_MESSAGE };

  /** An "unavailable" answer: someone asks, until `quietAfter` passes without another attempt. */
  function asked(profileId: string, s: Known): void {
    if (s.timer) clearTimeout(s.timer);
    s.timer = setTimeout(() => {
      s.timer = null;
      if (state.get(profileId) !== s || s.reach !== 'unavailable' || s.idle) return;
      s.idle = true;
      opts.emit(unavailableNews(profileId, true));
    }, quietAfter);
    s.timer.unref?.();
  }

  function report(profileId: string, baseUrl: string, reach: ServiceReach, message?: string): void {
    const prev = state.get(profileId);
    if (prev && prev.baseUrl === baseUrl && prev.reach === reach) {
      if (reach !== 'unavailable') return;
      asked(profileId, prev);
      // Asked again after a quiet spell (another refresh, a resumed job): Portolan tries again.
      if (prev.idle) {
        prev.idle = false;
        opts.emit(unavailableNews(profileId, false));
      }
      return;
    }
    if (prev?.timer) clearTimeout(prev.timer);
    const same = prev?.baseUrl === baseUrl;
    // Any HTTP answer, a gateway's 503 included, shows something listens at the address.
    const reached = reach !== 'no-answer';
    const next: Known = {
      reach,
      answered: reached || (same && prev.answered),
      baseUrl,
      timer: null,
      idle: false,
    };
    state.set(profileId, next);
    if (reached) wake(profileId, baseUrl);
    // The first news of a profile that answers is no change worth announcing.
    if (prev || reach !== 'answered') {
      opts.emit(
        reach === 'answered'
          ? { profileId, reachable: true, message: null }
          : reach === 'unavailable'
            ? unavailableNews(profileId, false)
            : { profileId, reachable: false, message: message ?? 'The service does not answer.' },
      );
    }
    if (!reached) schedule(profileId);
    if (reach === 'unavailable') asked(profileId, next);
  }

  return {
    report,
    answeredBefore(profileId, baseUrl) {
      const s = state.get(profileId);
      return s !== undefined && s.baseUrl === baseUrl && s.answered;
    },
    whenAnswers(profileId, baseUrl, signal) {
      const s = state.get(profileId);
      if (!s || s.baseUrl !== baseUrl || s.reach !== 'no-answer') return Promise.resolve();
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
