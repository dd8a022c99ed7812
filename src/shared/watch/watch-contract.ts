import { z } from 'zod';
import { FIRM_GROUPINGS, type Drill, type FirmGrouping } from '../analysis/analysis-contract';
import { defineCall } from '../define-call';
import { shipmentFilterSchema } from '../spec/filter';

/**
 * Watched queries: a saved question (a preset or any filter) whose fetches are snapshots of one
 * dataset. A refresh fetches only the dates after the last snapshot's newest record (from some days
 * before it) and the windows the last snapshot could not fetch whole, and says first what it costs.
 */

/** One snapshot of a watched query, as the list of its history shows it. */
export interface SnapshotView {
  no: number;
  takenAt: string;
  /** `partial`: a window could not be fetched whole (listed in `incomplete`). */
  status: 'complete' | 'partial';
  /** Records in the snapshot. */
  records: number;
  /** Records that arrived with it, and records the service no longer returned. */
  added: number;
  lost: number;
  newestDate: string | null;
  /** Records downloaded and requests made to take it (the cost check included). */
  downloads: number;
  requests: number;
  /** The arrival-date windows it fetched, and those it could not fetch whole, in words. */
  windows: string[];
  incomplete: string[];
}

export interface WatchSummary {
  id: string;
  name: string;
  datasetId: string;
  /** The query in a few words. */
  query: string;
  snapshots: number;
  lastTakenAt: string | null;
  records: number;
  status: 'complete' | 'partial';
}

export interface WatchDetail {
  id: string;
  name: string;
  datasetId: string;
  request: Record<string, unknown>;
  query: string;
  presetId: string | null;
  profileId: string | null;
  /** Days before the newest record held that each refresh fetches again. */
  overlapDays: number;
  createdAt: string;
  snapshots: SnapshotView[];
}

/** What a refresh (or the first snapshot of a new watch) will fetch and cost. */
export interface RefreshPreview {
  previewId: string;
  /** Null for a query not watched yet (its first snapshot). */
  watchId: string | null;
  name: string;
  first: boolean;
  /** The last snapshot's newest arrival date. */
  since: string | null;
  overlapDays: number;
  windows: {
    label: string;
    /** Records the service holds in the window now, and those of them the library holds already. */
    total: number;
    held: number;
    /** Downloads fetching the rest of the window will cost. */
    downloads: number;
  }[];
  /** Spent by the cost check itself (one size-10 search per window, whose records are kept). */
  checkDownloads: number;
  checkRequests: number;
  /**
   * Of those searches, the ones an earlier check of the same question had asked (one stopped partway,
   * or the dialog opened again): their answers were used again, not asked twice.
   */
  checkReused: number;
  /** What the refresh will cost on top. */
  downloads: number;
  requests: number;
  /** False when a window needs more than one search: `downloads` is then the least it costs. */
  exact: boolean;
  expiresAt: string;
}

export interface RefreshOutcome {
  watch: WatchDetail;
  snapshot: SnapshotView;
  /** Downloads the refresh spent after its cost check. */
  fetchDownloads: number;
}

/** What "what changed" groups by: firms in either role, HS subheadings (6 digits), either party's country. */
export const CHANGE_GROUPINGS = [
  'importers',
  'exporters',
  'hs',
  'importerCountries',
  'exporterCountries',
] as const;
export type ChangeGrouping = (typeof CHANGE_GROUPINGS)[number];

export interface ChangeFigures {
  shipmentsBefore: number;
  shipmentsAfter: number;
  /** Records that arrived after the earlier snapshot, and records gone since it. */
  added: number;
  lost: number;
  /** USD FOB and gross weight in kg (units converted) of the records in each snapshot. */
  usdFobBefore: number | null;
  usdFobAfter: number | null;
  kgBefore: number | null;
  kgAfter: number | null;
}

export interface ChangeRow extends ChangeFigures {
  key: string;
  name: string;
  /** A firm's country code. */
  detail: string;
  /** `new`: only in the later snapshot; `lost`: only in the earlier. */
  status: 'new' | 'lost' | 'kept';
  /** The group's rows that arrived, went, or are there; null when none. */
  drillAdded: Drill | null;
  drillLost: Drill | null;
  drillAll: Drill;
}

export interface SnapshotChanges {
  watchId: string;
  datasetId: string;
  from: number;
  to: number;
  fromTakenAt: string;
  toTakenAt: string;
  by: ChangeGrouping;
  firms: FirmGrouping;
  /** Groups only in the later snapshot, only in the earlier, and all. */
  counts: { new: number; lost: number; groups: number };
  totals: ChangeFigures;
  rows: ChangeRow[];
  drillAdded: Drill | null;
  drillLost: Drill | null;
  /** What makes the comparison less than it seems: an incomplete snapshot, in the analyst's words. */
  warnings: string[];
}

/**
 * Why a library dataset cannot be watched, in the analyst's words; null when it can. Only a dataset
 * fetched from the service with a shipment search keeps the query a refresh asks again: an imported
 * file has none, and a firm search has no arrival dates to refresh by.
 */
export function whyNotWatchable(d: {
  kind: 'shipments' | 'firms';
  source: 'fetch' | 'import';
  request: Record<string, unknown>;
}): string | null {
  if (d.source === 'import')
    return 'This dataset was imported from a file, so it has no service query to refresh: run the query on the Search page and watch that instead.';
  if (d.kind !== 'shipments')
    return 'Only shipment datasets can be watched: a firm search has no arrival dates to refresh by.';
  const { size: _size, ...filter } = d.request;
  if (!shipmentFilterSchema.safeParse(filter).success)
    return 'The query this dataset was fetched with is not one the service takes today, so it cannot be refreshed.';
  return null;
}

export const watchTargetSchema = z.union([
  z.strictObject({ watchId: z.string().min(1).max(200) }),
  z.strictObject({
    request: shipmentFilterSchema,
    name: z.string().max(300).optional(),
    presetId: z.string().max(200).nullish(),
  }),
]);
export type WatchTarget = z.output<typeof watchTargetSchema>;

const id = z.string().min(1).max(200);

export const watchCalls = {
  'watch.list': defineCall<WatchSummary[]>()(z.undefined()),
  'watch.get': defineCall<WatchDetail>()(z.strictObject({ id })),
  'watch.preview': defineCall<RefreshPreview>()(watchTargetSchema),
  'watch.refresh': defineCall<RefreshOutcome>()(z.strictObject({ previewId: id })),
  /**
   * Stops the refresh of this preview, a wait for the service included: nothing of it is stored and no
   * further request is sent (the refresh call then fails as Cancelled).
   */
  'watch.cancelRefresh': defineCall<void>()(z.strictObject({ previewId: id })),
  /** Watches a library dataset fetched by a shipment search: its rows are the first snapshot (nothing is fetched). */
  'watch.adopt': defineCall<WatchDetail>()(
    z.strictObject({ datasetId: id, name: z.string().max(300).optional() }),
  ),
  'watch.rename': defineCall<WatchDetail>()(z.strictObject({ id, name: z.string().max(300) })),
  'watch.setOverlap': defineCall<WatchDetail>()(
    z.strictObject({ id, days: z.number().int().min(0).max(366) }),
  ),
  'watch.delete': defineCall<void>()(z.strictObject({ id })),
  'watch.changes': defineCall<SnapshotChanges>()(
    z.strictObject({
      id,
      from: z.number().int().min(1),
      to: z.number().int().min(1),
      by: z.enum(CHANGE_GROUPINGS),
      firms: z.enum(FIRM_GROUPINGS).default('asWritten'),
      limit: z.number().int().min(1).max(20_000).default(500),
    }),
  ),
};

/**
 * A refresh under way: whether it waits for its service (since when, epoch ms), which stopped answering
 * or whose gateway says it is unavailable; null once it answers again and the refresh goes on.
 */
export interface RefreshProgress {
  previewId: string;
  waitingForServiceSince: number | null;
}

export interface WatchEvents {
  'watch.progress': RefreshProgress;
}
