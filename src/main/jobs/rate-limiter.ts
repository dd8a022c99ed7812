import { AppError } from '@shared/ipc/errors';
import { UNLIMITED, type UsageSummary } from '@shared/spec/usage';
import { sleep as realSleep } from './sleep';

const MINUTE_MS = 60_000;

export interface RateLimits {
  /** Requests per rolling minute; null = unlimited. */
  perMinute: number | null;
  perDay: number | null;
  /** What the usage operation reported as already used when the limiter was made. */
  usedThisMinute?: number;
  usedToday?: number;
}

export interface LimiterClock {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Keeps a job inside the account's `minutelyRequest` and `dailyRequest` limits on the client side, so
 * the service never has to answer 429: a request waits until the rolling minute has room, and the
 * daily limit stops the job (it stays resumable) instead of burning into refusals.
 */
export class RateLimiter {
  private readonly sent: number[] = [];
  private usedToday: number;
  private readonly clock: LimiterClock;

  constructor(
    private readonly limits: RateLimits,
    clock: Partial<LimiterClock> = {},
  ) {
    this.clock = { now: clock.now ?? Date.now, sleep: clock.sleep ?? realSleep };
    this.usedToday = limits.usedToday ?? 0;
    // Requests the service already counted in this minute: assume they were just made (the safe side).
    const t = this.clock.now();
    for (let i = 0; i < (limits.usedThisMinute ?? 0); i++) this.sent.push(t);
  }

  /** Limits of one account from a usage summary (the first account when none is named). */
  static fromUsage(usage: UsageSummary, account?: string | null, clock?: Partial<LimiterClock>): RateLimiter {
    const name = account && usage[account] ? account : Object.keys(usage)[0];
    const metrics = name ? usage[name] : undefined;
    const lim = (m: { limit: number } | undefined): number | null =>
      !m || m.limit === UNLIMITED || m.limit < 0 ? null : m.limit;
    const minute = metrics?.minutelyRequest;
    const day = metrics?.dailyRequest;
    return new RateLimiter(
      {
        perMinute: lim(minute),
        perDay: lim(day),
        usedThisMinute: minute?.current ?? 0,
        usedToday: day?.current ?? 0,
      },
      clock,
    );
  }

  static unlimited(): RateLimiter {
    return new RateLimiter({ perMinute: null, perDay: null });
  }

  /** Requests left today, or null when unlimited. */
  remainingToday(): number | null {
    return this.limits.perDay === null ? null : Math.max(0, this.limits.perDay - this.usedToday);
  }

  /** How long the next request would have to wait, in ms (0 = now). */
  waitMs(): number {
    const { perMinute } = this.limits;
    if (perMinute === null) return 0;
    const t = this.clock.now();
    while (this.sent.length > 0 && this.sent[0]! <= t - MINUTE_MS) this.sent.shift();
    if (this.sent.length < perMinute) return 0;
    return this.sent[this.sent.length - perMinute]! + MINUTE_MS - t;
  }

  /**
   * Resolves when one more request may be sent and counts it. Throws `LimitExceeded` when the daily
   * limit is used up; `onWait` hears how long a wait for the minute window will take.
   */
  async acquire(signal?: AbortSignal, onWait?: (ms: number) => void): Promise<void> {
    if (this.limits.perDay !== null && this.usedToday >= this.limits.perDay) {
      throw new AppError(
        'LimitExceeded',
        `The account's daily request limit (${this.limits.perDay}) is used up. The job is paused and can be resumed tomorrow.`,
      );
    }
    for (;;) {
      const wait = this.waitMs();
      if (wait <= 0) break;
      onWait?.(wait);
      await this.clock.sleep(wait, signal);
    }
    this.sent.push(this.clock.now());
    this.usedToday++;
  }
}
