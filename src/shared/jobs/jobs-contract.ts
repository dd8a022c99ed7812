import { z } from 'zod';
import { checkDateOrder, shipmentFilterShape } from '../spec/filter';
import { defineCall } from '../define-call';
import { DATASET_KINDS, datasetNameSchema, type DatasetKind } from '../library/library-contract';

/**
 * Fetch jobs: all pages of a firm search, shipment searches past the 10,000 cap. They run in main and
 * report through the `jobs.progress` / `jobs.finished` events (exports report through them too).
 */

export interface JobProgress {
  jobId: string;
  label: string;
  done: number;
  total: number | null;
  unit: string;
  etaSeconds: number | null;
  // library and jobs: the slicing detail a progress bar shows
  kind?: 'shipments' | 'firms';
  windowsDone?: number;
  windowsKnown?: number;
  recordsStored?: number;
  requestsUsed?: number;
  downloadsUsed?: number;
  /** Set while the job waits for a rate limit. */
  waitingSeconds?: number;
  /** Set while the job waits: when it goes on (epoch ms), for a countdown between events. */
  waitingUntil?: number;
}

export interface JobFinished {
  jobId: string;
  /** `paused`: stopped with what it fetched kept, resumable (by the user, or at a used-up limit). */
  outcome: 'succeeded' | 'failed' | 'cancelled' | 'paused';
  message: string;
  /** The finished dataset (succeeded only). */
  datasetId?: string | null;
}

/** What a fetch-all would cost, next to what the account has left. Null remaining = unlimited or unknown. */
export interface JobEstimateView {
  kind: DatasetKind;
  /** Records (shipments) or pages (firms) to fetch; null when the service gave no total. */
  total: number | null;
  unit: 'records' | 'pages';
  optimumRequests: number | null;
  estimatedRequests: number | null;
  /** Null for firms: the spec does not say how many firms a page holds. */
  estimatedDownloads: number | null;
  remainingDownloads: number | null;
  remainingDailyRequests: number | null;
  enough: boolean;
  problems: string[];
  /** The account the estimate was checked against. */
  account: string | null;
}

export interface JobView {
  id: string;
  kind: DatasetKind;
  label: string;
  status: 'running' | 'interrupted' | 'paused' | 'failed';
  profileId: string | null;
  done: number;
  total: number | null;
  unit: 'records' | 'pages';
  etaSeconds: number | null;
  windowsDone: number | null;
  windowsKnown: number | null;
  recordsStored: number | null;
  error: string | null;
  createdAt: string | null;
}

export interface JobsList {
  running: JobView[];
  resumable: JobView[];
}

const id = z.string().min(1).max(200);
const profileRef = { profileId: id.optional() };

/** The filter of a fetch-all job; a `size`/`page` the search had is accepted and dropped by the job. */
const jobRequest = z
  .strictObject({
    ...shipmentFilterShape,
    size: z.number().int().optional(),
    page: z.number().int().optional(),
  })
  .superRefine(checkDateOrder);

export const jobsCalls = {
  'jobs.estimate': defineCall<JobEstimateView>()(
    z.strictObject({ ...profileRef, kind: z.enum(DATASET_KINDS).default('shipments'), request: jobRequest }),
  ),
  'jobs.start': defineCall<{ jobId: string }>()(
    z.strictObject({
      ...profileRef,
      kind: z.enum(DATASET_KINDS),
      request: jobRequest,
      name: datasetNameSchema.optional(),
    }),
  ),
  'jobs.cancel': defineCall<void>()(z.strictObject({ jobId: id })),
  'jobs.pause': defineCall<void>()(z.strictObject({ jobId: id })),
  'jobs.list': defineCall<JobsList>()(z.undefined()),
  'jobs.resume': defineCall<{ jobId: string }>()(z.strictObject({ jobId: id })),
  'jobs.discard': defineCall<void>()(z.strictObject({ jobId: id })),
};

export interface JobsEvents {
  'jobs.progress': JobProgress;
  'jobs.finished': JobFinished;
}
