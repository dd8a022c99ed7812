/**
 * Watched queries: a saved question whose fetches are snapshots of one dataset, refreshed by fetching
 * only what is new (plan, fetch-window) and compared snapshot by snapshot.
 */
export { createWatchService, PREVIEW_TTL_MS, type WatchContext, type WatchService } from './watch-service';
export {
  DEFAULT_OVERLAP_DAYS,
  addDays,
  describeWindow,
  mergeWindows,
  refreshWindows,
  snapshotWarnings,
} from './plan';
export { fetchRest, plannedDownloads, probeWindow, windowFilter, type ShipmentSource } from './fetch-window';
