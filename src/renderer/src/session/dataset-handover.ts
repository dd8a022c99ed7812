import type { EquivalentView, GridFilterModel } from '@shared/library/library-contract';
import { getApi } from '../bridge/api';
import { defineStore } from '../store';
import { useSessionStore } from './session-store';

/** A dataset to open in the Library, with the grid filter it opens with (a drill-down, an offer). */
export interface DatasetRequest {
  id: string;
  filterModel: GridFilterModel | null;
  label: string | null;
}

export interface DatasetHandoverData {
  /** The last dataset asked for; the Library store opens it (connectLibraryStore) as it arrives. */
  request: DatasetRequest | null;
}

export interface DatasetHandoverActions {
  /** From anywhere (a search page's offer, the jobs tray): go to the Library page with a dataset open. */
  showDataset(id: string, opts?: { filterModel?: GridFilterModel | null; label?: string | null }): void;
}

/** The hand-over of "open this dataset in the Library" from any page, without importing the Library. */
export const useDatasetHandover = defineStore<DatasetHandoverData, DatasetHandoverActions>(
  { request: null },
  (set) => ({
    showDataset(id, opts = {}) {
      set({ request: { id, filterModel: opts.filterModel ?? null, label: opts.label ?? null } });
      useSessionStore.getState().navigate('library');
    },
  }),
);

export const showDataset: DatasetHandoverActions['showDataset'] = (id, opts) =>
  useDatasetHandover.getState().showDataset(id, opts);

/**
 * Opens an offered saved copy after checking it is still in the library (it may have been deleted
 * since it was offered); if it is gone, opens the copy `findAgain` finds instead. Resolves to the
 * copy opened, or null when no copy answers any more.
 */
export async function openSavedCopy(
  offer: EquivalentView,
  findAgain: () => Promise<EquivalentView | null>,
): Promise<EquivalentView | null> {
  const r = await getApi().library.get({ id: offer.dataset.id });
  const copy = r.ok || r.error.kind !== 'NotFound' ? offer : await findAgain();
  if (copy) showDataset(copy.dataset.id);
  return copy;
}

/** Calls `listener` with the id of every dataset main reports deleted; returns the unsubscribe. */
export function onDatasetRemoved(listener: (id: string) => void): () => void {
  return getApi().on('library.changed', (c) => {
    if (c.change === 'removed') listener(c.datasetId);
  });
}
