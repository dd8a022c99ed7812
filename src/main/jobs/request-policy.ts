import { metricLabel } from '@shared/spec/usage';
import { RateLimiter } from './rate-limiter';
import { sleep as realSleep } from './sleep';

/** Longest Retry-After a job waits out by itself; a longer one (the daily window) pauses the job. */
const DEFAULT_MAX_WAIT_SECONDS = 300;
/**
 * Longest a job waits for a service that stopped answering (a restart, a network blip) before it
 * stops, resumable: past this the outage is more than a blip, and the analyst should know.
 */
export const DEFAULT_SERVICE_WAIT_MS = 10 * 60_000;

const fmt = (n: number): string => n.toLocaleString('en-US');

/** Thrown before a request that the downloads left cannot pay for: the service would refuse it whole. */
export class OutOfDownloads extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutOfDownloads';
  }
}

/**
 * Thrown when the service has not answered for the longest wait: the job stops with everything kept,
 * as interrupted, to be resumed once the service is back.
 */
export class ServiceDidNotAnswer extends Error {
  constructor(
    message: string,
    readonly waitedMs: number,
  ) {
    super(message);
    this.name = 'ServiceDidNotAnswer';
  }
}

/**
 * Whether an error says no answer came at all (refused, reset, unreachable): the request did not reach
 * the service, so asking again once it listens costs nothing twice. Our own timeout is not one of
 * these: the service may have got the request and be working on a heavy query.
 */
export function noAnswer(e: unknown): boolean {
  const err = e as { kind?: unknown; reason?: unknown };
  return err?.kind === 'NetworkError' && err.reason !== 'timeout';
}

/**
 * Whether an error is an answer that stopped before its end (the connection closed mid-body, or its
 * JSON ends short): served, and charged, but most likely whole when asked again.
 */
export function cutOff(e: unknown): boolean {
  const err = e as { kind?: unknown; cutOff?: unknown };
  return err?.kind === 'BadResponse' && err.cutOff === true;
}

/** What a gateway answers while the service behind it restarts or is overloaded. */
const UNAVAILABLE_STATUS: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * Whether an error is a gateway's 502/503/504 after the client's own few attempts: the service behind
 * it is away (a restart, an overload), as good as one that does not answer, only its door is open.
 */
export function unavailable(e: unknown): boolean {
  const err = e as { kind?: unknown; status?: unknown };
  return err?.kind === 'ServiceError' && typeof err.status === 'number' && UNAVAILABLE_STATUS.has(err.status);
}

/** The 429 an error carries, with its Retry-After; null for any other error. */
export function limitInfo(e: unknown): { retryAfterSeconds: number | undefined } | null {
  const err = e as { kind?: unknown; retryAfterSeconds?: unknown };
  if (err?.kind !== 'LimitExceeded') return null;
  return { retryAfterSeconds: typeof err.retryAfterSeconds === 'number' ? err.retryAfterSeconds : undefined };
}

export interface RequestPolicyOptions {
  /** Client-side request limiter; unlimited when omitted. */
  limiter?: RateLimiter;
  /** Consecutive 429 answers tolerated per request before the job stops (resumable). Default 5. */
  max429Retries?: number;
  /** A Retry-After longer than this (seconds) pauses the job instead of being waited out. Default 300. */
  maxWaitSeconds?: number;
  /** Downloads left of the job's metric when it starts; null or omitted = unlimited or unknown. */
  downloadsLeft?: number | null;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Resolves once the job's service answers again (main's connection monitor, which probes with a bare
   * TCP connect: no request). Without it a request that found no service fails the job at once.
   */
  untilServiceAnswers?: (signal?: AbortSignal) => Promise<void>;
  /** Longest wait for a service that does not answer, in one outage. Default 10 minutes. */
  maxServiceWaitMs?: number;
  /**
   * Cut-off answers asked again within one request before the job stops (resumable). Default 2: a
   * blip is over by then; an answer cut off every time is something else, and each costs downloads.
   */
  maxCutOffRetries?: number;
  /**
   * A gateway answering 502/503/504: the first pause before the request is asked again (doubling per
   * answer, up to 30 s). Default 2 s.
   */
  unavailablePauseMs?: number;
  /** What stops when the longest wait is over, for its message. Default "job". */
  task?: string;
}

/** Longest pause between two askings of a service its gateway says is unavailable. */
const MAX_UNAVAILABLE_PAUSE_MS = 30_000;

/** What a request is sent with: while an unavailable service is waited out, one attempt per asking. */
export interface Attempts {
  maxAttempts?: number;
}

/** What a request waits for, for the job's progress: a rate limit (for how long) or the service (since when). */
export type RequestWait = { rateLimitMs: number } | { serviceSince: number };

/**
 * How a job spends requests: within the account's request rate (the limiter), waiting out short 429s,
 * and never sending a request the downloads left cannot pay for.
 */
export class RequestPolicy {
  private readonly limiter: RateLimiter;
  private readonly max429: number;
  private readonly maxWaitSeconds: number;
  private readonly downloadsLeft: number | null;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly untilServiceAnswers: ((signal?: AbortSignal) => Promise<void>) | null;
  private readonly maxServiceWaitMs: number;
  private readonly maxCutOff: number;
  private readonly unavailablePauseMs: number;
  private readonly task: string;

  constructor(opts: RequestPolicyOptions = {}) {
    this.limiter = opts.limiter ?? RateLimiter.unlimited();
    this.max429 = opts.max429Retries ?? 5;
    this.maxWaitSeconds = opts.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS;
    const left = opts.downloadsLeft;
    this.downloadsLeft =
      left === null || left === undefined || !Number.isFinite(left) ? null : Math.max(0, left);
    this.sleep = opts.sleep ?? realSleep;
    this.untilServiceAnswers = opts.untilServiceAnswers ?? null;
    this.maxServiceWaitMs = Math.max(0, opts.maxServiceWaitMs ?? DEFAULT_SERVICE_WAIT_MS);
    this.maxCutOff = Math.max(0, opts.maxCutOffRetries ?? 2);
    this.unavailablePauseMs = Math.max(1, opts.unavailablePauseMs ?? 2_000);
    this.task = opts.task ?? 'job';
  }

  /**
   * One request within the limits. `waitSignal` ends waits (cancel or pause); the request itself only
   * stops on its own signal, so a pause never throws away an answer the service has already charged for.
   * A request that finds no service is asked again once the service answers, up to the longest wait;
   * one a gateway says is unavailable (502/503/504, after the client's own attempts) is waited out the
   * same way, asked again once per pause (a pause that grows), as one attempt: no TCP probe can tell a
   * gateway's service is back, and the service offers no free request that could, so each asking is
   * the job's own request and nothing else is sent meanwhile. One whose answer is cut off is asked
   * again at once, a few times at most.
   */
  async call<T>(
    fn: (attempts: Attempts) => Promise<T>,
    waitSignal: AbortSignal | undefined,
    /** A wait begins (a rate limit, the service gone), or, with null, the service answers again. */
    onWait: (wait: RequestWait | null) => void,
    /**
     * An answer came cut off and is about to be asked for again: the caller counts what it cost (the
     * service charged it) and throws to stop instead (its downloads left cannot pay for another).
     */
    onCutOff?: () => void,
  ): Promise<T> {
    let refusals = 0;
    let cutOffs = 0;
    let outageSince: number | null = null;
    let pauseMs = 0;
    for (;;) {
      await this.limiter.acquire(waitSignal, (ms) => onWait({ rateLimitMs: ms }));
      try {
        return await fn(pauseMs > 0 ? { maxAttempts: 1 } : {});
      } catch (e) {
        if (noAnswer(e) && this.untilServiceAnswers) {
          outageSince ??= Date.now();
          onWait({ serviceSince: outageSince });
          await this.waitForService(outageSince, waitSignal, this.untilServiceAnswers, 'did not answer');
          // Said at once: the job goes on, though its next step takes a request's time to show.
          onWait(null);
          continue;
        }
        if (unavailable(e)) {
          outageSince ??= Date.now();
          // Still waiting, as far as the job's progress goes, until an answer comes.
          onWait({ serviceSince: outageSince });
          const pause = (pauseMs = Math.min(
            MAX_UNAVAILABLE_PAUSE_MS,
            pauseMs * 2 || this.unavailablePauseMs,
          ));
          await this.waitForService(
            outageSince,
            waitSignal,
            (signal) => this.sleep(pause, signal),
            `was unavailable (status ${(e as { status: number }).status})`,
          );
          continue;
        }
        if (cutOff(e) && cutOffs < this.maxCutOff) {
          cutOffs++;
          onCutOff?.();
          continue;
        }
        const limit = limitInfo(e);
        // A 429 with a short wait: wait and try again. Without one (a download quota is used up) or with
        // a long one (the daily window) waiting here will not help; the job pauses and stays resumable.
        if (
          !limit ||
          limit.retryAfterSeconds === undefined ||
          limit.retryAfterSeconds > this.maxWaitSeconds ||
          refusals >= this.max429
        ) {
          throw e;
        }
        refusals++;
        onWait({ rateLimitMs: limit.retryAfterSeconds * 1000 });
        await this.sleep(limit.retryAfterSeconds * 1000, waitSignal);
      }
    }
  }

  /**
   * Waits until `until` resolves (the service answers again, or the pause before asking it again is
   * over), what is left of the longest wait at most; then throws `ServiceDidNotAnswer`, saying what the
   * service did (`did not answer`). A pause or a cancel ends the wait at once (their AbortError).
   */
  private async waitForService(
    since: number,
    waitSignal: AbortSignal | undefined,
    until: (signal: AbortSignal) => Promise<void>,
    what: string,
  ): Promise<void> {
    const left = this.maxServiceWaitMs - (Date.now() - since);
    const ends = new AbortController();
    const both = waitSignal ? AbortSignal.any([waitSignal, ends.signal]) : ends.signal;
    try {
      const answered =
        left > 0 &&
        (await Promise.race([until(both).then(() => true), this.sleep(left, both).then(() => false)]));
      if (!answered) {
        const waited = Date.now() - since;
        throw new ServiceDidNotAnswer(
          `The service ${what} for ${describeWait(waited)}, so the ${this.task} stopped.`,
          waited,
        );
      }
    } finally {
      // The one that lost the race stops too (its timer, or its place among the monitor's waiters).
      ends.abort();
    }
  }

  /** Downloads this run may still spend, given what it has spent (Infinity when unlimited or unknown). */
  budget(downloadsAtStart: number, downloadsNow: number): number {
    return this.downloadsLeft === null
      ? Number.POSITIVE_INFINITY
      : this.downloadsLeft - (downloadsNow - downloadsAtStart);
  }

  outOfDownloads(
    account: string | null | undefined,
    metric: string,
    left: number,
    needs: number,
  ): OutOfDownloads {
    const forAccount = account ? ` for account ${account}` : '';
    return new OutOfDownloads(
      `${metricLabel(metric)} limit reached${forAccount}: ${fmt(Math.max(0, left))} downloads are left and the next request needs about ${fmt(needs)}.`,
    );
  }
}

/** "10 minutes", "1 minute", "45 seconds". */
function describeWait(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes >= 1) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
