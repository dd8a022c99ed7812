import type { FirmCountRequest, FirmSearchRequest, ShipmentCountRequest, ShipmentSearchRequest } from '@shared/spec';

export type LibraryKind = 'shipments.search' | 'shipments.count' | 'firms.search' | 'firms.count';

/**
 * The one place every search result passes on its way to the offline library. The library lands
 * separately; until then this keeps nothing and returns null (no library entry id).
 */
export async function saveToLibrary(_kind: LibraryKind, _request: ShipmentSearchRequest | ShipmentCountRequest | FirmSearchRequest | FirmCountRequest, _response: unknown): Promise<string | null> {
  return null;
}
