import { afterAll, describe, expect, it } from 'vitest';
import type { ShipmentFilter, ShipmentRecord } from '@shared/spec';
import { FIRM_PAGE_SIZE, type RunningSimulator } from '../../src/main/sim';
import { PATHS, documentedOrder, ok, start } from './helpers';

// Top-level await: the it.each tables below are built from the data at collection time.
const sim: RunningSimulator = await start();
const all: ShipmentRecord[] = [...sim.dataset.records()];
afterAll(() => sim.close());

const has = (text: string, kw: string | undefined): boolean =>
  kw === undefined || text.toLowerCase().includes(kw.toLowerCase());
const inList = (code: string, list: string[] | undefined): boolean =>
  !list || list.length === 0 || list.includes('ALL') || list.includes(code);

/** The filter semantics of docs/simulator.md, written against the record fields alone. */
function matches(r: ShipmentRecord, f: ShipmentFilter): boolean {
  const party = f.search_type ?? 'importer';
  const typeCode = party === 'importer' ? r.importerCompanyTypeCode : r.exporterCompanyTypeCode;
  return (
    inList(r.importerCountryCode, f.importer_countries) &&
    inList(r.exporterCountryCode, f.exporter_countries) &&
    (!f.hs_codes || f.hs_codes.length === 0 || f.hs_codes.some((p) => r.hsCode.startsWith(p))) &&
    (!f.start_date || r.arrivalDate >= f.start_date) &&
    (!f.end_date || r.arrivalDate <= f.end_date) &&
    (!f.firm_filter || f.firm_filter.length === 0 || f.firm_filter.includes(Number(typeCode))) &&
    has(r.productDetails, f.product_detail) &&
    has(r.exporterName, f.exporter_firm) &&
    has(r.importerName, f.importer_firm) &&
    has(r.brandName, f.brand_name) &&
    has(r.portOfArrival, f.arrival_port) &&
    has(r.portOfDeparture, f.departure_port)
  );
}

const expected = (f: ShipmentFilter): ShipmentRecord[] =>
  all.filter((r) => matches(r, f)).sort(documentedOrder);

/** Picks filter values from the data itself so that every case matches something but not everything. */
function sampleFilters(): [string, ShipmentFilter][] {
  const r0 = all[17] as ShipmentRecord;
  const r1 = all[2345] as ShipmentRecord;
  const withBrand = all.find((r) => r.brandName.length > 4) as ShipmentRecord;
  return [
    ['no filter', {}],
    ['importer country', { importer_countries: [r0.importerCountryCode] }],
    ['two importer countries', { importer_countries: [r0.importerCountryCode, r1.importerCountryCode] }],
    ['importer ALL', { importer_countries: ['ALL'] }],
    ['exporter country', { exporter_countries: [r1.exporterCountryCode] }],
    ['HS chapter', { hs_codes: [r0.hsCode.slice(0, 2)] }],
    ['HS heading and subheading', { hs_codes: [r0.hsCode.slice(0, 4), r1.hsCode.slice(0, 6)] }],
    ['HS national code', { hs_codes: [all.find((r) => r.hsCode.length > 6)?.hsCode ?? '0'] }],
    ['date range inclusive', { start_date: r1.arrivalDate, end_date: r0.arrivalDate }],
    ['single day', { start_date: r0.arrivalDate, end_date: r0.arrivalDate }],
    ['only start_date', { start_date: '2025-06-01' }],
    ['only end_date', { end_date: '2021-03-31' }],
    ['dates outside the data', { start_date: '2010-01-01', end_date: '2011-01-01' }],
    ['product keyword, other case', { product_detail: r0.productDetails.slice(2, 8).toLowerCase() }],
    ['product keyword in Chinese', { product_detail: '不锈钢' }],
    ['exporter firm keyword', { exporter_firm: r1.exporterName.slice(0, 5).toUpperCase() }],
    ['importer firm keyword', { importer_firm: r0.importerName.slice(1, 6) }],
    ['brand keyword', { brand_name: withBrand.brandName.slice(0, 4).toLowerCase() }],
    ['arrival port keyword', { arrival_port: r0.portOfArrival.slice(0, 4) }],
    ['departure port keyword', { departure_port: r1.portOfDeparture.slice(-4) }],
    ['firm_filter on importers', { firm_filter: [3] }],
    ['firm_filter on exporters', { firm_filter: [4, 5], search_type: 'exporter' }],
    [
      'combined',
      {
        importer_countries: [r0.importerCountryCode],
        hs_codes: [r0.hsCode.slice(0, 2)],
        start_date: '2023-01-01',
      },
    ],
    ['nothing matches', { importer_firm: 'zzzqqq' }],
  ];
}

describe('shipment search', () => {
  it.each(sampleFilters())('%s: total and first records in documented order', async (_what, filter) => {
    const want = expected(filter);
    const got = await ok<{ total: number; shipments: ShipmentRecord[] }>(sim, PATHS.shipmentSearch, {
      ...filter,
      size: 50,
    });
    expect(got.total).toBe(want.length);
    expect(got.shipments.map((r) => r.hashId)).toEqual(want.slice(0, 50).map((r) => r.hashId));
    expect(got.shipments).toEqual(want.slice(0, 50));
  });

  it('covers cases that match some but not all records', () => {
    const totals = sampleFilters().map(([, f]) => expected(f).length);
    expect(totals.filter((t) => t > 0 && t < all.length).length).toBeGreaterThan(15);
  });

  it('returns at most size records and all of them when fewer match', async () => {
    const big = await ok<{ total: number; shipments: unknown[] }>(sim, PATHS.shipmentSearch, { size: 10000 });
    expect(big.total).toBe(all.length);
    expect(big.shipments).toHaveLength(all.length); // 5,000 < 10,000
    const few = await ok<{ total: number; shipments: unknown[] }>(sim, PATHS.shipmentSearch, { size: 13 });
    expect(few.shipments).toHaveLength(13);
  });
});

interface FirmOut {
  name: string;
  country_code: string;
  firm_type: number;
  shipment_count: number;
  [k: string]: unknown;
}

/** Firms of one party over the matching shipments, as the docs describe them. */
function expectedFirms(f: ShipmentFilter): FirmOut[] {
  const party = f.search_type ?? 'importer';
  const byCode = new Map<string, FirmOut>();
  for (const r of expected(f)) {
    const p = (s: string): string => r[`${party}${s}` as keyof ShipmentRecord] as string;
    const code = p('UrlCode');
    const firm = byCode.get(code) ?? {
      country: p('Country'),
      country_code: p('CountryCode'),
      name: p('Name'),
      address: p('Address'),
      city_state: p('CityState'),
      tel: p('Tel'),
      e_mail: p('Email'),
      web: p('Web'),
      firm_type: Number(p('CompanyTypeCode')),
      shipment_count: 0,
      code,
    };
    firm.shipment_count++;
    byCode.set(code, firm);
  }
  return [...byCode.values()].sort(
    (a, b) =>
      b.shipment_count - a.shipment_count ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      ((a.code as string) < (b.code as string) ? -1 : 1),
  );
}

const strip = (f: FirmOut): FirmOut => {
  const { code: _code, ...rest } = f;
  return rest as FirmOut;
};

describe('firm search and count', () => {
  const cases: [string, ShipmentFilter][] = [
    ['by HS chapter, importers', { hs_codes: ['84', '85', '61'] }],
    ['by date, exporters', { start_date: '2024-01-01', search_type: 'exporter' }],
    ['by exporter country plus another filter', { exporter_countries: ['CN'], end_date: '2023-12-31' }],
    ['firm_filter on exporters', { firm_filter: [1], search_type: 'exporter', hs_codes: ['8'] }],
  ];

  it.each(cases)('%s: pages, counts and order', async (_what, filter) => {
    const want = expectedFirms(filter);
    const totalShipments = expected(filter).length;
    const pages = Math.ceil(want.length / FIRM_PAGE_SIZE);
    expect(pages).toBeGreaterThan(0);
    for (const page of [1, pages, pages + 1]) {
      const got = await ok<{
        total_shipment: number;
        total_pages: number;
        page: number;
        firms_count: number;
        firms: FirmOut[];
      }>(sim, PATHS.firmSearch, { ...filter, page });
      const slice = want.slice((page - 1) * FIRM_PAGE_SIZE, page * FIRM_PAGE_SIZE).map(strip);
      expect(got).toEqual({
        total_shipment: totalShipments,
        total_pages: pages,
        page,
        firms_count: slice.length,
        firms: slice,
      });
    }
    const count = await ok<{ firm_count: number }>(sim, PATHS.firmCount, filter);
    expect(count.firm_count).toBe(want.length);
  });

  it('has more than one page for a broad filter (page size 100)', async () => {
    const got = await ok<{ total_pages: number; firms_count: number }>(sim, PATHS.firmSearch, {
      start_date: '2021-01-01',
      page: 1,
    });
    expect(got.total_pages).toBeGreaterThan(1);
    expect(got.firms_count).toBe(FIRM_PAGE_SIZE);
  });

  it('counts every importer firm when firm count has no filter', async () => {
    const count = await ok<{ firm_count: number }>(sim, PATHS.firmCount, {});
    expect(count.firm_count).toBe(new Set(all.map((r) => r.importerUrlCode)).size);
  });
});

describe('shipment count of a firm', () => {
  it('counts the shipments where the UrlCode is the importer or the exporter, with the filter applied', async () => {
    const r = all[40] as ShipmentRecord;
    for (const [code, filter] of [
      [r.importerUrlCode, {}],
      [r.exporterUrlCode, {}],
      [r.exporterUrlCode, { start_date: '2024-01-01' }],
      [r.importerUrlCode, { hs_codes: [r.hsCode.slice(0, 2)] }],
    ] as [string, ShipmentFilter][]) {
      const want = expected(filter).filter(
        (s) => s.importerUrlCode === code || s.exporterUrlCode === code,
      ).length;
      const got = await ok<{ shipment_count: number }>(sim, PATHS.shipmentCount, { ...filter, firm: code });
      expect(got.shipment_count).toBe(want);
    }
    const roles = all.filter(
      (s) => s.importerUrlCode === r.importerUrlCode || s.exporterUrlCode === r.importerUrlCode,
    );
    expect(roles.length).toBeGreaterThan(1); // firms recur
  });

  it('answers 0 for a UrlCode nobody has', async () => {
    const got = await ok<{ shipment_count: number }>(sim, PATHS.shipmentCount, { firm: 'no-such-firm' });
    expect(got.shipment_count).toBe(0);
  });
});
