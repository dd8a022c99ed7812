import { describe, expect, it } from 'vitest';
import { activeFilterFields, checkRequest, describeIssues, type SpecIssue } from '@shared/spec';

function firmSearch(input: Record<string, unknown>): SpecIssue[] {
  const r = checkRequest('firmSearch', { page: 1, ...input });
  return r.ok ? [] : r.issues;
}

const RULE_1: SpecIssue = { path: '', message: 'firm search needs at least one filter' };
const RULE_2: SpecIssue = {
  path: 'exporter_countries',
  message: 'exporter_countries needs at least one other filter',
};

describe('firm search rule 1: at least one filter parameter', () => {
  it('page alone is rejected, with a message that reads on its own', () => {
    expect(firmSearch({})).toEqual([RULE_1]);
    expect(describeIssues([RULE_1])).toBe('firm search needs at least one filter');
  });

  it.each([
    ['account_name (an account context, not a filter)', { account_name: 'acme' }],
    ['empty lists', { hs_codes: [], importer_countries: [] }],
    ['importer_countries ["ALL"] (the service default, rule 3)', { importer_countries: ['ALL'] }],
  ])('%s does not count as a filter', (_name, input) => {
    expect(firmSearch(input)).toEqual([RULE_1]);
  });

  it.each([
    ['a keyword', { product_detail: 'steel' }],
    ['an HS code', { hs_codes: ['7306'] }],
    ['an importer country', { importer_countries: ['TR'] }],
    ['a date', { start_date: '2024-01-01' }],
    ['a search type', { search_type: 'exporter' }],
    ['a firm type', { firm_filter: [2] }],
  ])('%s is enough', (_name, input) => {
    expect(firmSearch(input)).toEqual([]);
  });
});

describe('firm search rule 2: exporter_countries needs another parameter', () => {
  it('exporter_countries alone is rejected at its own path, message not doubled', () => {
    expect(firmSearch({ exporter_countries: ['DE'] })).toEqual([RULE_2]);
    expect(describeIssues([RULE_2])).toBe('exporter_countries needs at least one other filter');
  });

  it('with importer_countries ["ALL"] or account_name it is still alone', () => {
    expect(firmSearch({ exporter_countries: ['DE'], importer_countries: ['ALL'] })).toEqual([RULE_2]);
    expect(firmSearch({ exporter_countries: ['DE'], account_name: 'acme' })).toEqual([RULE_2]);
  });

  it.each([
    { importer_countries: ['TR'] },
    { hs_codes: ['7306'] },
    { brand_name: 'Acme' },
    { end_date: '2024-12-31' },
  ])('with %j it is accepted', (other) => {
    expect(firmSearch({ exporter_countries: ['DE'], ...other })).toEqual([]);
  });

  it('exporter_countries ["ALL"] alone is no filter at all: rule 1, not rule 2', () => {
    expect(firmSearch({ exporter_countries: ['ALL'] })).toEqual([RULE_1]);
  });
});

describe('the rules are firm-search only', () => {
  it('firm count accepts an empty filter and exporter_countries alone ("all are optional")', () => {
    expect(checkRequest('firmCount', {}).ok).toBe(true);
    expect(checkRequest('firmCount', { exporter_countries: ['DE'] }).ok).toBe(true);
  });
  it('shipment search accepts exporter_countries alone', () => {
    expect(checkRequest('shipmentSearch', { size: 10, exporter_countries: ['DE'] }).ok).toBe(true);
  });
});

describe('activeFilterFields', () => {
  it('lists the fields that narrow the query, in spec order', () => {
    expect(
      activeFilterFields({
        product_detail: 'steel',
        account_name: 'acme',
        importer_countries: ['ALL'],
        exporter_countries: ['ALL', 'DE'],
        hs_codes: [],
      }),
    ).toEqual(['exporter_countries', 'product_detail']);
  });
});
