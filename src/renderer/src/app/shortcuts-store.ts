import { defineStore } from '../store';

export interface ShortcutsData {
  /** The keyboard shortcuts list is open. */
  opened: boolean;
}

export interface ShortcutsActions {
  open(): void;
  close(): void;
}

/** Help → Keyboard Shortcuts (Ctrl/⌘+/, or the palette): whether its list is shown. */
export const useShortcutsStore = defineStore<ShortcutsData, ShortcutsActions>({ opened: false }, (set) => ({
  open: () => set({ opened: true }),
  close: () => set({ opened: false }),
}));
