import {
  COUNTRY_LIST_FIELDS,
  FIELD_LABELS,
  FILTER_FIELDS,
  KEYWORD_FIELDS,
  MAX_LIST_ITEMS,
  checkFilter,
  checkRequest,
  describeFieldIssue,
  labelledFieldOf,
  type FilterField,
  type KeywordField,
  type SearchType,
  type ShipmentFilter,
  type SpecIssue,
} from '@shared/spec';
import { unknownAccountMessage } from '../../session';
import { isKnownCountryCode } from './countries';

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

/**
 * A date typed with other separators or without leading zeros ("2024/3/5", "2024.03.05") written the
 * one way the service reads (2024-03-05); anything else is returned as typed, to be reported.
 */
export function normalizeDateText(text: string): string {
  const m = /^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\s*$/.exec(text);
  if (!m) return text.trim();
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  return `${y}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}`;
}

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

export { FIELD_LABELS };

/**
 * One issue as the analyst reads it (`HS codes: “84a”: digits only`, `Date to: must not be before
 * Date from`): the shared words of every refusal, with the entry at fault read from the draft.
 */
export function describeFormIssue(issue: SpecIssue, draft?: FilterDraft): string {
  const slot = slotOf(issue.path);
  if (slot === 'form' && labelledFieldOf(issue.path) === null)
    return describeFieldIssue({ path: '', message: issue.message });
  const index = /\[(\d+)\]/.exec(issue.path)?.[1];
  const list = draft && index !== undefined && slot in draft ? draft[slot as keyof FilterDraft] : undefined;
  const entry = Array.isArray(list) ? list[Number(index)] : undefined;
  return describeFieldIssue(issue, entry);
}

/** Which check a run button needs: the plain filter, or a whole request of one operation. */
export type RunKind = 'filter' | 'shipmentSearch' | 'firmSearch' | 'firmCount';

/** Where a message is shown: a filter field, the size/page control, or the form as a whole. */
export type FormSlot = FilterField | 'size' | 'page' | 'form';

export interface Validation {
  valid: boolean;
  /** Messages per slot, in the form's words (`HS codes: “84a”: digits only`). */
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

/** What a run is checked against besides the spec: the accounts the service reported for the active profile. */
export interface ValidationExtra {
  size?: number;
  page?: number;
  /** The usage summary's accounts; undefined while usage is not known (then any name is let through). */
  accounts?: readonly string[];
  /** The active profile's default account, which main sends when the filter names none. */
  defaultAccount?: string;
  /** Text typed into a list's picker and not (yet) added as an entry. */
  typed?: Partial<Record<ListField, string>>;
  /** Lists whose typed text was refused; the field says why already (`FilterState.refused`). */
  refused?: Partial<Record<ListField, string>>;
}

/**
 * Text left typed in a list field ("Germ" in Importer countries, never picked): the analyst sees it in
 * the field, so a run without it would silently search something else. It blocks the run until it is
 * added or cleared.
 */
export function typedIssues(
  typed: ValidationExtra['typed'],
  refused: ValidationExtra['refused'] = {},
): SpecIssue[] {
  return Object.entries(typed ?? {})
    .filter(([, text]) => text !== undefined && text.trim() !== '')
    .map(([field, text]) => ({
      path: field,
      // Text Enter already refused is said by its refusal (Enter would only refuse it again).
      message:
        refused[field as ListField]?.replace(/\.$/, '') ??
        `“${(text as string).trim()}” is typed but not added: pick it from the list (or press Enter), or clear it`,
    }));
}

/**
 * Checks the spec's schema cannot make: a country code must be one of the reference list (the
 * schema only checks its shape), and the account must be one the service reported, since the
 * service refuses any other with a 400 after the request was sent.
 */
export function referenceIssues(d: FilterDraft, extra: ValidationExtra): SpecIssue[] {
  const issues: SpecIssue[] = [];
  for (const field of COUNTRY_LIST_FIELDS) {
    d[field].forEach((code, i) => {
      if (/^[A-Z]{2}$/.test(code) && !isKnownCountryCode(code)) {
        issues.push({
          path: `${field}[${i}]`,
          message: `${code} is not a country code in the reference list`,
        });
      }
    });
  }
  const named = d.account_name.trim();
  if (named) {
    const problem = unknownAccountMessage(extra.accounts, named);
    if (problem) issues.push({ path: 'account_name', message: problem });
  } else if (extra.defaultAccount) {
    const problem = unknownAccountMessage(extra.accounts, extra.defaultAccount);
    if (problem) {
      issues.push({
        path: 'account_name',
        message: `the profile's default account ${extra.defaultAccount} is ${problem}; name one here or change the profile in Settings`,
      });
    }
  }
  return issues;
}

export function validateDraft(d: FilterDraft, kind: RunKind, extra: ValidationExtra = {}): Validation {
  const filter = draftToFilter(d);
  const checked =
    kind === 'filter'
      ? checkFilter(filter)
      : kind === 'shipmentSearch'
        ? checkRequest('shipmentSearch', { ...filter, size: extra.size })
        : kind === 'firmSearch'
          ? checkRequest('firmSearch', { ...filter, page: extra.page ?? 1 })
          : checkRequest('firmCount', filter);
  const typed = typedIssues(extra.typed, extra.refused);
  const all = [...(checked.ok ? [] : checked.issues), ...referenceIssues(d, extra), ...typed];
  if (all.length === 0) return { valid: true, bySlot: {}, issues: [], reason: null };
  const bySlot: Partial<Record<FormSlot, string[]>> = {};
  for (const issue of all) {
    // A refused entry is said at its field by the refusal (why it cannot be added); saying it is not
    // added as well would only repeat it.
    if (typed.includes(issue) && extra.refused?.[issue.path as ListField]) continue;
    (bySlot[slotOf(issue.path)] ??= []).push(describeFormIssue(issue, d));
  }
  // A rule of the whole form ("Firm search needs at least one filter") has no field to be said at:
  // the run bar says each of them, and the form does not repeat them. Else the first field's message.
  const said = bySlot.form?.length ? bySlot.form : [describeFormIssue(all[0] as SpecIssue, d)];
  const more = all.length - said.length;
  const reason = `Cannot run: ${said.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
  return { valid: false, bySlot, issues: all, reason };
}

export function isDraftEmpty(d: FilterDraft): boolean {
  return Object.keys(draftToFilter(d)).length === 0;
}

/** Lists the spec caps at MAX_LIST_ITEMS; firm_filter has no stated cap. */
const CAPPED: ReadonlySet<ListField> = new Set<ListField>([
  'importer_countries',
  'exporter_countries',
  'hs_codes',
]);
const LIST_NOUN: Record<ListField, string> = {
  importer_countries: 'importer countries',
  exporter_countries: 'exporter countries',
  hs_codes: 'HS codes',
  firm_filter: 'firm type codes',
};

/**
 * Why a tag may not be added, or null. Refused at the picker rather than reported after the fact:
 * an 11th country or an unknown code would only make the run button refuse later.
 */
export function tagRefusal(
  field: ListField,
  value: string,
  current: readonly string[],
  /** The text as the analyst typed it (`value` is a country list's upper-cased code). */
  typed: string = value,
): string | null {
  if (current.includes(value)) return null;
  if (CAPPED.has(field) && current.length >= MAX_LIST_ITEMS) {
    return `At most ${MAX_LIST_ITEMS} ${LIST_NOUN[field]}: remove one before adding ${value}.`;
  }
  if ((field === 'importer_countries' || field === 'exporter_countries') && !isKnownCountryCode(value)) {
    // Two or three letters were meant as a code; anything longer was a name, said back as it was typed
    // ("Narnia", not "NARNIA is not a country code").
    return /^[A-Z]{2,3}$/.test(value)
      ? `${value} is not a country code in the reference list: pick a country from the list, or ALL.`
      : `No country is called “${typed}”: pick a country from the list (names, aliases such as UK or USA, and ISO codes are found there), or ALL.`;
  }
  return null;
}
