export { WatchPage } from './watch-page';
export { WatchDatasetButton } from './watch-dataset-button';
export { connectWatchStore, useWatchStore, watchCallProfile, type WatchState } from './watch-store';
