import { z } from 'zod';

/** Spec "Limits": list filters take at most this many items each. */
export const MAX_LIST_ITEMS = 10;
/** Spec "Limits": keyword filters need at least this many characters. */
export const MIN_KEYWORD_LENGTH = 3;
export const SHIPMENT_SEARCH_MIN_SIZE = 10;
export const SHIPMENT_SEARCH_MAX_SIZE = 10_000;
/** The value the service substitutes for an omitted `importer_countries` (firm search rule 3). */
export const ALL_COUNTRIES = 'ALL';

export const SEARCH_TYPES = ['importer', 'exporter'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const KEYWORD_FIELDS = [
  'product_detail',
  'exporter_firm',
  'importer_firm',
  'brand_name',
  'arrival_port',
  'departure_port',
] as const;
export type KeywordField = (typeof KEYWORD_FIELDS)[number];

export const COUNTRY_LIST_FIELDS = ['importer_countries', 'exporter_countries'] as const;

/** Every request field of the spec's "Shipment filter" table, in the table's order. */
export const FILTER_FIELDS = [
  'account_name',
  'importer_countries',
  'exporter_countries',
  'hs_codes',
  'start_date',
  'end_date',
  'firm_filter',
  'search_type',
  ...KEYWORD_FIELDS,
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a `yyyy-MM-dd` string that names a real calendar day (no 2025-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  // Arithmetic rather than Date.UTC, which maps years 0–99 to 1900–1999.
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const daysInMonth = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  return d <= daysInMonth;
}

const text = (what = 'must be text') => z.string({ error: what });

const countryCode = text().regex(/^(?:[A-Z]{2}|ALL)$/, {
  error: 'ISO country code: two capital letters (e.g. DE) or ALL',
});
const countryList = z
  .array(countryCode, { error: 'must be a list of country codes' })
  .max(MAX_LIST_ITEMS, { error: `at most ${MAX_LIST_ITEMS} items` });

const hsCode = text().regex(/^\d+$/, { error: 'digits only' });

const dateText = text().refine(isCalendarDate, { error: 'a real calendar date written yyyy-MM-dd' });

/** Counts code points so that a 3-character Chinese or Turkish keyword is 3 characters. */
const keyword = text().refine((s) => Array.from(s).length >= MIN_KEYWORD_LENGTH, {
  error: `at least ${MIN_KEYWORD_LENGTH} characters`,
});

const int = (what: string) => z.number({ error: `must be ${what}` }).int({ error: `must be ${what}` });

export const shipmentFilterShape = {
  account_name: text().optional(),
  importer_countries: countryList.optional(),
  exporter_countries: countryList.optional(),
  hs_codes: z
    .array(hsCode, { error: 'must be a list of HS codes' })
    .max(MAX_LIST_ITEMS, { error: `at most ${MAX_LIST_ITEMS} items` })
    .optional(),
  start_date: dateText.optional(),
  end_date: dateText.optional(),
  firm_filter: z.array(int('a whole number'), { error: 'must be a list of firm type codes' }).optional(),
  search_type: z.enum(SEARCH_TYPES, { error: 'one of importer, exporter' }).optional(),
  product_detail: keyword.optional(),
  exporter_firm: keyword.optional(),
  importer_firm: keyword.optional(),
  brand_name: keyword.optional(),
  arrival_port: keyword.optional(),
  departure_port: keyword.optional(),
} as const;

export interface ShipmentFilter {
  account_name?: string;
  importer_countries?: string[];
  exporter_countries?: string[];
  hs_codes?: string[];
  start_date?: string;
  end_date?: string;
  firm_filter?: number[];
  search_type?: SearchType;
  product_detail?: string;
  exporter_firm?: string;
  importer_firm?: string;
  brand_name?: string;
  arrival_port?: string;
  departure_port?: string;
}

/** Cross-field rule shared by every operation: a date range runs forwards. */
export function checkDateOrder(
  value: { start_date?: string | undefined; end_date?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const { start_date: start, end_date: end } = value;
  if (start && end && isCalendarDate(start) && isCalendarDate(end) && start > end) {
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'must not be before start_date' });
  }
}

export const shipmentFilterSchema = z.strictObject(shipmentFilterShape).superRefine(checkDateOrder);

/**
 * Whether a filter field narrows the query. Empty lists and strings narrow nothing, and an
 * `importer_countries` of just `ALL` is what the service assumes anyway (rule 3), so none of these
 * count as "a filter parameter" for the firm-search rules. `account_name` selects an account context,
 * not records, so it never counts.
 */
export function isActiveFilter(field: FilterField, value: unknown): boolean {
  if (field === 'account_name' || value === undefined || value === null) return false;
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) {
    if (value.length === 0) return false;
    if (COUNTRY_LIST_FIELDS.includes(field as (typeof COUNTRY_LIST_FIELDS)[number])) {
      return value.some((v) => v !== ALL_COUNTRIES);
    }
    return true;
  }
  return true;
}

export function activeFilterFields(filter: Partial<Record<FilterField, unknown>>): FilterField[] {
  return FILTER_FIELDS.filter((f) => isActiveFilter(f, filter[f]));
}
