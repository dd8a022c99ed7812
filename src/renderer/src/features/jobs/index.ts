export { FetchAllDialog } from './fetch-all-dialog';
export { JobsPanel } from './jobs-panel';
export { JobsTray, JobsTrayButton } from './jobs-tray';
export { connectJobToasts } from './job-toasts';
export { connectJobsStore, useJobsStore, useRunningJobIds } from './jobs-store';
