import {
  isUnlimited,
  parseSearchedHsCodes,
  remaining,
  type MetricSummary,
  type OperationName,
  type UsageMetric,
  type UsageSummary,
} from '@shared/spec';

/** A request naming more HS codes new to its account than the account may still add. */
export interface HsCodeOverrun {
  account: string;
  /** The codes the request names that the account has not searched yet. */
  fresh: string[];
  /** Distinct codes the account may still add. */
  left: number;
  limit: number;
}

/** The service is asked for usage at most this often; in between, the ledger counts what the app spent. */
export const USAGE_REFRESH_MS = 60_000;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** One request the service answered with 200, as the client saw it. */
export interface AnsweredRequest {
  op: OperationName;
  /** The request body sent; undefined for the usage call, which has none. */
  request: unknown;
  /** The checked answer, or null when a 200 came back unreadable (the service still counted it). */
  response: unknown;
}

/** What an operation's answer adds to its own metric. */
function charge(a: AnsweredRequest): { metric: UsageMetric; amount: number } | null {
  const r = a.response as Record<string, unknown> | null;
  switch (a.op) {
    case 'shipmentSearch':
      return { metric: 'shipments/search', amount: Array.isArray(r?.shipments) ? r.shipments.length : 0 };
    case 'firmSearch':
      return { metric: 'firms/search', amount: typeof r?.firms_count === 'number' ? r.firms_count : 0 };
    case 'shipmentCount':
      return { metric: 'shipments/count', amount: 1 };
    case 'firmCount':
      return { metric: 'firms/count', amount: 1 };
    case 'usage':
      return null;
  }
}

function field(request: unknown, name: 'account_name' | 'hs_codes'): unknown {
  return typeof request === 'object' && request !== null
    ? (request as Record<string, unknown>)[name]
    : undefined;
}

const dayOf = (t: number): number => Math.floor(t / DAY_MS);

/**
 * What a profile has spent, kept from the answers the service gave rather than asked for again. The
 * usage summary read from the service is the base; every request answered since (usage calls included:
 * the service counts them against `dailyRequest` and `minutelyRequest`) is added to it as the service
 * counts it (docs/simulator.md, "Usage and limits"): downloads by the records an answer holds, counts
 * by one, distinct HS codes by the new codes a request names. The service is read again only when the
 * base is a minute old, or when an answer could not be accounted for (an unreadable 200, a refusal
 * the figures did not foresee).
 */
export class UsageLedger {
  private base: UsageSummary | null = null;
  private baseAt = 0;
  private stale = false;
  /** Requests answered since the base was read: when, and the account they were charged to. */
  private sent: { at: number; account: string }[] = [];
  /** Download and count totals, distinct HS codes: the base plus what was spent since. */
  private spent = new Map<string, Map<UsageMetric, number>>();
  private codes = new Map<string, Set<string>>();
  private inFlight: Promise<UsageSummary> | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The usage summary: the one kept here while it is less than a minute old and nothing spent since is
   * in doubt; otherwise `fetch` asks the service (one request, however many callers ask at once).
   * `fresh` forces a read (a connection test must reach the service).
   */
  async read(fetch: () => Promise<UsageSummary>, opts: { fresh?: boolean } = {}): Promise<UsageSummary> {
    if (!opts.fresh) {
      const kept = this.current();
      if (kept && this.now() - this.baseAt < USAGE_REFRESH_MS) return kept;
    }
    if (!this.inFlight) {
      this.inFlight = fetch()
        .then((summary) => {
          this.rebase(summary);
          return summary;
        })
        .finally(() => {
          this.inFlight = null;
        });
    }
    const summary = await this.inFlight;
    return this.current() ?? summary;
  }

  /**
   * The figures as they stand now with the time of the service read they start from, and from when
   * `read` asks the service again; null when none were read yet or they are in doubt.
   */
  reading(): { usage: UsageSummary; readAt: number; nextReadAt: number } | null {
    const usage = this.current();
    return usage ? { usage, readAt: this.baseAt, nextReadAt: this.baseAt + USAGE_REFRESH_MS } : null;
  }

  /** The figures as they stand now; null when none were read yet or they are in doubt. */
  current(): UsageSummary | null {
    const base = this.base;
    if (!base || this.stale) return null;
    const t = this.now();
    const out: UsageSummary = {};
    for (const [account, metrics] of Object.entries(base)) {
      const mine = this.sent.filter((s) => s.account === account);
      const copy: Record<string, MetricSummary> = {};
      for (const [metric, m] of Object.entries(metrics)) {
        copy[metric] = { ...m, current: this.figure(account, metric, m, mine, t) };
      }
      const hs = copy.searchedHsCodes;
      const codes = this.codes.get(account);
      if (hs && codes) copy.searchedHsCodes = { ...hs, notes: [...codes].join(',') };
      out[account] = copy;
    }
    return out;
  }

  private figure(
    account: string,
    metric: string,
    m: MetricSummary,
    mine: readonly { at: number }[],
    t: number,
  ): number {
    switch (metric) {
      case 'minutelyRequest': {
        // What the service counted before the read leaves its rolling minute within a minute of it.
        const before = t - this.baseAt < MINUTE_MS ? m.current : 0;
        return before + mine.filter((s) => s.at > t - MINUTE_MS).length;
      }
      case 'dailyRequest': {
        const before = dayOf(t) === dayOf(this.baseAt) ? m.current : 0;
        return before + mine.filter((s) => dayOf(s.at) === dayOf(t)).length;
      }
      case 'searchedHsCodes':
        return this.codes.get(account)?.size ?? m.current;
      default:
        return this.spent.get(account)?.get(metric as UsageMetric) ?? m.current;
    }
  }

  /** A request the service answered with 200: counted as the service counts it. */
  answered(a: AnsweredRequest): void {
    const base = this.base;
    if (!base) return;
    const named = field(a.request, 'account_name');
    // The service charges the first of the caller's accounts when a request names none (usage calls too).
    const account = typeof named === 'string' && named ? named : Object.keys(base)[0];
    if (!account || !base[account]) {
      this.stale = true;
      return;
    }
    this.sent.push({ at: this.now(), account });
    if (a.op !== 'usage' && a.response === null) {
      // Served and charged, but how many records it held is not known: read the figures again.
      this.stale = true;
      return;
    }
    const c = charge(a);
    if (c) {
      const totals = this.spent.get(account) ?? new Map<UsageMetric, number>();
      totals.set(c.metric, (totals.get(c.metric) ?? base[account]?.[c.metric]?.current ?? 0) + c.amount);
      this.spent.set(account, totals);
    }
    const hs = field(a.request, 'hs_codes');
    if (Array.isArray(hs) && hs.length > 0) {
      const codes =
        this.codes.get(account) ?? new Set(parseSearchedHsCodes(base[account]?.searchedHsCodes?.notes));
      for (const code of hs) if (typeof code === 'string') codes.add(code);
      this.codes.set(account, codes);
    }
    this.prune();
  }

  /**
   * Whether a request would pass its account's allowance of distinct HS codes (`searchedHsCodes`): the
   * service counts every code any of the four POST operations names and refuses a request that would
   * pass it whole. Null when it would not, or when the figures are not known (nothing to go by).
   */
  hsCodeOverrun(request: unknown): HsCodeOverrun | null {
    const hs = field(request, 'hs_codes');
    if (!Array.isArray(hs) || hs.length === 0) return null;
    const summary = this.current();
    if (!summary) return null;
    const named = field(request, 'account_name');
    const account = typeof named === 'string' && named ? named : Object.keys(summary)[0];
    const m = account ? summary[account]?.searchedHsCodes : undefined;
    if (!account || !m || isUnlimited(m)) return null;
    const searched = new Set(parseSearchedHsCodes(m.notes));
    const fresh = [...new Set(hs.filter((c): c is string => typeof c === 'string' && !searched.has(c)))];
    const left = remaining(m);
    return fresh.length > left ? { account, fresh, left, limit: m.limit } : null;
  }

  /** The service refused a request over a limit the figures said had room: they are read again. */
  refused(): void {
    this.stale = true;
  }

  private rebase(summary: UsageSummary): void {
    this.base = summary;
    this.baseAt = this.now();
    this.stale = false;
    // The read's own request, and any answered while it was on its way, are in the service's figures.
    this.sent = [];
    this.spent = new Map();
    this.codes = new Map();
  }

  private prune(): void {
    const t = this.now();
    if (this.sent.length < 256) return;
    this.sent = this.sent.filter((s) => s.at > t - MINUTE_MS || dayOf(s.at) === dayOf(t));
  }
}
