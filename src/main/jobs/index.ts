export {
  JobRunner,
  committedRows,
  type JobInput,
  type ShipmentJobInput,
  type FirmJobInput,
  type JobRunnerOptions,
} from './runner';
export { RateLimiter, type RateLimits, type LimiterClock } from './rate-limiter';
export { estimateShipments, checkQuota, type ShipmentEstimate, type QuotaCheck } from './estimate';
export { splitByFacet, rootWindow, windowKey, type SliceWindow } from './windows';
export type * from './types';
