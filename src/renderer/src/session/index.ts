export {
  callOutcome,
  selectActiveProfile,
  selectShowWelcome,
  useSessionStore,
  type ConnectionState,
  type HostState,
  type SessionActions,
  type SessionData,
  type SessionState,
} from './session-store';
export {
  connectUsageStore,
  currentAccountContext,
  refreshUsage,
  useAccountContext,
  useUsageStore,
  type AccountContext,
  type UsageData,
} from './usage-store';
export {
  checkHsCodes,
  checkLimit,
  describeMetric,
  pickAccount,
  unknownAccountMessage,
  type HsCodeCheck,
  type LimitCheck,
} from './limit-check';
export { useDrillStore, type DrillState } from './drill-store';
export {
  onDatasetRemoved,
  openSavedCopy,
  showDataset,
  useDatasetHandover,
  type DatasetRequest,
} from './dataset-handover';
export { PAGES, isPageId, type PageId } from './pages';
export {
  connectResolutionStore,
  selectReviewCount,
  useResolutionStore,
  type ResolutionData,
} from './resolution-store';
export { connectServiceConnection } from './service-connection';
