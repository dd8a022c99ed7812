import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  KEYWORD_FIELDS,
  checkFilter,
  checkRequest,
  describeIssues,
  isCalendarDate,
  type BodyOperationName,
  type SpecIssue,
} from '@shared/spec';

/** The issues for a request, or [] when it passes. */
function issues(op: BodyOperationName, input: unknown): SpecIssue[] {
  const r = checkRequest(op, input);
  return r.ok ? [] : r.issues;
}
const paths = (op: BodyOperationName, input: unknown): string[] => issues(op, input).map((i) => i.path);

// A minimal valid request per operation, to which each test adds the field under test.
const BASE: Record<BodyOperationName, Record<string, unknown>> = {
  shipmentSearch: { size: 10 },
  shipmentCount: { firm: 'acme-boru' },
  firmSearch: { page: 1, product_detail: 'steel pipe' },
  firmCount: {},
};
const OPS = Object.keys(BASE) as BodyOperationName[];

describe('size (shipment search): min 10, max 10000', () => {
  it.each([10, 11, 9_999, 10_000])('%i is accepted', (size) => {
    expect(checkRequest('shipmentSearch', { size }).ok).toBe(true);
  });
  it.each([9, 10_001, 0, -10])('%i is rejected at path size', (size) => {
    expect(paths('shipmentSearch', { size })).toEqual(['size']);
  });
  it('must be a whole number and is required', () => {
    expect(issues('shipmentSearch', { size: 10.5 })).toEqual([
      { path: 'size', message: 'must be a whole number' },
    ]);
    expect(issues('shipmentSearch', { size: '10' })).toEqual([
      { path: 'size', message: 'must be a whole number' },
    ]);
    expect(issues('shipmentSearch', {})).toEqual([
      { path: 'size', message: 'required: a whole number (size)' },
    ]);
  });
});

describe('size: one message per bad value, the range before wholeness', () => {
  it.each([
    [1e20, 'at most 10,000'],
    [Number.POSITIVE_INFINITY, 'must be a whole number'],
    [10_000.5, 'at most 10,000'],
    [15.5, 'must be a whole number'],
    [9.5, 'at least 10'],
    [Number.NaN, 'required: a whole number from 10 to 10,000'],
  ])('%d: %s', (size, message) => {
    expect(issues('shipmentSearch', { size })).toEqual([{ path: 'size', message }]);
  });
});

describe('page (firm search): min 1', () => {
  it('1 and 500 are accepted', () => {
    expect(checkRequest('firmSearch', { ...BASE.firmSearch, page: 1 }).ok).toBe(true);
    expect(checkRequest('firmSearch', { ...BASE.firmSearch, page: 500 }).ok).toBe(true);
  });
  it.each([0, -1, 1.5])('%d is rejected at path page', (page) => {
    expect(paths('firmSearch', { ...BASE.firmSearch, page })).toEqual(['page']);
  });
  it('is required', () => {
    expect(paths('firmSearch', { product_detail: 'steel' })).toEqual(['page']);
  });
});

describe('list fields: at most 10 items each, on every operation', () => {
  const item: Record<string, string> = {
    importer_countries: 'DE',
    exporter_countries: 'TR',
    hs_codes: '730640',
  };
  for (const op of OPS) {
    for (const field of Object.keys(item)) {
      it(`${op}.${field}: 10 ok, 11 rejected`, () => {
        const list = (n: number): string[] => Array.from({ length: n }, () => item[field]!);
        // exporter_countries alone would break firm-search rule 2, so the base keeps another filter.
        expect(issues(op, { ...BASE[op], [field]: list(10) })).toEqual([]);
        expect(issues(op, { ...BASE[op], [field]: list(11) })).toEqual([
          { path: field, message: 'at most 10 items' },
        ]);
      });
    }
  }
});

describe('hs_codes: digits only', () => {
  it('names the offending item by index', () => {
    expect(issues('shipmentSearch', { size: 10, hs_codes: ['7306', '730640', '73x6'] })).toEqual([
      { path: 'hs_codes[2]', message: 'digits only' },
    ]);
    expect(describeIssues(issues('shipmentSearch', { size: 10, hs_codes: ['7306', '730640', '73x6'] }))).toBe(
      'hs_codes[2]: digits only',
    );
  });
  it.each(['', '73.06', ' 7306', '7306 ', '-7306', '٧٣٠٦'])('rejects %j', (code) => {
    expect(paths('shipmentSearch', { size: 10, hs_codes: [code] })).toEqual(['hs_codes[0]']);
  });
  it('rejects a number where text is expected', () => {
    expect(paths('shipmentSearch', { size: 10, hs_codes: [7306] })).toEqual(['hs_codes[0]']);
  });
});

describe('dates: yyyy-MM-dd, real calendar days, start ≤ end', () => {
  it.each(['2024-02-29', '2000-02-29', '2025-12-31', '2025-01-01', '0050-01-01'])('%s is accepted', (d) => {
    expect(isCalendarDate(d)).toBe(true);
    expect(checkRequest('shipmentSearch', { size: 10, start_date: d }).ok).toBe(true);
    expect(checkRequest('shipmentSearch', { size: 10, end_date: d }).ok).toBe(true);
  });
  it.each(['2025-02-29', '2025-02-30', '1900-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '2025-01-00'])(
    '%s (no such day) is rejected',
    (d) => {
      expect(isCalendarDate(d)).toBe(false);
      expect(paths('shipmentSearch', { size: 10, start_date: d })).toEqual(['start_date']);
      expect(paths('shipmentSearch', { size: 10, end_date: d })).toEqual(['end_date']);
    },
  );
  it.each(['2025-1-01', '25-01-01', '2025/01/01', '01.02.2025', '2025-01-01T00:00:00Z', ' 2025-01-01', ''])(
    '%j (wrong format) is rejected',
    (d) => {
      expect(paths('shipmentSearch', { size: 10, start_date: d })).toEqual(['start_date']);
    },
  );
  it('start equal to end is fine; start after end is rejected at end_date', () => {
    expect(
      checkRequest('shipmentSearch', { size: 10, start_date: '2025-03-01', end_date: '2025-03-01' }).ok,
    ).toBe(true);
    expect(issues('shipmentSearch', { size: 10, start_date: '2025-03-02', end_date: '2025-03-01' })).toEqual([
      { path: 'end_date', message: 'must not be before start_date' },
    ]);
    for (const op of OPS) {
      expect(paths(op, { ...BASE[op], start_date: '2026-01-01', end_date: '2025-12-31' })).toEqual([
        'end_date',
      ]);
    }
  });
});

describe('keyword fields: at least 3 characters', () => {
  for (const field of KEYWORD_FIELDS) {
    it(`${field}: 3 characters ok, 2 rejected (ASCII, Turkish, Chinese)`, () => {
      for (const ok of ['abc', 'İzm', '不锈钢', 'çşğ']) {
        expect(issues('shipmentSearch', { size: 10, [field]: ok }), ok).toEqual([]);
      }
      for (const bad of ['ab', 'İz', '不锈', '', 'ç']) {
        expect(issues('shipmentSearch', { size: 10, [field]: bad }), bad).toEqual([
          { path: field, message: 'at least 3 characters' },
        ]);
      }
    });
  }
  it('counts characters, not UTF-16 units: two emoji are two characters', () => {
    expect('😀😀'.length).toBe(4);
    expect(paths('shipmentSearch', { size: 10, product_detail: '😀😀' })).toEqual(['product_detail']);
    expect(checkRequest('shipmentSearch', { size: 10, product_detail: '😀😀😀' }).ok).toBe(true);
  });
});

describe('firm (shipment count): non-empty', () => {
  it('one character is enough; empty or missing is rejected', () => {
    expect(checkRequest('shipmentCount', { firm: 'a' }).ok).toBe(true);
    expect(issues('shipmentCount', { firm: '' })).toEqual([
      { path: 'firm', message: 'must not be empty: a firm UrlCode' },
    ]);
    expect(issues('shipmentCount', {})).toEqual([
      { path: 'firm', message: 'firm is required: a firm UrlCode' },
    ]);
    expect(issues('shipmentCount', { firm: 42 })).toEqual([
      { path: 'firm', message: 'must be text: a firm UrlCode' },
    ]);
  });
});

describe('other field rules', () => {
  it('search_type is importer or exporter', () => {
    expect(checkRequest('shipmentSearch', { size: 10, search_type: 'importer' }).ok).toBe(true);
    expect(checkRequest('shipmentSearch', { size: 10, search_type: 'exporter' }).ok).toBe(true);
    expect(paths('shipmentSearch', { size: 10, search_type: 'both' })).toEqual(['search_type']);
  });
  it('firm_filter is a list of whole numbers', () => {
    expect(checkRequest('shipmentSearch', { size: 10, firm_filter: [1, 2, 3] }).ok).toBe(true);
    expect(paths('shipmentSearch', { size: 10, firm_filter: [1, 2.5] })).toEqual(['firm_filter[1]']);
  });
});

describe('unknown fields are rejected, each at its own path', () => {
  for (const op of OPS) {
    it(op, () => {
      expect(issues(op, { ...BASE[op], colour: 'red', Size: 10 })).toEqual([
        { path: 'colour', message: 'unknown field' },
        { path: 'Size', message: 'unknown field' },
      ]);
    });
  }
  it('size and page belong to their own operations only', () => {
    expect(paths('firmCount', { size: 10 })).toEqual(['size']);
    expect(paths('shipmentSearch', { size: 10, page: 1 })).toEqual(['page']);
    expect(paths('shipmentCount', { firm: 'x', page: 1 })).toEqual(['page']);
  });
  it('checkFilter checks a bare filter with the same rules', () => {
    expect(checkFilter({ product_detail: 'steel', hs_codes: ['7306'] }).ok).toBe(true);
    const r = checkFilter({ size: 10, hs_codes: ['x'] });
    expect(r.ok ? [] : r.issues.map((i) => i.path).sort()).toEqual(['hs_codes[0]', 'size']);
  });
});

describe('robustness', () => {
  it.each([null, undefined, [], 'size=10', 42])(
    'a non-object body (%j) is one whole-request issue',
    (input) => {
      expect(issues('shipmentSearch', input)).toEqual([
        { path: '', message: 'the request body must be a JSON object' },
      ]);
    },
  );
  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OPS), fc.anything(), (op, input) => {
        const r = checkRequest(op, input);
        return r.ok || (r.issues.length > 0 && r.issues.every((i) => typeof i.message === 'string'));
      }),
      { numRuns: 300 },
    );
  });
  it('a valid request passes unchanged (what is checked is what is sent)', () => {
    const req = {
      size: 500,
      importer_countries: ['TR', 'DE'],
      hs_codes: ['730640'],
      start_date: '2024-01-01',
      end_date: '2024-12-31',
      product_detail: 'Çelik boru ürünleri, İstanbul',
    };
    const r = checkRequest('shipmentSearch', req);
    expect(r.ok && r.value).toEqual(req);
  });
});
