import { metricLabel } from '@shared/spec/usage';
import { RateLimiter } from './rate-limiter';
import { sleep as realSleep } from './sleep';

/** Longest Retry-After a job waits out by itself; a longer one (the daily window) pauses the job. */
const DEFAULT_MAX_WAIT_SECONDS = 300;

const fmt = (n: number): string => n.toLocaleString('en-US');

/** Thrown before a request that the downloads left cannot pay for: the service would refuse it whole. */
export class OutOfDownloads extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutOfDownloads';
  }
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
}

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

  constructor(opts: RequestPolicyOptions = {}) {
    this.limiter = opts.limiter ?? RateLimiter.unlimited();
    this.max429 = opts.max429Retries ?? 5;
    this.maxWaitSeconds = opts.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS;
    const left = opts.downloadsLeft;
    this.downloadsLeft =
      left === null || left === undefined || !Number.isFinite(left) ? null : Math.max(0, left);
    this.sleep = opts.sleep ?? realSleep;
  }

  /**
   * One request within the limits. `waitSignal` ends waits (cancel or pause); the request itself only
   * stops on its own signal, so a pause never throws away an answer the service has already charged for.
   */
  async call<T>(
    fn: () => Promise<T>,
    waitSignal: AbortSignal | undefined,
    onWait: (ms: number) => void,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.limiter.acquire(waitSignal, onWait);
      try {
        return await fn();
      } catch (e) {
        const limit = limitInfo(e);
        // A 429 with a short wait: wait and try again. Without one (a download quota is used up) or with
        // a long one (the daily window) waiting here will not help; the job pauses and stays resumable.
        if (
          !limit ||
          limit.retryAfterSeconds === undefined ||
          limit.retryAfterSeconds > this.maxWaitSeconds ||
          attempt >= this.max429
        ) {
          throw e;
        }
        onWait(limit.retryAfterSeconds * 1000);
        await this.sleep(limit.retryAfterSeconds * 1000, waitSignal);
      }
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
