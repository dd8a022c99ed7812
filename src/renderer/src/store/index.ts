export { defineStore, resetAllStores, type Resettable, type Store, type StoreTools } from './define-store';
export { latestWins, type LatestWins, type Turn } from './latest-wins';
export { cancellableRuns, type CancellableRuns, type Run, type RunEnd } from './cancellable-runs';
