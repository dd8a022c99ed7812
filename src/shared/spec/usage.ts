export const USAGE_METRICS = [
  'firms/search',
  'firms/count',
  'shipments/search',
  'shipments/count',
  'searchedHsCodes',
  'dailyRequest',
  'minutelyRequest',
] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];

/** Each metric as the Usage page labels it: messages name a metric this way, never by its name in the service. */
export const USAGE_METRIC_LABELS: Record<UsageMetric, string> = {
  'firms/search': 'Firm search (downloads)',
  'firms/count': 'Firm count',
  'shipments/search': 'Shipment search (downloads)',
  'shipments/count': 'Shipment count',
  searchedHsCodes: 'Distinct HS codes searched',
  dailyRequest: 'Requests today',
  minutelyRequest: 'Requests this minute',
};

/** The label of a metric; a metric the spec does not list keeps the service's name. */
export function metricLabel(metric: string): string {
  return (USAGE_METRIC_LABELS as Record<string, string>)[metric] ?? metric;
}

/** `limit` of -1 means unlimited. */
export const UNLIMITED = -1;

export interface MetricSummary {
  current: number;
  limit: number;
  /** `unlimited` for an unlimited metric; for `searchedHsCodes` the searched codes as text. */
  notes?: string;
  [extra: string]: unknown;
}

/** `{ <account name>: { <metric>: summary } }`; metrics the spec does not list are kept too. */
export type UsageSummary = Record<string, Record<string, MetricSummary>>;

export function isUnlimited(m: Pick<MetricSummary, 'limit'>): boolean {
  return m.limit === UNLIMITED;
}

/** A limit with no ceiling, as every page says it (never "unlimited", the service's note). */
export const NO_LIMIT = 'no limit';

/** A metric with no ceiling, as a usage table reads: "50 used · no limit". */
export function usedWithNoLimit(current: number): string {
  return `${current.toLocaleString('en-US')} used · ${NO_LIMIT}`;
}

/** What is left of a metric, or Infinity when it is unlimited. Never negative. */
export function remaining(m: Pick<MetricSummary, 'limit' | 'current'>): number {
  return isUnlimited(m) ? Number.POSITIVE_INFINITY : Math.max(0, m.limit - m.current);
}

/** Splits the `searchedHsCodes` notes text into codes; the spec only says "written as text". */
export function parseSearchedHsCodes(notes: string | undefined): string[] {
  if (!notes || notes === 'unlimited') return [];
  return notes.match(/\d+/g) ?? [];
}
