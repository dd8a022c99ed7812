import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/main/sim';
import { ALICE, PATHS, call, signature, start } from './helpers';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

const body = JSON.stringify({ size: 10, importer_countries: ['DE'] });

describe('authentication', () => {
  it('accepts a correctly signed request', async () => {
    const r = await call(sim, PATHS.shipmentSearch, body);
    expect(r.status).toBe(200);
  });

  it.each([
    ['no X-API-KEY', { 'X-SIGNATURE': signature(body, ALICE.apiSecret) }],
    ['no X-SIGNATURE', { 'X-API-KEY': ALICE.apiKey }],
    ['an unknown key', { 'X-API-KEY': 'nobody', 'X-SIGNATURE': signature(body, ALICE.apiSecret) }],
    ['a wrong secret', { 'X-API-KEY': ALICE.apiKey, 'X-SIGNATURE': signature(body, 'not-the-secret') }],
    ['a garbage signature', { 'X-API-KEY': ALICE.apiKey, 'X-SIGNATURE': 'abc' }],
    ['a hex instead of Base64 digest', { 'X-API-KEY': ALICE.apiKey, 'X-SIGNATURE': 'ab'.repeat(32) }],
    [
      'the signature of another body',
      { 'X-API-KEY': ALICE.apiKey, 'X-SIGNATURE': signature('{}', ALICE.apiSecret) },
    ],
  ])('answers 401 for %s', async (_what, headers) => {
    const r = await call(sim, PATHS.shipmentSearch, body, {
      headers: { 'Content-Type': 'application/json', ...headers },
    });
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ error: 'unauthorized' });
    expect(r.text).not.toContain(ALICE.apiSecret);
  });

  it('answers 401 when the body was re-serialised after signing', async () => {
    const signed = JSON.stringify({ size: 10, hs_codes: ['84'] });
    const sent = JSON.stringify({ hs_codes: ['84'], size: 10 }); // same object, other field order
    const spaced = JSON.stringify({ size: 10, hs_codes: ['84'] }, null, 1);
    for (const b of [sent, spaced]) {
      const r = await call(sim, PATHS.shipmentSearch, b, {
        headers: { 'X-API-KEY': ALICE.apiKey, 'X-SIGNATURE': signature(signed, ALICE.apiSecret) },
      });
      expect(r.status).toBe(401);
    }
  });

  it('signs the raw bytes: a body with non-ASCII text verifies', async () => {
    const b = JSON.stringify({ size: 10, product_detail: 'ÇELİK' });
    expect((await call(sim, PATHS.shipmentSearch, b)).status).toBe(200);
  });

  it('signs GET usage over the empty string', async () => {
    expect((await call(sim, PATHS.usage)).status).toBe(200);
    const wrong = await call(sim, PATHS.usage, undefined, {
      headers: { 'X-API-KEY': ALICE.apiKey, 'X-SIGNATURE': signature('{}', ALICE.apiSecret) },
    });
    expect(wrong.status).toBe(401);
  });

  it('checks authentication before validation', async () => {
    const invalid = JSON.stringify({ size: 5 });
    const r = await call(sim, PATHS.shipmentSearch, invalid, {
      headers: { 'X-API-KEY': ALICE.apiKey, 'X-SIGNATURE': signature(invalid, 'wrong') },
    });
    expect(r.status).toBe(401);
  });
});

describe('routing', () => {
  it('answers 404 for an unknown path and 405 for a wrong method', async () => {
    expect((await call(sim, 'api/v1/shipment/nope', body)).status).toBe(404);
    expect((await call(sim, 'api/v2/shipment/search', body)).status).toBe(404);
    const r = await call(sim, PATHS.shipmentSearch, undefined, { method: 'GET' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect((await call(sim, PATHS.usage, '{}', { method: 'POST' })).status).toBe(405);
  });
});

describe('request constraints → 400 with the field', () => {
  const many = (n: number, v: (i: number) => string) => Array.from({ length: n }, (_, i) => v(i));
  const cases: [string, string, Record<string, unknown>, string | undefined][] = [
    ['size below 10', PATHS.shipmentSearch, { size: 9 }, 'size'],
    ['size above 10000', PATHS.shipmentSearch, { size: 10001 }, 'size'],
    ['size not whole', PATHS.shipmentSearch, { size: 10.5 }, 'size'],
    ['size missing', PATHS.shipmentSearch, {}, 'size'],
    ['size as text', PATHS.shipmentSearch, { size: '10' }, 'size'],
    ['page 0', PATHS.firmSearch, { page: 0, hs_codes: ['84'] }, 'page'],
    ['page missing', PATHS.firmSearch, { hs_codes: ['84'] }, 'page'],
    [
      '11 importer countries',
      PATHS.shipmentSearch,
      { size: 10, importer_countries: many(11, (i) => `A${String.fromCharCode(65 + i)}`) },
      'importer_countries',
    ],
    [
      '11 exporter countries',
      PATHS.shipmentSearch,
      { size: 10, exporter_countries: many(11, (i) => `B${String.fromCharCode(65 + i)}`) },
      'exporter_countries',
    ],
    [
      '11 HS codes',
      PATHS.shipmentSearch,
      { size: 10, hs_codes: many(11, (i) => String(10 + i)) },
      'hs_codes',
    ],
    [
      'an HS code with a letter',
      PATHS.shipmentSearch,
      { size: 10, hs_codes: ['84', '85', '8x'] },
      'hs_codes[2]',
    ],
    [
      'a country that is not ISO alpha-2',
      PATHS.shipmentSearch,
      { size: 10, importer_countries: ['DEU'] },
      'importer_countries[0]',
    ],
    ['start_date not yyyy-MM-dd', PATHS.shipmentSearch, { size: 10, start_date: '01/02/2024' }, 'start_date'],
    ['end_date not a calendar day', PATHS.shipmentSearch, { size: 10, end_date: '2024-02-30' }, 'end_date'],
    ['firm_filter not integers', PATHS.shipmentSearch, { size: 10, firm_filter: [1.5] }, 'firm_filter[0]'],
    ['search_type unknown', PATHS.shipmentSearch, { size: 10, search_type: 'both' }, 'search_type'],
    [
      'product_detail of 2 characters',
      PATHS.shipmentSearch,
      { size: 10, product_detail: 'ab' },
      'product_detail',
    ],
    [
      'exporter_firm of 2 characters',
      PATHS.shipmentSearch,
      { size: 10, exporter_firm: 'ab' },
      'exporter_firm',
    ],
    [
      'importer_firm of 2 characters',
      PATHS.shipmentSearch,
      { size: 10, importer_firm: 'ab' },
      'importer_firm',
    ],
    ['brand_name of 2 characters', PATHS.shipmentSearch, { size: 10, brand_name: 'ab' }, 'brand_name'],
    ['arrival_port of 2 characters', PATHS.shipmentSearch, { size: 10, arrival_port: 'ab' }, 'arrival_port'],
    [
      'departure_port of 2 characters',
      PATHS.shipmentSearch,
      { size: 10, departure_port: 'ab' },
      'departure_port',
    ],
    ['an empty firm', PATHS.shipmentCount, { firm: '' }, 'firm'],
    ['a missing firm', PATHS.shipmentCount, {}, 'firm'],
    ['an unknown field', PATHS.shipmentSearch, { size: 10, colour: 'red' }, 'colour'],
    ['page on firm count', PATHS.firmCount, { page: 1 }, 'page'],
    ['firm search without any filter (rule 1)', PATHS.firmSearch, { page: 1 }, undefined],
    [
      'firm search with only ALL (rule 1)',
      PATHS.firmSearch,
      { page: 1, importer_countries: ['ALL'] },
      undefined,
    ],
    [
      'firm search with only exporter_countries (rule 2)',
      PATHS.firmSearch,
      { page: 1, exporter_countries: ['CN'] },
      'exporter_countries',
    ],
    ['an unknown account_name', PATHS.shipmentSearch, { size: 10, account_name: 'mallory' }, 'account_name'],
  ];

  it.each(cases)('%s', async (_what, path, request, field) => {
    const r = await call(sim, path, JSON.stringify(request));
    expect(r.status).toBe(400);
    const b = r.json as { error: string; message: string; field?: string };
    expect(b.error).toBe('invalid_request');
    expect(b.message.length).toBeGreaterThan(0);
    expect(b.field).toBe(field);
  });

  it('describes every issue in the message and names the first one in field', async () => {
    const r = await call(
      sim,
      PATHS.shipmentSearch,
      JSON.stringify({ size: 5, hs_codes: ['1a'], brand_name: 'x' }),
    );
    const b = r.json as { message: string; field: string };
    expect(b.field).toBe('hs_codes[0]');
    expect(b.message).toContain('size');
    expect(b.message).toContain('brand_name');
  });

  it('rejects a body that is not JSON, or not an object', async () => {
    const r = await call(sim, PATHS.shipmentSearch, '{"size": 10');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error: 'invalid_json' });
    const arr = await call(sim, PATHS.shipmentSearch, '[1,2]');
    expect(arr.status).toBe(400);
    expect(arr.json).toMatchObject({ error: 'invalid_request' });
  });

  it('accepts the boundaries: size 10 and 10000, 10 list items, 3-character keywords', async () => {
    const tenCountries = ['DE', 'TR', 'CN', 'US', 'FR', 'IT', 'ES', 'NL', 'BE', 'PL'];
    for (const req of [
      { size: 10 },
      { size: 10000 },
      { size: 10, importer_countries: tenCountries, exporter_countries: tenCountries },
      { size: 10, product_detail: 'abc', brand_name: '华美牌' },
    ]) {
      expect((await call(sim, PATHS.shipmentSearch, JSON.stringify(req))).status).toBe(200);
    }
    expect((await call(sim, PATHS.firmCount, '{}')).status).toBe(200); // all optional
    const other = { page: 1, exporter_countries: ['CN'], hs_codes: ['84'] };
    expect((await call(sim, PATHS.firmSearch, JSON.stringify(other))).status).toBe(200); // rule 2 satisfied
  });
});
