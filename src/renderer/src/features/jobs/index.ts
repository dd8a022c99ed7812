export { FetchAllDialog } from './fetch-all-dialog';
export { JobsPanel } from './jobs-panel';
export { connectJobsStore, useJobsStore, useRunningJobIds } from './jobs-store';
