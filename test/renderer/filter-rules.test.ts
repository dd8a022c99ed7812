import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  draftToFilter,
  emptyDraft,
  normalizeDateText,
  slotOf,
  validateDraft,
  type FilterDraft,
} from '../../src/renderer/src/features/filters/filter-model';
import { createFilterStore } from '../../src/renderer/src/features/filters/filter-store';
import { buildHsIndex, describeHs, searchHs } from '../../src/renderer/src/features/filters/hs-index';
import { countryName, searchCountries } from '../../src/renderer/src/features/filters/countries';
import { checkLimit, describeMetric } from '../../src/renderer/src/session/limit-check';

const draft = (over: Partial<FilterDraft>): FilterDraft => ({ ...emptyDraft(), ...over });

describe('field-level messages', () => {
  it('puts an HS code problem at the HS field, naming the offending item', () => {
    const v = validateDraft(draft({ hs_codes: ['7208', '0901', '72a8'] }), 'filter');
    expect(v.valid).toBe(false);
    expect(v.bySlot.hs_codes).toEqual(['HS codes: “72a8”: digits only']);
    expect(v.bySlot.form).toBeUndefined();
  });

  it('reports a short keyword at its own field and nowhere else', () => {
    const v = validateDraft(draft({ product_detail: 'ab', brand_name: 'Acme' }), 'filter');
    expect(v.bySlot).toEqual({ product_detail: ['Product description: at least 3 characters'] });
  });

  it('reports a backwards date range at the end date', () => {
    const v = validateDraft(draft({ start_date: '2024-05-01', end_date: '2024-01-31' }), 'filter');
    expect(v.bySlot.end_date).toEqual(['Date to: must not be before Date from']);
    expect(validateDraft(draft({ start_date: '2024-01-01', end_date: '2024-01-01' }), 'filter').valid).toBe(
      true,
    );
  });

  it('reports an impossible calendar day and a non-numeric firm type code', () => {
    const v = validateDraft(draft({ start_date: '2023-02-29', firm_filter: ['1', 'x2'] }), 'filter');
    expect(v.bySlot.start_date?.[0]).toMatch(/^Date from: not a whole date/);
    expect(v.bySlot.firm_filter).toEqual(['Firm type codes: “x2”: must be a whole number']);
  });

  it('limits lists to ten items', () => {
    const codes = Array.from({ length: 11 }, (_, i) => String(10 + i));
    expect(validateDraft(draft({ hs_codes: codes }), 'filter').bySlot.hs_codes).toEqual([
      'HS codes: at most 10 items',
    ]);
  });

  it('maps paths to slots', () => {
    expect(slotOf('hs_codes[2]')).toBe('hs_codes');
    expect(slotOf('size')).toBe('size');
    expect(slotOf('')).toBe('form');
    expect(slotOf('something_else')).toBe('form');
  });
});

describe('run button reasons', () => {
  it('a shipment search needs a size within 10–10,000', () => {
    const ok = validateDraft(draft({}), 'shipmentSearch', { size: 10 });
    expect(ok).toMatchObject({ valid: true, reason: null });
    const small = validateDraft(draft({}), 'shipmentSearch', { size: 5 });
    expect(small.valid).toBe(false);
    expect(small.bySlot.size).toEqual(['Records to download: at least 10']);
    expect(small.reason).toBe('Cannot run: Records to download: at least 10');
    expect(validateDraft(draft({}), 'shipmentSearch', { size: 10_001 }).bySlot.size).toEqual([
      'Records to download: at most 10,000',
    ]);
  });

  it('counts further problems in the reason', () => {
    const v = validateDraft(draft({ product_detail: 'ab', hs_codes: ['x'] }), 'shipmentSearch', {
      size: 100,
    });
    expect(v.reason).toBe('Cannot run: HS codes: “x”: digits only (and 1 more)');
  });

  it('a firm search needs a filter, and exporter countries are not enough alone', () => {
    const none = validateDraft(draft({ account_name: 'acme' }), 'firmSearch', { page: 1 });
    expect(none.bySlot.form).toEqual(['Firm search needs at least one filter']);
    expect(none.reason).toBe('Cannot run: Firm search needs at least one filter');
    const exp = validateDraft(draft({ exporter_countries: ['CN'] }), 'firmSearch', { page: 1 });
    expect(exp.bySlot.exporter_countries).toEqual(['Exporter countries needs at least one other filter']);
    expect(
      validateDraft(draft({ exporter_countries: ['CN'], hs_codes: ['7208'] }), 'firmSearch', { page: 1 })
        .valid,
    ).toBe(true);
    // Firm count has no such rule.
    expect(validateDraft(draft({}), 'firmCount').valid).toBe(true);
  });
});

describe('draft to request filter', () => {
  it('leaves empty fields out, trims keywords and turns firm type tags into numbers', () => {
    const f = draftToFilter(
      draft({
        product_detail: '  steel  ',
        firm_filter: ['3', ' 12 '],
        search_type: 'importer',
        account_name: ' ',
      }),
    );
    expect(f).toEqual({ product_detail: 'steel', firm_filter: [3, 12], search_type: 'importer' });
  });

  it('the store upper-cases country tags, ignores duplicates, and removes by index', () => {
    const s = createFilterStore();
    s.getState().addTag('importer_countries', 'de');
    s.getState().addTag('importer_countries', 'DE');
    s.getState().addTag('importer_countries', 'fr');
    s.getState().removeTag('importer_countries', 0);
    expect(s.getState().draft.importer_countries).toEqual(['FR']);
    s.getState().load({ hs_codes: ['7208'], end_date: '2024-01-01' }, 'why');
    expect(s.getState().draft).toEqual(draft({ hs_codes: ['7208'], end_date: '2024-01-01' }));
    expect(s.getState().notice).toBe('why');
  });
});

describe('HS nomenclature search', () => {
  const csv = readFileSync(join(import.meta.dirname, '../../resources/data/hs-codes.csv'), 'utf8');
  const index = buildHsIndex(csv);

  it('parses every row, including quoted descriptions with commas', () => {
    expect(index.entries.length).toBeGreaterThan(6000);
    expect(index.byCode.get('0101')?.description).toBe('Horses, asses, mules and hinnies; live');
  });

  it('"steel" finds the flat-rolled steel heading 7208', () => {
    const hits = searchHs(index, 'steel', 60).map((e) => e.code);
    expect(hits).toContain('7208');
    expect(hits.every((c) => /steel/i.test(index.byCode.get(c)?.description ?? ''))).toBe(true);
  });

  it('every word of the query must match', () => {
    const hits = searchHs(index, 'hot-rolled steel coils', 200);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.some((e) => e.code.startsWith('7208'))).toBe(true);
    for (const e of hits)
      expect(e.description.toLowerCase()).toMatch(/(?=.*hot-rolled)(?=.*steel)(?=.*coils)/s);
  });

  it('digits search by code prefix, and long codes describe by their nearest parent', () => {
    expect(
      searchHs(index, '7208')
        .map((e) => e.code)
        .every((c) => c.startsWith('7208')),
    ).toBe(true);
    expect(describeHs(index, '7208')).toMatch(/steel/i);
    expect(describeHs(index, '72081000')).toMatch(/\(under 720810\)$/);
    expect(describeHs(index, '0000')).toBeNull();
  });
});

describe('countries and limits', () => {
  it('finds countries by name or ISO code', () => {
    expect(searchCountries('DE')[0]).toEqual({ code: 'DE', name: 'Germany' });
    expect(searchCountries('germ').map((c) => c.code)).toContain('DE');
    expect(countryName('TR')).toMatch(/T(ü|u)rk/);
  });

  it('warns before a download that would pass the limit, and knows unlimited', () => {
    const usage = {
      acme: { 'shipments/search': { current: 9_500, limit: 10_000 } },
      other: { 'shipments/search': { current: 5, limit: -1, notes: 'unlimited' } },
    };
    expect(checkLimit(usage, 'acme', 'shipments/search', 100)).toMatchObject({
      state: 'ok',
      left: 500,
      message: 'up to 100 records — 500 of 10,000 left',
    });
    expect(checkLimit(usage, 'acme', 'shipments/search', 1000)).toMatchObject({
      state: 'exceeds',
      left: 500,
    });
    expect(checkLimit(usage, 'other', 'shipments/search', 10_000)).toMatchObject({
      state: 'unlimited',
      message: 'up to 10,000 records — 5 used · no limit',
    });
    // A name the summary lacks is refused by the service: no other account's figures stand in for it.
    expect(checkLimit(usage, 'nobody', 'shipments/search', 10)).toMatchObject({
      state: 'unknown',
      account: null,
    });
    expect(checkLimit(null, undefined, 'shipments/search', 10).state).toBe('unknown');
  });

  it('describes a metric whose next cost is unknown (a firm page)', () => {
    const usage = {
      acme: { 'firms/search': { current: 500, limit: 500 }, 'firms/count': { current: 3, limit: -1 } },
    };
    expect(describeMetric(usage, 'acme', 'firms/search')).toMatchObject({
      state: 'exceeds',
      message: 'Firm search (downloads): 0 of 500 left',
    });
    expect(describeMetric(usage, 'acme', 'firms/count')).toMatchObject({
      state: 'unlimited',
      message: 'Firm count: 3 used · no limit',
    });
  });
});

describe('countries by the names analysts use', () => {
  it.each([
    ['uk', 'GB'],
    ['UK', 'GB'],
    ['great britain', 'GB'],
    ['england', 'GB'],
    ['usa', 'US'],
    ['america', 'US'],
    ['turkey', 'TR'],
    ['turkiye', 'TR'],
    ['Türkiye', 'TR'],
    ['holland', 'NL'],
    ['uae', 'AE'],
    ['korea', 'KR'],
    ['russia', 'RU'],
    ['czechia', 'CZ'],
  ])('%j offers %s first', (query, code) => {
    expect(searchCountries(query, 5)[0]?.code).toBe(code);
  });

  it('"uk" still offers Ukraine, after the United Kingdom', () => {
    expect(searchCountries('uk', 5).map((c) => c.code)).toEqual(['GB', 'UA']);
  });
});

describe('dates', () => {
  it.each(['02/31/2024', '2024-06-', '2024-13-01', '2023-02-29', '06/dd/yyyy', '2024-1-1'])(
    '%j blocks the run at its field',
    (text) => {
      const v = validateDraft(draft({ start_date: text }), 'filter');
      expect(v.valid).toBe(false);
      expect(v.bySlot.start_date).toEqual([
        'Date from: not a whole date: type it as yyyy-mm-dd (e.g. 2024-03-31) or pick it',
      ]);
    },
  );

  it('writes a date typed another way the one way the service reads, and leaves the rest as typed', () => {
    expect(normalizeDateText('2024/3/5')).toBe('2024-03-05');
    expect(normalizeDateText(' 2024.03.05 ')).toBe('2024-03-05');
    expect(normalizeDateText('2024-1-1')).toBe('2024-01-01');
    expect(normalizeDateText('02/31/2024')).toBe('02/31/2024');
  });
});
