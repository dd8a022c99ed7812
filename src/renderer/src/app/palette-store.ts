import type { DatasetView } from '@shared/library/library-contract';
import { getApi } from '../bridge/api';
import { usePresetsStore } from '../features/presets';
import { useWatchStore } from '../features/watch';
import { defineStore, latestWins } from '../store';

export interface PaletteData {
  /** Every dataset of the library (the Library page's list may be narrowed by its own search). */
  datasets: DatasetView[];
}

export interface PaletteActions {
  /** Reads what the palette lists afresh: the library's datasets and watched queries, and the presets if not read yet. */
  refresh(): Promise<void>;
}

/** What the command palette lists besides the command table: read each time it opens. */
export const usePaletteStore = defineStore<PaletteData, PaletteActions>(
  { datasets: [] },
  (set, _get, { onReset }) => {
    const lists = latestWins();
    onReset(() => lists.supersede());
    return {
      async refresh() {
        const presets = usePresetsStore.getState();
        if (!presets.loaded) void presets.load();
        // Read once: the Watched page keeps the list current as watches are added and removed.
        const watch = useWatchStore.getState();
        if (!watch.loaded) void watch.load();
        const turn = lists.begin();
        const r = await getApi().library.list({});
        if (turn.current && r.ok) set({ datasets: r.value });
      },
    };
  },
);
