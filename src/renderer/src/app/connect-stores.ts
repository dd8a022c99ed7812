import { connectJobsStore } from '../features/jobs/jobs-store';
import { connectLibraryStore } from '../features/library/library-store';
import { connectLastFilter } from '../features/presets/presets-store';
import { connectSearchStore } from '../features/search/search-store';
import { connectUsageStore } from '../session';

/**
 * The composition root of the stores: every reaction of one store to another, or to main's events,
 * is turned on here, once, after the bridge is installed (main.tsx), and never when a module loads.
 * Tests turn on the same reactions (or just the ones they need). Returns the disconnect.
 */
export function connectStores(): () => void {
  const offs = [
    connectUsageStore(),
    connectLibraryStore(),
    connectSearchStore(),
    connectJobsStore(),
    connectLastFilter(),
  ];
  return () => {
    for (const off of offs.reverse()) off();
  };
}
