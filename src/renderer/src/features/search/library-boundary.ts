import type {
  FirmCountRequest,
  FirmSearchRequest,
  ShipmentCountRequest,
  ShipmentSearchRequest,
} from '@shared/spec';
import { libraryChanged } from '../library/library-store';

export type LibraryKind = 'shipments.search' | 'shipments.count' | 'firms.search' | 'firms.count';

/**
 * The one place every search result passes on its way to the offline library. Main already saved the
 * result while answering the search (so the records never cross the bridge twice) and put the
 * dataset's id on the response; this hands that id on and tells the Library page its list is stale.
 * Counts are single numbers, not datasets: they are not kept.
 */
export async function saveToLibrary(
  kind: LibraryKind,
  _request: ShipmentSearchRequest | ShipmentCountRequest | FirmSearchRequest | FirmCountRequest,
  response: unknown,
): Promise<string | null> {
  if (kind !== 'shipments.search' && kind !== 'firms.search') return null;
  const id =
    typeof response === 'object' && response !== null && 'datasetId' in response
      ? (response as { datasetId?: unknown }).datasetId
      : null;
  if (typeof id !== 'string') return null;
  libraryChanged();
  return id;
}
