import { MIN_KEYWORD_LENGTH, type ShipmentCountResponse } from '@shared/spec';
import type { BridgeResult } from '@shared/ipc/errors';
import { api } from '../../bridge/api';
import { useAppStore } from '../../app/app-store';
import { filterStore, type FilterStore } from '../filters/filter-store';
import { refreshUsage } from '../usage/usage-store';
import { saveToLibrary } from '../search/library-boundary';

export type PartyRole = 'importer' | 'exporter';

/**
 * The spec's search has no firm-code filter, so "this firm's shipments" is approximated by the
 * firm-name keyword of its role. The notice says so, because other firms with similar names match too.
 */
export function openShipmentsOf(role: PartyRole, name: string, store: FilterStore = filterStore): void {
  const field = role === 'importer' ? 'importer_firm' : 'exporter_firm';
  const trimmed = name.trim();
  const short = Array.from(trimmed).length < MIN_KEYWORD_LENGTH;
  store.getState().load(
    { [field]: trimmed },
    `Shipments of ${role} “${trimmed}”: the service cannot search by firm code, so this filter matches the ${role} name (${field}), which can also match other firms with similar names.` +
      (short ? ` The name is shorter than ${MIN_KEYWORD_LENGTH} characters, which the service does not accept: add to it or use another filter.` : ''),
  );
  useAppStore.getState().navigate('search');
}

/** shipments.count needs a UrlCode, which only shipment party fields carry. */
export async function countShipmentsOf(urlCode: string): Promise<BridgeResult<ShipmentCountResponse>> {
  const request = { firm: urlCode };
  const r = await api.shipments.count({ request });
  if (r.ok) await saveToLibrary('shipments.count', request, r.value);
  void refreshUsage();
  return r;
}
