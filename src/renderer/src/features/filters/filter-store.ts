import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { ShipmentFilter } from '@shared/spec';
import {
  draftToFilter,
  emptyDraft,
  filterToDraft,
  tagRefusal,
  validateDraft,
  type FilterDraft,
  type ListField,
  type RunKind,
  type TextField,
  type Validation,
  type ValidationExtra,
} from './filter-model';

export interface FilterState {
  draft: FilterDraft;
  /** Fields the user has left at least once; messages show for these (and all after a run attempt). */
  touched: Partial<Record<keyof FilterDraft, true>>;
  /** Bumped whenever the draft changes, so subscribers (last-filter saving) can debounce cheaply. */
  version: number;
  /** A note shown above the form, e.g. why a firm name was filled in from another page. */
  notice: string | null;
  /** Why the last tag typed into a list was not added; shown until the list or the typed text changes. */
  refused: Partial<Record<ListField, string>>;
  /**
   * What is typed in a list's picker and not added yet: kept here, not in the field, so the run's
   * check sees it (it blocks the run) and Clear filter or a loaded preset empties it with the rest.
   */
  typed: Partial<Record<ListField, string>>;
  /** "More filters" is open: the less common fields are shown. */
  moreOpen: boolean;
  setMoreOpen(open: boolean): void;
  setText(field: TextField, value: string): void;
  setSearchType(value: FilterDraft['search_type']): void;
  /** False when the tag was refused (see `refused`), so the picker keeps the text for correction. */
  addTag(field: ListField, value: string): boolean;
  removeTag(field: ListField, index: number): void;
  /** The text typed into a list's picker changed: a refusal of the earlier text no longer applies. */
  setTyped(field: ListField, text: string): void;
  touch(field: keyof FilterDraft): void;
  reset(): void;
  load(filter: ShipmentFilter, notice?: string | null): void;
  setNotice(notice: string | null): void;
}

export type FilterStore = StoreApi<FilterState>;

export function createFilterStore(initial: FilterDraft = emptyDraft()): FilterStore {
  return createStore<FilterState>()((set, get) => {
    const change = (fn: (d: FilterDraft) => FilterDraft) =>
      set((s) => ({ draft: fn(s.draft), version: s.version + 1 }));
    return {
      draft: initial,
      touched: {},
      refused: {},
      typed: {},
      version: 0,
      notice: null,
      moreOpen: false,
      setMoreOpen: (moreOpen) => set({ moreOpen }),
      setText: (field, value) => change((d) => ({ ...d, [field]: value })),
      setSearchType: (value) => change((d) => ({ ...d, search_type: value })),
      addTag: (field, value) => {
        const v =
          field === 'importer_countries' || field === 'exporter_countries'
            ? value.trim().toUpperCase()
            : value.trim();
        if (!v) return false;
        const refusal = tagRefusal(field, v, get().draft[field], value.trim());
        set((s) => ({
          refused: { ...s.refused, [field]: refusal ?? undefined },
          touched: { ...s.touched, [field]: true },
        }));
        if (refusal) return false;
        // A repeated tag would only waste one of the ten allowed slots.
        change((d) => (d[field].includes(v) ? d : { ...d, [field]: [...d[field], v] }));
        set((s) => ({ typed: { ...s.typed, [field]: undefined } }));
        return true;
      },
      removeTag: (field, index) => {
        set((s) => ({ refused: { ...s.refused, [field]: undefined } }));
        change((d) => ({ ...d, [field]: d[field].filter((_, i) => i !== index) }));
      },
      setTyped: (field, text) =>
        set((s) => ({
          typed: { ...s.typed, [field]: text },
          refused: s.refused[field] ? { ...s.refused, [field]: undefined } : s.refused,
        })),
      touch: (field) => set((s) => (s.touched[field] ? s : { touched: { ...s.touched, [field]: true } })),
      reset: () =>
        set((s) => ({
          draft: emptyDraft(),
          touched: {},
          refused: {},
          typed: {},
          version: s.version + 1,
          notice: null,
        })),
      load: (filter, notice = null) =>
        set((s) => ({
          draft: filterToDraft(filter),
          touched: {},
          refused: {},
          typed: {},
          version: s.version + 1,
          notice,
        })),
      setNotice: (notice) => set({ notice }),
    };
  });
}

/** The one filter shared by the Search and Firms pages, so a filter built on one is there on the other. */
export const filterStore = createFilterStore();

export function useFilter<T>(selector: (s: FilterState) => T, store: FilterStore = filterStore): T {
  return useStore(store, selector);
}

export function currentFilter(store: FilterStore = filterStore): ShipmentFilter {
  return draftToFilter(store.getState().draft);
}

export function validateCurrent(
  kind: RunKind,
  extra: ValidationExtra = {},
  store: FilterStore = filterStore,
): Validation {
  const { draft, typed, refused } = store.getState();
  return validateDraft(draft, kind, { typed, refused, ...extra });
}
