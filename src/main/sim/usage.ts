import { UNLIMITED, USAGE_METRICS, type MetricSummary, type UsageMetric } from '@shared/spec';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** What one admitted request will add; checked against every limit before anything is counted. */
export interface Charge {
  /** The download or count metric of the operation, if any (usage calls charge none). */
  metric?: 'firms/search' | 'firms/count' | 'shipments/search' | 'shipments/count';
  amount?: number;
  hsCodes?: readonly string[];
}

export interface LimitExceeded {
  metric: UsageMetric;
  message: string;
  /** Seconds until the window frees room; only for the per-minute and daily windows. */
  retryAfter?: number;
}

/**
 * Usage of one account. `minutelyRequest` is a rolling window over the last 60 s; `dailyRequest`
 * resets at 00:00 UTC; the download/count metrics and searchedHsCodes never reset.
 */
export class AccountUsage {
  private readonly totals = new Map<UsageMetric, number>();
  private readonly hsCodes = new Set<string>();
  private recent: number[] = [];
  private dayKey = -1;
  private dayCount = 0;

  constructor(
    readonly name: string,
    private readonly limits: Partial<Record<UsageMetric, number>>,
    private readonly now: () => number,
  ) {}

  private limit(metric: UsageMetric): number {
    const l = this.limits[metric];
    return l === undefined ? UNLIMITED : l;
  }

  private roll(t: number): void {
    const cutoff = t - MINUTE_MS;
    let k = 0;
    while (k < this.recent.length && (this.recent[k] as number) <= cutoff) k++;
    if (k > 0) this.recent = this.recent.slice(k);
    const day = Math.floor(t / DAY_MS);
    if (day !== this.dayKey) {
      this.dayKey = day;
      this.dayCount = 0;
    }
  }

  private current(metric: UsageMetric): number {
    switch (metric) {
      case 'minutelyRequest':
        return this.recent.length;
      case 'dailyRequest':
        return this.dayCount;
      case 'searchedHsCodes':
        return this.hsCodes.size;
      case 'shipments/search':
      case 'shipments/count':
      case 'firms/search':
      case 'firms/count':
        return this.totals.get(metric) ?? 0;
    }
  }

  /** The first limit the request would pass, in the order minute, day, HS codes, operation metric. */
  check(charge: Charge): LimitExceeded | null {
    const t = this.now();
    this.roll(t);
    const over = (metric: UsageMetric, add: number): boolean => {
      const l = this.limit(metric);
      return l !== UNLIMITED && this.current(metric) + add > l;
    };
    if (over('minutelyRequest', 1)) {
      const oldest = this.recent[this.recent.length - this.limit('minutelyRequest')] ?? this.recent[0] ?? t;
      return {
        metric: 'minutelyRequest',
        message: `per-minute request limit of ${this.limit('minutelyRequest')} reached`,
        retryAfter: Math.max(1, Math.ceil((oldest + MINUTE_MS - t) / 1000)),
      };
    }
    if (over('dailyRequest', 1)) {
      return {
        metric: 'dailyRequest',
        message: `daily request limit of ${this.limit('dailyRequest')} reached (resets 00:00 UTC)`,
        retryAfter: Math.max(1, Math.ceil(((Math.floor(t / DAY_MS) + 1) * DAY_MS - t) / 1000)),
      };
    }
    if (charge.hsCodes && charge.hsCodes.length > 0) {
      const fresh = new Set(charge.hsCodes.filter((c) => !this.hsCodes.has(c))).size;
      if (fresh > 0 && over('searchedHsCodes', fresh)) {
        return {
          metric: 'searchedHsCodes',
          message: `searching ${fresh} new HS code(s) would pass the limit of ${this.limit('searchedHsCodes')} distinct codes`,
        };
      }
    }
    if (charge.metric && over(charge.metric, charge.amount ?? 0)) {
      const l = this.limit(charge.metric);
      return {
        metric: charge.metric,
        message: `${charge.metric}: ${this.current(charge.metric)} used of ${l}; this request needs ${charge.amount ?? 0} more`,
      };
    }
    return null;
  }

  /** Counts an admitted request. Call only after `check` returned null for the same charge. */
  record(charge: Charge): void {
    const t = this.now();
    this.roll(t);
    this.recent.push(t);
    this.dayCount++;
    for (const code of charge.hsCodes ?? []) this.hsCodes.add(code);
    if (charge.metric)
      this.totals.set(charge.metric, (this.totals.get(charge.metric) ?? 0) + (charge.amount ?? 0));
  }

  summary(): Record<UsageMetric, MetricSummary> {
    this.roll(this.now());
    const out = {} as Record<UsageMetric, MetricSummary>;
    for (const metric of USAGE_METRICS) {
      const limit = this.limit(metric);
      const m: MetricSummary = { current: this.current(metric), limit };
      if (metric === 'searchedHsCodes') m.notes = [...this.hsCodes].join(',');
      else if (limit === UNLIMITED) m.notes = 'unlimited';
      out[metric] = m;
    }
    return out;
  }
}
