export { FetchAllDialog } from './fetch-all-dialog';
export { JobsPanel, useNow } from './jobs-panel';
export { JobsTray, JobsTrayButton } from './jobs-tray';
export { connectJobToasts } from './job-toasts';
export { connectJobsStore, describeSeconds, useJobsStore, useRunningJobIds } from './jobs-store';
