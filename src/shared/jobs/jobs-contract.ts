import { z } from 'zod';
import { checkDateOrder, shipmentFilterShape } from '../spec/filter';
import { defineCall } from '../define-call';
import { DATASET_KINDS, datasetNameSchema, type DatasetKind } from '../library/library-contract';

/**
 * Background work in main, followed through the `jobs.progress` / `jobs.finished` events: fetch jobs
 * (all pages of a firm search, shipment searches past the 10,000 cap), exports and file imports. `kind`
 * tells them apart: a fetch is cancelled, paused and resumed with the `jobs.*` calls, an export is
 * cancelled with `export.cancel`, an import with `library.cancelImport`.
 */

/** Progress of a fetch job: records (shipments) or pages (firms), with the slicing detail a bar shows. */
export interface FetchProgress {
  kind: DatasetKind;
  jobId: string;
  label: string;
  done: number;
  total: number | null;
  unit: 'records' | 'pages';
  etaSeconds: number | null;
  windowsDone: number;
  /** Windows known so far (done + still to fetch); grows while windows are split. */
  windowsKnown: number;
  recordsStored: number;
  requestsUsed: number;
  downloadsUsed: number;
  /** Set while the job waits for a rate limit. */
  waitingSeconds?: number;
  /** Set while the job waits: when it goes on (epoch ms), for a countdown between events. */
  waitingUntil?: number;
  /**
   * Set while the job waits for a service that stopped answering: since when (epoch ms). It goes on by
   * itself when the service answers again; the next progress event (without it) says so.
   */
  waitingForServiceSince?: number;
}

/** Progress of an export: rows written, then the summary sheets and the finishing of the file. */
export interface ExportProgressEvent {
  kind: 'export';
  jobId: string;
  label: string;
  phase: 'rows' | 'summaries' | 'finishing';
  done: number;
  total: number | null;
  unit: 'rows';
  etaSeconds: number | null;
}

/** Progress of a file import: rows stored so far, of the rows the file holds when known. */
export interface ImportProgressEvent {
  kind: 'import';
  jobId: string;
  label: string;
  done: number;
  total: number | null;
  unit: 'rows';
  etaSeconds: number | null;
  /** What the import is doing beyond storing rows (the file read again row by row), or null. */
  step: string | null;
}

export type JobProgress = FetchProgress | ExportProgressEvent | ImportProgressEvent;

/** How a fetch job ended. */
export interface FetchFinished {
  kind: DatasetKind;
  jobId: string;
  /**
   * `paused`: stopped with what it fetched kept, resumable (by the user, or at a used-up limit);
   * `interrupted`: the same, because the service did not answer for the longest wait.
   */
  outcome: 'succeeded' | 'failed' | 'cancelled' | 'paused' | 'interrupted';
  message: string;
  /** The finished dataset (succeeded only). */
  datasetId: string | null;
}

/** How an export ended; a cancelled or failed one left no file. */
export interface ExportFinished {
  kind: 'export';
  jobId: string;
  outcome: 'succeeded' | 'failed' | 'cancelled';
  message: string;
  /**
   * A failed export whose folder was the problem (it refuses writes, its disk is full): the same
   * export into another folder may succeed.
   */
  anotherFolder?: boolean;
  /** The system's own text of a failure the message says in words, shown small beside it. */
  detail?: string;
}

/** How an import ended; a cancelled or failed one left the library as it was. */
export interface ImportFinished {
  kind: 'import';
  jobId: string;
  outcome: 'succeeded' | 'failed' | 'cancelled';
  message: string;
  /** The imported dataset (succeeded only). */
  datasetId: string | null;
}

export type JobFinished = FetchFinished | ExportFinished | ImportFinished;

/** The dataset a finished job made, if any: a fetch's or an import's; an export makes a file. */
export function finishedDataset(f: JobFinished): string | null {
  switch (f.kind) {
    case 'shipments':
    case 'firms':
    case 'import':
      return f.outcome === 'succeeded' ? f.datasetId : null;
    case 'export':
      return null;
  }
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
  /** True when the estimate spent a request to learn the size; false when a search had already said it. */
  probed: boolean;
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
  /** A running job waiting for a service that stopped answering: since when (epoch ms). */
  waitingForServiceSince?: number;
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
    z.strictObject({
      ...profileRef,
      kind: z.enum(DATASET_KINDS).default('shipments'),
      request: jobRequest,
      /** Records (shipments) or pages (firms) the search of this filter reported: no probe is made. */
      knownTotal: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    }),
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
