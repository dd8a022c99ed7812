import {
  MIN_KEYWORD_LENGTH,
  type FirmSearchRequest,
  type ShipmentCountResponse,
  type ShipmentFilter,
} from '@shared/spec';
import type { BridgeResult } from '@shared/ipc/errors';
import { getApi } from '../../bridge/api';
import { useSessionStore } from '../../session';
import { FIELD_LABELS, filterStore, type FilterStore } from '../filters';
import { useSearchStore } from './search-store';

export type PartyRole = 'importer' | 'exporter';

/**
 * The filter of the firm search a firm was listed by, without its page. Every field means the same in a
 * shipment search (the spec gives both operations the one filter, and firm search lists the firms of
 * the matching shipments), so the shipments it finds are the ones behind the firm's row.
 */
export function firmSearchFilter(request: FirmSearchRequest): ShipmentFilter {
  const { page: _page, ...filter } = request;
  return filter;
}

const fmtList = (v: readonly (string | number)[] | undefined) => (v && v.length ? v.join(', ') : null);

/** The carried filters in a few words, so the banner says what narrows the search besides the name. */
function describeCarried(f: ShipmentFilter, field: 'importer_firm' | 'exporter_firm'): string[] {
  const parts: string[] = [];
  if (f.start_date || f.end_date)
    parts.push(
      f.start_date && f.end_date
        ? `dates ${f.start_date} to ${f.end_date}`
        : f.start_date
          ? `from ${f.start_date}`
          : `until ${f.end_date}`,
    );
  const imp = fmtList(f.importer_countries);
  if (imp) parts.push(`${FIELD_LABELS.importer_countries} ${imp}`);
  const exp = fmtList(f.exporter_countries);
  if (exp) parts.push(`${FIELD_LABELS.exporter_countries} ${exp}`);
  const hs = fmtList(f.hs_codes);
  if (hs) parts.push(`${FIELD_LABELS.hs_codes} ${hs}`);
  const types = fmtList(f.firm_filter);
  if (types)
    parts.push(`${FIELD_LABELS.firm_filter} ${types}${f.search_type ? ` (as ${f.search_type})` : ''}`);
  for (const k of [
    'product_detail',
    'importer_firm',
    'exporter_firm',
    'brand_name',
    'arrival_port',
    'departure_port',
  ] as const) {
    // Named as the form labels them (Product description “steel”), never by the service's field names.
    if (k !== field && f[k]) parts.push(`${FIELD_LABELS[k]} “${f[k]}”`);
  }
  if (f.account_name) parts.push(`${FIELD_LABELS.account_name} ${f.account_name}`);
  return parts;
}

/**
 * The spec's search has no firm-code filter, so "this firm's shipments" is approximated by the
 * firm-name keyword of its role. The notice says so, because other firms with similar names match too.
 * `within`: the filter the firm was found by (a Firms page row), kept so the search finds the shipments
 * that row stands for; without it (a shipment's party) the search covers all of the firm's shipments.
 * Nothing is fetched here: the analyst runs the search from the Search page, with its cost in view.
 */
export function openShipmentsOf(
  role: PartyRole,
  name: string,
  opts: { within?: ShipmentFilter; store?: FilterStore } = {},
): void {
  const store = opts.store ?? filterStore;
  const field = role === 'importer' ? 'importer_firm' : 'exporter_firm';
  const trimmed = name.trim();
  const short = Array.from(trimmed).length < MIN_KEYWORD_LENGTH;
  const carried = opts.within ? describeCarried(opts.within, field) : [];
  store
    .getState()
    .load(
      { ...opts.within, [field]: trimmed },
      `Shipments of ${role} “${trimmed}”: the service cannot search by firm code, so this filter matches the ${role} name (${FIELD_LABELS[field]}), which can also match other firms with similar names.` +
        (carried.length ? ` Kept from the firm search: ${carried.join('; ')}.` : '') +
        (short
          ? ` The name is shorter than ${MIN_KEYWORD_LENGTH} characters, which the service does not accept: add to it or use another filter.`
          : ''),
    );
  useSearchStore.getState().filterReplaced(`The shipments of ${role} “${trimmed}”`);
  useSessionStore.getState().navigate('search');
}

/** shipments.count needs a UrlCode, which only shipment party fields carry. */
export async function countShipmentsOf(urlCode: string): Promise<BridgeResult<ShipmentCountResponse>> {
  const request = { firm: urlCode };
  const r = await getApi().shipments.count({ request });
  return r;
}
