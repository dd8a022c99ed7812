import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  SHIPMENT_FIELDS,
  isUnlimited,
  parseResponse,
  parseSearchedHsCodes,
  remaining,
  type OperationName,
} from '@shared/spec';

const OPS: OperationName[] = ['shipmentSearch', 'shipmentCount', 'firmSearch', 'firmCount', 'usage'];

describe('shipment search response', () => {
  it('keeps unknown extra fields, top-level and per record, and fills missing text fields with ""', () => {
    const r = parseResponse('shipmentSearch', {
      total: 1,
      took_ms: 12,
      shipments: [{ hsCode: '730640', importerName: null, newField: { nested: true } }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.took_ms).toBe(12);
    const rec = r.value.shipments[0]!;
    expect(rec.hsCode).toBe('730640');
    expect(rec.newField).toEqual({ nested: true });
    expect(rec.importerName).toBe('');
    for (const f of SHIPMENT_FIELDS) expect(typeof rec[f], f).toBe('string');
    expect(SHIPMENT_FIELDS.filter((f) => rec[f] !== '')).toEqual(['hsCode']);
  });

  it('missing shipments is an empty list; a missing total is an error', () => {
    const ok = parseResponse('shipmentSearch', { total: 0 });
    expect(ok.ok && ok.value.shipments).toEqual([]);
    expect(parseResponse('shipmentSearch', { shipments: [] })).toEqual({
      ok: false,
      issue: { path: 'response.total', message: 'missing' },
    });
  });

  it('a wrong type is an error with its path', () => {
    const cases: [unknown, string][] = [
      [{ total: '2', shipments: [] }, 'response.total'],
      [{ total: 2.5, shipments: [] }, 'response.total'],
      [{ total: 2, shipments: {} }, 'response.shipments'],
      [{ total: 2, shipments: [{}, 'x'] }, 'response.shipments[1]'],
      [{ total: 2, shipments: [{}, { usdFob: 12.5 }] }, 'response.shipments[1].usdFob'],
      [{ total: 2, shipments: [{ exporterUrlCode: ['a'] }] }, 'response.shipments[0].exporterUrlCode'],
      [[], 'response'],
      ['{"total":1}', 'response'],
    ];
    for (const [body, path] of cases) {
      const r = parseResponse('shipmentSearch', body);
      expect(r.ok, path).toBe(false);
      if (!r.ok) expect(r.issue.path).toBe(path);
    }
  });
});

describe('firm search response', () => {
  it('keeps extras, fills text with "" and a missing integer with null (never a made-up 0)', () => {
    const r = parseResponse('firmSearch', {
      total_shipment: 9,
      total_pages: 2,
      page: 1,
      firms_count: 1,
      firms: [{ name: 'Acme', firm_type: 2, rank: 'gold' }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const firm = r.value.firms[0]!;
    expect(firm).toMatchObject({ name: 'Acme', firm_type: 2, rank: 'gold', country: '', e_mail: '' });
    expect(firm.shipment_count).toBeNull();
  });

  it('a text firm_type or a missing page count is an error with its path', () => {
    const base = { total_shipment: 9, total_pages: 2, page: 1, firms_count: 1 };
    const a = parseResponse('firmSearch', { ...base, firms: [{ firm_type: '2' }] });
    expect(a.ok ? '' : a.issue.path).toBe('response.firms[0].firm_type');
    const { total_pages: _tp, ...noPages } = base;
    const b = parseResponse('firmSearch', { ...noPages, firms: [] });
    expect(b.ok ? '' : b.issue.path).toBe('response.total_pages');
  });
});

describe('count responses', () => {
  it('shipment count and firm count keep extras and require a whole number', () => {
    const a = parseResponse('shipmentCount', { shipment_count: 17, note: 'x' });
    expect(a.ok && a.value).toEqual({ shipment_count: 17, note: 'x' });
    const b = parseResponse('firmCount', { firm_count: 0 });
    expect(b.ok && b.value.firm_count).toBe(0);
    const c = parseResponse('firmCount', { firm_count: '5' });
    expect(c.ok ? '' : c.issue.path).toBe('response.firm_count');
    const d = parseResponse('shipmentCount', {});
    expect(d.ok ? '' : d.issue.path).toBe('response.shipment_count');
  });
});

describe('usage response', () => {
  const body = {
    acme: {
      'shipments/search': { current: 120, limit: 1000 },
      'firms/search': { current: 3, limit: -1, notes: 'unlimited' },
      searchedHsCodes: { current: 2, limit: 50, notes: '730640, 730641' },
      futureMetric: { current: 1, limit: 5, extra: true },
    },
  };

  it('parses accounts and metrics, keeping unknown metrics and fields', () => {
    const r = parseResponse('usage', body);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const acme = r.value.acme!;
    expect(acme['futureMetric']).toEqual({ current: 1, limit: 5, extra: true });
    expect(isUnlimited(acme['firms/search']!)).toBe(true);
    expect(remaining(acme['firms/search']!)).toBe(Number.POSITIVE_INFINITY);
    expect(remaining(acme['shipments/search']!)).toBe(880);
    expect(remaining({ current: 12, limit: 10 })).toBe(0);
    expect(parseSearchedHsCodes(acme['searchedHsCodes']!.notes)).toEqual(['730640', '730641']);
  });

  it('a wrong type is an error with its path', () => {
    const cases: [unknown, string][] = [
      [{ acme: { dailyRequest: { current: 1, limit: 1.5 } } }, 'response.acme.dailyRequest.limit'],
      [{ acme: { dailyRequest: { limit: 10 } } }, 'response.acme.dailyRequest.current'],
      [{ acme: { dailyRequest: { current: 1, limit: 10, notes: 5 } } }, 'response.acme.dailyRequest.notes'],
      [{ acme: { dailyRequest: 7 } }, 'response.acme.dailyRequest'],
      [{ acme: [] }, 'response.acme'],
      [null, 'response'],
    ];
    for (const [input, path] of cases) {
      const r = parseResponse('usage', input);
      expect(r.ok ? '' : r.issue.path, path).toBe(path);
    }
  });
});

describe('parseResponse never throws', () => {
  it('for any JSON value and any operation', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OPS), fc.jsonValue(), (op, body) => {
        const r = parseResponse(op, body);
        return r.ok || (typeof r.issue.path === 'string' && r.issue.path.startsWith('response'));
      }),
      { numRuns: 200 },
    );
  });

  it('for near-miss bodies: valid shapes with one field of a random type', () => {
    const anyValue = fc.oneof(fc.jsonValue(), fc.constant(undefined));
    fc.assert(
      fc.property(fc.constantFrom(...SHIPMENT_FIELDS), anyValue, (field, value) => {
        const r = parseResponse('shipmentSearch', { total: 1, shipments: [{ [field]: value }] });
        if (value === undefined || value === null || typeof value === 'string') return r.ok;
        return !r.ok && r.issue.path === `response.shipments[0].${field}`;
      }),
      { numRuns: 200 },
    );
  });
});
