import type { FirmSearchRequest, ShipmentSearchRequest } from '@shared/spec/operations';
import type { FirmSearchResponse, ShipmentSearchResponse } from '@shared/spec/responses';
import type { FetchProgress } from '@shared/jobs/jobs-contract';
import type { UsageSummary } from '@shared/spec/usage';
import type { JobStatus } from '../library';

/**
 * A request's options: its signal, and fewer attempts than the client makes by itself (one, while a job
 * waits out an unavailable service: the pause between askings is the job's).
 */
export interface SourceCallOptions {
  signal?: AbortSignal;
  maxAttempts?: number;
}

/** What a job needs from a service client; `createServiceClient` (src/main/api) satisfies all three. */
export interface ShipmentSource {
  shipmentSearch(req: ShipmentSearchRequest, opts?: SourceCallOptions): Promise<ShipmentSearchResponse>;
}
export interface FirmSource {
  firmSearch(req: FirmSearchRequest, opts?: SourceCallOptions): Promise<FirmSearchResponse>;
}
export interface UsageSource {
  usage(opts?: { signal?: AbortSignal }): Promise<UsageSummary>;
}

export type JobKind = 'shipments' | 'firms';
export type { JobStatus };

/** A fetch job's progress as the runner reports it; the manager adds the dataset kind for the window. */
export type JobProgressInfo = Omit<FetchProgress, 'kind'>;

export interface JobStats {
  requests: number;
  downloads: number;
  /** ⌈total / 10,000⌉ for shipments, total pages for firms: the fewest requests that could do it. */
  optimumRequests: number | null;
  total: number | null;
  stored: number;
  duplicates: number;
}

export interface JobOutcome {
  jobId: string;
  /**
   * `paused`: stopped with its data kept (by `pause`, or a used-up limit); `interrupted`: stopped with
   * its data kept because the service did not answer for the longest wait. Both resumable.
   */
  status: 'succeeded' | 'cancelled' | 'paused' | 'interrupted' | 'failed';
  /** The finished dataset's id (succeeded only). */
  datasetId: string | null;
  stats: JobStats;
  /** For failed: what went wrong, for a person; the job stays resumable. */
  message: string;
}

export interface JobSummary {
  id: string;
  kind: JobKind;
  label: string;
  status: JobStatus;
  createdAt: string;
  updatedAt: string;
  error: string | null;
  profileId: string | null;
  done: number;
  total: number | null;
  /** Records (or firms) kept in the job's pending data: what discarding it would throw away. */
  stored: number;
}

export interface RunOptions {
  /** Cancel: stops at once and throws away what the job fetched (ask the user first). */
  signal?: AbortSignal;
  /**
   * Pause: stops after the request in flight is stored (a waiting period ends at once) and keeps
   * everything fetched as the job's pending data, resumable later.
   */
  pause?: AbortSignal;
  onProgress?: (p: JobProgressInfo) => void;
  /** Called once the job is persisted, before the first request: the id to cancel or resume it by. */
  onStarted?: (jobId: string) => void;
}
