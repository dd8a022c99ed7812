import { defineStore } from '../../store';

export interface QuickFilterData {
  /** Per grid (or per open dataset): the quick filter's text. Absent: empty. */
  texts: Readonly<Record<string, string>>;
}

export interface QuickFilterActions {
  setText(key: string, text: string): void;
}

/**
 * The grids' quick-filter text, kept for the session: a grid is unmounted when its page is left, and
 * its quick filter must still be there on the way back, like its sort and column filters.
 */
export const useQuickFilterStore = defineStore<QuickFilterData, QuickFilterActions>({ texts: {} }, (set) => ({
  setText(key, text) {
    set((s) => {
      if ((s.texts[key] ?? '') === text) return s;
      const texts = { ...s.texts };
      if (text) texts[key] = text;
      else delete texts[key];
      return { texts };
    });
  },
}));

/** The quick filter of one grid: its text and the setter, as `useState` would give them. */
export function useQuickFilter(key: string): [string, (text: string) => void] {
  const text = useQuickFilterStore((s) => s.texts[key] ?? '');
  const setText = useQuickFilterStore((s) => s.setText);
  return [text, (t: string) => setText(key, t)];
}
