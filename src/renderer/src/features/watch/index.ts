export { WatchPage } from './watch-page';
export { useWatchStore, type WatchState } from './watch-store';
