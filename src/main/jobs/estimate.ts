import { SHIPMENT_SEARCH_MAX_SIZE, SHIPMENT_SEARCH_MIN_SIZE, type ShipmentFilter } from '@shared/spec/filter';
import { remaining, type UsageSummary } from '@shared/spec/usage';
import type { RecordObject } from '../library';
import type { ShipmentSource } from './types';
import { DEFAULT_SLICE_FILL } from './windows';

export interface ShipmentEstimate {
  total: number;
  /** The fewest requests that could fetch it: ⌈total / 10,000⌉. */
  optimumRequests: number;
  /** Requests the slicing job is expected to make, the probe already made included. */
  estimatedRequests: number;
  /** Records the job is expected to download (the total plus probe records). */
  estimatedDownloads: number;
  /** Pass to `JobRunner.startShipments` so the job does not probe the whole filter again. */
  probe: { total: number; shipments: readonly RecordObject[] };
}

/**
 * Asks the service how big a shipment search is with one size-10 probe (the cheapest call there is)
 * and predicts what fetching it all will cost. The prediction assumes records spread evenly over the
 * days; uneven data costs a few more probes.
 */
export async function estimateShipments(
  filter: ShipmentFilter,
  source: ShipmentSource,
  opts: { signal?: AbortSignal; cap?: number; probeSize?: number; fill?: number } = {},
): Promise<ShipmentEstimate> {
  const probeSize = opts.probeSize ?? SHIPMENT_SEARCH_MIN_SIZE;
  const { size: _size, ...rest } = filter as ShipmentFilter & { size?: number };
  const probe = await source.shipmentSearch(
    { ...rest, size: probeSize },
    opts.signal ? { signal: opts.signal } : {},
  );
  return {
    ...planShipmentFetch(probe.total, opts),
    probe: { total: probe.total, shipments: probe.shipments },
  };
}

/**
 * What fetching all `total` records will cost, the job's own size probe included, with no request: the
 * total comes from a search the analyst already ran (or from the probe above).
 */
export function planShipmentFetch(
  total: number,
  opts: { cap?: number; probeSize?: number; fill?: number } = {},
): Omit<ShipmentEstimate, 'probe'> {
  const cap = opts.cap ?? SHIPMENT_SEARCH_MAX_SIZE;
  const probeSize = opts.probeSize ?? SHIPMENT_SEARCH_MIN_SIZE;
  const fill = opts.fill ?? DEFAULT_SLICE_FILL;
  const optimum = Math.max(1, Math.ceil(total / cap));
  let requests = 1;
  let probes = 1;
  if (total > Math.min(total, probeSize)) {
    if (total <= cap) requests += 1;
    else {
      // A sweep of date slices aimed at `fill` of the cap: each cut costs a probe (the last part's
      // total is derived), each slice a fetch; merging and uneven days move this by a few requests.
      const windows = Math.ceil(total / (cap * fill));
      requests += windows - 1 + windows;
      probes += windows - 1;
    }
  }
  return {
    total,
    optimumRequests: optimum,
    estimatedRequests: requests,
    estimatedDownloads: total + probes * probeSize,
  };
}

export interface QuotaCheck {
  /** True when what is left of every relevant limit covers the estimate. */
  enough: boolean;
  remainingDownloads: number;
  remainingDailyRequests: number;
  /** What falls short, for a person. */
  problems: string[];
}

/** Compares an estimate with what is left of the account's limits (from the usage operation). */
export function checkQuota(
  estimate: Pick<ShipmentEstimate, 'estimatedDownloads' | 'estimatedRequests'>,
  usage: UsageSummary,
  account?: string | null,
  metric: 'shipments/search' | 'firms/search' = 'shipments/search',
): QuotaCheck {
  const name = account && usage[account] ? account : Object.keys(usage)[0];
  const m = name ? usage[name] : undefined;
  const downloads = m?.[metric] ? remaining(m[metric]) : Number.POSITIVE_INFINITY;
  const daily = m?.dailyRequest ? remaining(m.dailyRequest) : Number.POSITIVE_INFINITY;
  const problems: string[] = [];
  const fmt = (n: number): string => n.toLocaleString('en-US');
  if (estimate.estimatedDownloads > downloads) {
    problems.push(`needs about ${fmt(estimate.estimatedDownloads)} downloads but ${fmt(downloads)} are left`);
  }
  if (estimate.estimatedRequests > daily) {
    problems.push(`needs about ${fmt(estimate.estimatedRequests)} requests but ${fmt(daily)} are left today`);
  }
  return {
    enough: problems.length === 0,
    remainingDownloads: downloads,
    remainingDailyRequests: daily,
    problems,
  };
}
