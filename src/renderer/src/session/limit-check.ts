import {
  isUnlimited,
  metricLabel,
  parseSearchedHsCodes,
  remaining,
  USAGE_METRIC_LABELS,
  usedWithNoLimit,
  type UsageMetric,
  type UsageSummary,
} from '@shared/spec';

export type LimitCheck =
  | { state: 'unknown'; account: string | null; message: string }
  | { state: 'unlimited'; account: string; current: number; message: string }
  | {
      state: 'ok' | 'exceeds';
      account: string;
      current: number;
      limit: number;
      left: number;
      message: string;
    };

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Which account a request is counted against: the account it names (the filter's, else the
 * profile's default) when the summary knows it, or the only (or first) account when it names none.
 * A name the summary does not know gives null: the service refuses it, so no other account's
 * figures may stand in for it.
 */
export function pickAccount(summary: UsageSummary | null, accountName: string | undefined): string | null {
  if (!summary) return null;
  const names = Object.keys(summary);
  if (accountName) return names.includes(accountName) ? accountName : null;
  return names[0] ?? null;
}

/** "not one of this profile's accounts: main, eu-desk" when usage is known and lacks the name; else null. */
export function unknownAccountMessage(
  accounts: readonly string[] | undefined,
  accountName: string | undefined,
): string | null {
  if (!accounts || !accountName || accounts.includes(accountName)) return null;
  return `not one of this profile's accounts: ${accounts.length ? accounts.join(', ') : '(the service reported none)'}`;
}

/**
 * Whether spending `amount` of `metric` stays within the account's limit. Shared by every page that
 * warns before an action, so the wording and the arithmetic are the same everywhere.
 */
export function checkLimit(
  summary: UsageSummary | null,
  accountName: string | undefined,
  metric: UsageMetric,
  amount: number,
  unit = 'records',
): LimitCheck {
  const account = pickAccount(summary, accountName);
  const m = account && summary ? summary[account]?.[metric] : undefined;
  const unknownName = summary ? unknownAccountMessage(Object.keys(summary), accountName) : null;
  if (unknownName)
    return { state: 'unknown', account: null, message: `account ${accountName ?? ''} is ${unknownName}` };
  if (!account || !m) {
    return { state: 'unknown', account, message: `Usage for ${metricLabel(metric)} is not known yet` };
  }
  if (isUnlimited(m)) {
    return {
      state: 'unlimited',
      account,
      current: m.current,
      message: `up to ${fmt(amount)} ${unit} — ${usedWithNoLimit(m.current)}`,
    };
  }
  const left = remaining(m);
  const head = `up to ${fmt(amount)} ${unit} — ${fmt(left)} of ${fmt(m.limit)} left`;
  return amount > left
    ? {
        state: 'exceeds',
        account,
        current: m.current,
        limit: m.limit,
        left,
        message: `${head}: this would pass the limit by ${fmt(amount - left)}`,
      }
    : { state: 'ok', account, current: m.current, limit: m.limit, left, message: head };
}

/**
 * Where a metric stands when the cost of the next call is not known in advance (a firm page holds
 * an unstated number of firms): "11 used · no limit" or "489 of 500 left".
 */
export function describeMetric(
  summary: UsageSummary | null,
  accountName: string | undefined,
  metric: UsageMetric,
): LimitCheck {
  // Named as the Usage page labels it, never by the service's endpoint name.
  const label = USAGE_METRIC_LABELS[metric];
  const account = pickAccount(summary, accountName);
  const m = account && summary ? summary[account]?.[metric] : undefined;
  const unknownName = summary ? unknownAccountMessage(Object.keys(summary), accountName) : null;
  if (unknownName)
    return {
      state: 'unknown',
      account: null,
      message: `${label}: account ${accountName ?? ''} is ${unknownName}`,
    };
  if (!account || !m) return { state: 'unknown', account, message: `${label}: usage not known yet` };
  if (isUnlimited(m))
    return {
      state: 'unlimited',
      account,
      current: m.current,
      message: `${label}: ${usedWithNoLimit(m.current)}`,
    };
  const left = remaining(m);
  return {
    state: left <= 0 ? 'exceeds' : 'ok',
    account,
    current: m.current,
    limit: m.limit,
    left,
    message: `${label}: ${fmt(left)} of ${fmt(m.limit)} left`,
  };
}

/** Where a request stands against the account's allowance of distinct HS codes (`searchedHsCodes`). */
export interface HsCodeCheck {
  state: 'ok' | 'exceeds';
  account: string;
  /** Codes the request names that the account has not searched before. */
  fresh: string[];
  /** Distinct codes the account may still add. */
  left: number;
  message: string;
}

/**
 * The HS codes a request names that the account has not searched yet (the service lists those it has in
 * the metric's notes), against what is left of its allowance. Null when nothing new is named, usage is
 * not known, or the allowance is unlimited: there is nothing to warn about.
 */
export function checkHsCodes(
  summary: UsageSummary | null,
  accountName: string | undefined,
  codes: readonly string[],
): HsCodeCheck | null {
  const account = pickAccount(summary, accountName);
  const m = account && summary ? summary[account]?.searchedHsCodes : undefined;
  if (!account || !m || isUnlimited(m)) return null;
  const searched = new Set(parseSearchedHsCodes(m.notes));
  const fresh = [...new Set(codes.map((c) => c.trim()).filter((c) => c && !searched.has(c)))];
  if (fresh.length === 0) return null;
  const left = remaining(m);
  const named = `HS code${fresh.length === 1 ? '' : 's'} ${fresh.join(', ')} ${fresh.length === 1 ? 'is' : 'are'} new to account ${account}`;
  if (fresh.length <= left) {
    return {
      state: 'ok',
      account,
      fresh,
      left,
      message: `${named}: ${fmt(left - fresh.length)} of ${fmt(m.limit)} distinct HS codes left after this`,
    };
  }
  return {
    state: 'exceeds',
    account,
    fresh,
    left,
    message:
      `${named}, which may search ${fmt(m.limit)} distinct HS code${m.limit === 1 ? '' : 's'} and has ${left === 0 ? 'none' : fmt(left)} left: ` +
      `the service would refuse this. Remove ${fmt(fresh.length - left)} of the new codes, or use codes already searched (the Usage page lists them)`,
  };
}
