import { connectAnalysisStore } from '../features/analysis';
import { connectResolvedFirmsStore, connectReviewStore } from '../features/firms';
import { connectJobToasts, connectJobsStore } from '../features/jobs';
import { connectLibraryStore } from '../features/library';
import { connectLastFilter } from '../features/presets';
import { connectSearchStore } from '../features/search';
import { connectWatchStore } from '../features/watch';
import { connectResolutionStore, connectServiceConnection, connectUsageStore } from '../session';

/**
 * The composition root of the stores: every reaction of one store to another, or to main's events,
 * is turned on here, once, after the bridge is installed (main.tsx), and never when a module loads.
 * Tests turn on the same reactions (or just the ones they need). Returns the disconnect.
 */
export function connectStores(): () => void {
  const offs = [
    connectUsageStore(),
    connectServiceConnection(),
    connectLibraryStore(),
    connectSearchStore(),
    connectJobsStore(),
    connectJobToasts(),
    connectLastFilter(),
    connectResolutionStore(),
    connectResolvedFirmsStore(),
    connectReviewStore(),
    connectAnalysisStore(),
    connectWatchStore(),
  ];
  return () => {
    for (const off of offs.reverse()) off();
  };
}
