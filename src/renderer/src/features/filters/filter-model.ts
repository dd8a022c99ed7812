import {
  FILTER_FIELDS,
  KEYWORD_FIELDS,
  checkFilter,
  checkRequest,
  describeIssue,
  type FilterField,
  type KeywordField,
  type SearchType,
  type ShipmentFilter,
  type SpecIssue,
} from '@shared/spec';

/**
 * What the form holds while the user types. Lists are tags; firm type codes stay text until they
 * are checked so that "12a" can be shown back with its message instead of being silently dropped.
 */
export interface FilterDraft {
  account_name: string;
  importer_countries: string[];
  exporter_countries: string[];
  hs_codes: string[];
  start_date: string;
  end_date: string;
  firm_filter: string[];
  search_type: '' | SearchType;
  product_detail: string;
  exporter_firm: string;
  importer_firm: string;
  brand_name: string;
  arrival_port: string;
  departure_port: string;
}

export type ListField = 'importer_countries' | 'exporter_countries' | 'hs_codes' | 'firm_filter';
export type TextField = KeywordField | 'account_name' | 'start_date' | 'end_date';

export const emptyDraft = (): FilterDraft => ({
  account_name: '',
  importer_countries: [],
  exporter_countries: [],
  hs_codes: [],
  start_date: '',
  end_date: '',
  firm_filter: [],
  search_type: '',
  product_detail: '',
  exporter_firm: '',
  importer_firm: '',
  brand_name: '',
  arrival_port: '',
  departure_port: '',
});

const WHOLE_NUMBER = /^-?\d+$/;

/** The request filter for a draft: empty fields are left out, since "no value" means "no filter". */
export function draftToFilter(d: FilterDraft): ShipmentFilter {
  const f: Record<string, unknown> = {};
  if (d.account_name.trim()) f.account_name = d.account_name.trim();
  for (const k of ['importer_countries', 'exporter_countries', 'hs_codes'] as const) {
    if (d[k].length) f[k] = [...d[k]];
  }
  if (d.start_date) f.start_date = d.start_date;
  if (d.end_date) f.end_date = d.end_date;
  if (d.firm_filter.length) {
    // Non-numbers are passed on as text on purpose: the spec schema then reports them at their index.
    f.firm_filter = d.firm_filter.map((t) => (WHOLE_NUMBER.test(t.trim()) ? Number(t.trim()) : t));
  }
  if (d.search_type) f.search_type = d.search_type;
  for (const k of KEYWORD_FIELDS) {
    const v = d[k].trim();
    if (v) f[k] = v;
  }
  return f as ShipmentFilter;
}

export function filterToDraft(f: ShipmentFilter): FilterDraft {
  const d = emptyDraft();
  d.account_name = f.account_name ?? '';
  d.importer_countries = [...(f.importer_countries ?? [])];
  d.exporter_countries = [...(f.exporter_countries ?? [])];
  d.hs_codes = [...(f.hs_codes ?? [])];
  d.start_date = f.start_date ?? '';
  d.end_date = f.end_date ?? '';
  d.firm_filter = (f.firm_filter ?? []).map(String);
  d.search_type = f.search_type ?? '';
  for (const k of KEYWORD_FIELDS) d[k] = f[k] ?? '';
  return d;
}

/** Which check a run button needs: the plain filter, or a whole request of one operation. */
export type RunKind = 'filter' | 'shipmentSearch' | 'firmSearch' | 'firmCount';

/** Where a message is shown: a filter field, the size/page control, or the form as a whole. */
export type FormSlot = FilterField | 'size' | 'page' | 'form';

export interface Validation {
  valid: boolean;
  /** Messages per slot, already readable (`hs_codes[2]: digits only`). */
  bySlot: Partial<Record<FormSlot, string[]>>;
  issues: SpecIssue[];
  /** One line for a disabled run button: why it cannot run. */
  reason: string | null;
}

const SLOTS = new Set<string>([...FILTER_FIELDS, 'size', 'page']);

/** `hs_codes[2]` → `hs_codes`; anything that names no field goes to the form. */
export function slotOf(path: string): FormSlot {
  const head = /^[A-Za-z_]+/.exec(path)?.[0] ?? '';
  return SLOTS.has(head) ? (head as FormSlot) : 'form';
}

export function validateDraft(d: FilterDraft, kind: RunKind, extra: { size?: number; page?: number } = {}): Validation {
  const filter = draftToFilter(d);
  const checked =
    kind === 'filter'
      ? checkFilter(filter)
      : kind === 'shipmentSearch'
        ? checkRequest('shipmentSearch', { ...filter, size: extra.size })
        : kind === 'firmSearch'
          ? checkRequest('firmSearch', { ...filter, page: extra.page ?? 1 })
          : checkRequest('firmCount', filter);
  if (checked.ok) return { valid: true, bySlot: {}, issues: [], reason: null };
  const bySlot: Partial<Record<FormSlot, string[]>> = {};
  for (const issue of checked.issues) {
    (bySlot[slotOf(issue.path)] ??= []).push(describeIssue(issue));
  }
  const n = checked.issues.length;
  const first = checked.issues[0] ? describeIssue(checked.issues[0]) : '';
  const reason = n === 1 ? `Cannot run: ${first}` : `Cannot run: ${first} (and ${n - 1} more)`;
  return { valid: false, bySlot, issues: checked.issues, reason };
}

export function isDraftEmpty(d: FilterDraft): boolean {
  return Object.keys(draftToFilter(d)).length === 0;
}
