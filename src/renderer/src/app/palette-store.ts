import { spotlight } from '@mantine/spotlight';
import type { DatasetView } from '@shared/library/library-contract';
import { getApi } from '../bridge/api';
import { usePresetsStore } from '../features/presets';
import { useWatchStore } from '../features/watch';
import { defineStore, latestWins } from '../store';

/** The palette's search box, by which the store finds the palette on the page. */
export const PALETTE_SEARCH = 'command-palette-search';

export interface PaletteData {
  /** Every dataset of the library (the Library page's list may be narrowed by its own search). */
  datasets: DatasetView[];
}

export interface PaletteActions {
  /** Opens the palette, remembering where the focus was so that Escape can give it back. */
  open(): void;
  /** Reads what the palette lists afresh: the library's datasets and watched queries, and the presets if not read yet. */
  refresh(): Promise<void>;
  /** An entry was chosen: it runs once the palette has gone (`exited`), and keeps the focus it moves to. */
  choose(run: () => void): void;
  /** The palette began to close: closed without a choice (Escape, a click outside), the focus goes back. */
  closed(): void;
  /** The palette has gone from the screen: the chosen entry, if any, runs now. */
  exited(): void;
}

/** What the command palette lists besides the command table: read each time it opens. */
export const usePaletteStore = defineStore<PaletteData, PaletteActions>(
  { datasets: [] },
  (set, _get, { onReset }) => {
    const lists = latestWins();
    // The element that had the focus when the palette opened. Mantine's own focus return reads it in an
    // effect after the open, which on a busy machine can run after the palette's search box has taken the
    // focus: the palette then gave the focus back to its own, removed, search box.
    let opener: HTMLElement | null = null;
    let chosen: (() => void) | null = null;
    onReset(() => {
      lists.supersede();
      opener = null;
      chosen = null;
    });
    return {
      open() {
        const active = document.activeElement;
        opener = active instanceof HTMLElement && active !== document.body ? active : null;
        chosen = null;
        spotlight.open();
      },
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
      choose(run) {
        chosen = run;
      },
      closed() {
        if (chosen === null && opener?.isConnected) opener.focus({ preventScroll: true });
      },
      exited() {
        const run = chosen;
        const back = opener;
        chosen = null;
        opener = null;
        if (run) {
          run();
          return;
        }
        // The focus trap's delayed focus can still land in the closing palette after `closed` (its timer runs
        // late on a busy machine): the palette is about to be removed and the focus with it, so it goes back.
        const active = document.activeElement;
        const palette = document
          .querySelector(`[data-testid="${PALETTE_SEARCH}"]`)
          ?.closest('[role="dialog"]');
        const lost = active === null || active === document.body || palette?.contains(active) === true;
        if (lost && back?.isConnected) back.focus({ preventScroll: true });
      },
    };
  },
);
