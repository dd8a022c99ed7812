export {
  JobRunner,
  type JobInput,
  type ShipmentJobInput,
  type FirmJobInput,
  type JobRunnerOptions,
} from './runner';
export {
  createJobManager,
  resumableJobs,
  type JobClient,
  type JobManager,
  type JobOwner,
} from './job-manager';
export { RateLimiter, type RateLimits, type LimiterClock } from './rate-limiter';
export {
  RequestPolicy,
  ServiceDidNotAnswer,
  DEFAULT_SERVICE_WAIT_MS,
  type RequestPolicyOptions,
  type RequestWait,
} from './request-policy';
export {
  estimateShipments,
  planShipmentFetch,
  checkQuota,
  type ShipmentEstimate,
  type QuotaCheck,
} from './estimate';
export {
  nextSweepStep,
  carveCut,
  runTotal,
  type FrontierItem,
  type SweepLimits,
  type SweepStep,
} from './planner';
export { splitByFacet, rootWindow, windowKey, type SliceWindow } from './windows';
export type * from './types';
