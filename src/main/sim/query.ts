import { ALL_COUNTRIES, type SearchType, type ShipmentFilter } from '@shared/spec';
import { DATA_DAYS, SimData, type SimFirm } from './dataset';

/** Firms per page of a firm search (the spec does not say; documented in docs/simulator.md). */
export const FIRM_PAGE_SIZE = 100;

/**
 * A filter turned into per-table masks: every condition on a firm, HS code, port, product or brand is
 * decided once per table entry, so the scan over the records is a handful of typed-array lookups.
 * `null` means "no condition".
 */
interface Compiled {
  from: number;
  to: number;
  importer: Uint8Array | null;
  exporter: Uint8Array | null;
  hs: Uint8Array | null;
  arrivalPort: Uint8Array | null;
  departurePort: Uint8Array | null;
  product: Uint8Array | null;
  brand: Uint8Array | null;
  /** Shipment count: the firm that must be the importer or the exporter. */
  firm: number;
  /** A growing simulator: each record's publication day, and the last day published (else null). */
  published: Uint16Array | null;
  asOf: number;
}

export interface FirmPage {
  total_shipment: number;
  total_pages: number;
  page: number;
  firms_count: number;
  firms: FirmOut[];
}

export interface FirmOut {
  country: string;
  country_code: string;
  name: string;
  address: string;
  city_state: string;
  tel: string;
  e_mail: string;
  web: string;
  firm_type: number;
  shipment_count: number;
}

const fold = (s: string): string => s.toLowerCase();

function textMask(values: readonly string[], keyword: string | undefined): Uint8Array | null {
  if (keyword === undefined || keyword === '') return null;
  const k = fold(keyword);
  const mask = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) mask[i] = fold(values[i] ?? '').includes(k) ? 1 : 0;
  return mask;
}

function countrySet(list: readonly string[] | undefined): Set<string> | null {
  if (!list || list.length === 0 || list.includes(ALL_COUNTRIES)) return null;
  return new Set(list);
}

export class QueryEngine {
  /**
   * The simulated "today" as a day number from DATA_START: only records published on or before it are
   * found. Null: every record is (a simulator that does not grow).
   */
  asOf: number | null = null;

  constructor(private readonly data: SimData) {}

  private firmMask(
    countries: readonly string[] | undefined,
    keyword: string | undefined,
    types: readonly number[] | undefined,
  ): Uint8Array | null {
    const set = countrySet(countries);
    const kw = keyword ? fold(keyword) : '';
    const typeSet = types && types.length > 0 ? new Set(types) : null;
    if (!set && !kw && !typeSet) return null;
    const firms = this.data.firms;
    const mask = new Uint8Array(firms.length);
    for (let i = 0; i < firms.length; i++) {
      const f = firms[i] as SimFirm;
      mask[i] =
        (!set || set.has(f.countryCode)) &&
        (!kw || fold(f.name).includes(kw)) &&
        (!typeSet || typeSet.has(f.firmType))
          ? 1
          : 0;
    }
    return mask;
  }

  private compile(filter: ShipmentFilter, firm = -1): Compiled {
    const party: SearchType = filter.search_type ?? 'importer';
    const lo = filter.start_date ? SimData.dayOf(filter.start_date) : 0;
    let hi = filter.end_date ? SimData.dayOf(filter.end_date) : DATA_DAYS - 1;
    // A record is published at least a day after it arrived: later days hold nothing yet.
    if (this.asOf !== null) hi = Math.min(hi, this.asOf - 1);
    const [from, to] = this.data.dayRange(lo, hi);
    const codes = filter.hs_codes && filter.hs_codes.length > 0 ? filter.hs_codes : null;
    let hs: Uint8Array | null = null;
    if (codes) {
      const variants = this.data.hsVariants;
      hs = new Uint8Array(variants.length);
      for (let i = 0; i < variants.length; i++) {
        const code = variants[i]?.code ?? '';
        hs[i] = codes.some((p) => code.startsWith(p)) ? 1 : 0;
      }
    }
    return {
      from,
      to,
      importer: this.firmMask(
        filter.importer_countries,
        filter.importer_firm,
        party === 'importer' ? filter.firm_filter : undefined,
      ),
      exporter: this.firmMask(
        filter.exporter_countries,
        filter.exporter_firm,
        party === 'exporter' ? filter.firm_filter : undefined,
      ),
      hs,
      arrivalPort: textMask(
        this.data.ports.map((p) => p.name),
        filter.arrival_port,
      ),
      departurePort: textMask(
        this.data.ports.map((p) => p.name),
        filter.departure_port,
      ),
      product: textMask(this.data.products, filter.product_detail),
      brand: textMask(this.data.brands, filter.brand_name),
      firm,
      published: this.asOf === null ? null : this.data.published,
      asOf: this.asOf ?? DATA_DAYS + 30,
    };
  }

  /** Visits matching record indices in stored order; returns how many matched. */
  private scan(q: Compiled, visit: ((i: number) => void) | null): number {
    const c = this.data.columns;
    const { importer, exporter, hs, arrivalPort, departurePort, product, brand, firm, published, asOf } = q;
    let count = 0;
    for (let i = q.from; i < q.to; i++) {
      if (published !== null && (published[i] as number) > asOf) continue;
      if (firm >= 0 && c.importer[i] !== firm && c.exporter[i] !== firm) continue;
      if (importer !== null && importer[c.importer[i] as number] === 0) continue;
      if (exporter !== null && exporter[c.exporter[i] as number] === 0) continue;
      if (hs !== null && hs[c.hs[i] as number] === 0) continue;
      if (product !== null && product[c.product[i] as number] === 0) continue;
      if (arrivalPort !== null && arrivalPort[c.arrivalPort[i] as number] === 0) continue;
      if (departurePort !== null && departurePort[c.departurePort[i] as number] === 0) continue;
      if (brand !== null && brand[c.brand[i] as number] === 0) continue;
      count++;
      if (visit !== null) visit(i);
    }
    return count;
  }

  /** Total matches and the indices of the first `size` in the documented order. */
  shipmentSearch(filter: ShipmentFilter, size: number): { total: number; indices: number[] } {
    const indices: number[] = [];
    const total = this.scan(this.compile(filter), (i) => {
      if (indices.length < size) indices.push(i);
    });
    return { total, indices };
  }

  /** Shipments of the firm with this UrlCode, as importer or exporter, that also match the filter. */
  shipmentCount(filter: ShipmentFilter, urlCode: string): number {
    const f = this.data.firmByUrlCode(urlCode);
    if (!f) return 0;
    return this.scan(this.compile(filter, f.index), null);
  }

  private firmCounts(filter: ShipmentFilter): { total: number; counts: Uint32Array } {
    const party = this.data.columns[filter.search_type === 'exporter' ? 'exporter' : 'importer'];
    const counts = new Uint32Array(this.data.firms.length);
    const total = this.scan(this.compile(filter), (i) => {
      const f = party[i] as number;
      counts[f] = (counts[f] as number) + 1;
    });
    return { total, counts };
  }

  firmCount(filter: ShipmentFilter): number {
    const { counts } = this.firmCounts(filter);
    let n = 0;
    for (let i = 0; i < counts.length; i++) if ((counts[i] as number) > 0) n++;
    return n;
  }

  /** Firms of the selected party over the matching shipments: shipment_count desc, then name, then UrlCode. */
  firmSearch(filter: ShipmentFilter, page: number): FirmPage {
    const { total, counts } = this.firmCounts(filter);
    const hits: SimFirm[] = [];
    for (let i = 0; i < counts.length; i++)
      if ((counts[i] as number) > 0) hits.push(this.data.firms[i] as SimFirm);
    hits.sort(
      (a, b) =>
        (counts[b.index] as number) - (counts[a.index] as number) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
        (a.urlCode < b.urlCode ? -1 : 1),
    );
    const start = (page - 1) * FIRM_PAGE_SIZE;
    const firms = hits.slice(start, start + FIRM_PAGE_SIZE).map((f): FirmOut => ({
      country: f.country,
      country_code: f.countryCode,
      name: f.name,
      address: f.address,
      city_state: f.cityState,
      tel: f.tel,
      e_mail: f.email,
      web: f.web,
      firm_type: f.firmType,
      shipment_count: counts[f.index] as number,
    }));
    return {
      total_shipment: total,
      total_pages: Math.ceil(hits.length / FIRM_PAGE_SIZE),
      page,
      firms_count: firms.length,
      firms,
    };
  }
}
