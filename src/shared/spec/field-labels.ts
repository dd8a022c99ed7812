import type { FilterField } from './filter';
import type { SpecIssue } from './issues';

/**
 * Every field as the Search form labels it. Messages use these words, never the service's field names
 * (`hs_codes[0]`, `start_date`): the analyst sees labels, not the API. The form, and main's words for a
 * request it refuses (a bridge call's schema, the client's check before sending), read this one table.
 */
export const FIELD_LABELS: Record<FilterField | 'size' | 'page', string> = {
  importer_countries: 'Importer countries',
  exporter_countries: 'Exporter countries',
  hs_codes: 'HS codes',
  start_date: 'Date from',
  end_date: 'Date to',
  firm_filter: 'Firm type codes',
  search_type: 'Search type',
  product_detail: 'Product description',
  exporter_firm: 'Exporter firm name',
  importer_firm: 'Importer firm name',
  brand_name: 'Brand name',
  arrival_port: 'Port of arrival',
  departure_port: 'Port of departure',
  account_name: 'Account name',
  size: 'Records to download',
  page: 'Page',
};

export type LabelledField = keyof typeof FIELD_LABELS;

const isLabelled = (name: string): name is LabelledField => Object.hasOwn(FIELD_LABELS, name);

/** Field names inside a rule's own words ("must not be before start_date"), longest first. */
const NAMES_IN_TEXT = new RegExp(
  `\\b(${Object.keys(FIELD_LABELS)
    .sort((a, b) => b.length - a.length)
    .join('|')})\\b`,
  'g',
);

/** Rules whose words are the spec's, said the way the form puts them. */
const PLAIN_WORDS: Record<string, string> = {
  'a real calendar date written yyyy-MM-dd':
    'not a whole date: type it as yyyy-mm-dd (e.g. 2024-03-31) or pick it',
};

/**
 * The field an issue's path points into: its first part for a request of its own (`hs_codes[2]`), or
 * the first part that names a field for a filter inside a call's input (`request.end_date`); null
 * for a rule about the whole request or a part that is no field of the form.
 */
export function labelledFieldOf(path: string): LabelledField | null {
  for (const part of path.split(/[.[\]]+/)) if (isLabelled(part)) return part;
  return null;
}

/** A label for a part of a call's input that is no field of the form (a grid's quick filter); null: none. */
export type OtherLabel = (path: string) => string | null;

/**
 * One issue as the analyst reads it: the field's label, the entry at fault for a list when it is
 * known (`HS codes: “84a”: digits only`), and any field named in the rule replaced by its label
 * (`Date to: must not be before Date from`). An issue of no field of the form is labelled by
 * `otherLabel` when it knows the part, and keeps its path otherwise.
 */
export function describeFieldIssue(issue: SpecIssue, entry?: string, otherLabel?: OtherLabel): string {
  const message = (PLAIN_WORDS[issue.message] ?? issue.message).replace(NAMES_IN_TEXT, (name) =>
    isLabelled(name) ? FIELD_LABELS[name] : name,
  );
  const field = labelledFieldOf(issue.path);
  if (!field) {
    if (issue.path) return `${otherLabel?.(issue.path) ?? issue.path}: ${message}`;
    return message.charAt(0).toUpperCase() + message.slice(1);
  }
  const label = FIELD_LABELS[field];
  // "Exporter countries needs at least one other filter": the rule already starts with the field.
  if (message.startsWith(label)) return message;
  // The entry is named unless the rule's words already do ("ZZ is not a country code…").
  return entry !== undefined && !message.includes(entry)
    ? `${label}: “${entry}”: ${message}`
    : `${label}: ${message}`;
}

/**
 * The list entry an issue's path points at in the input it was found in (`request.hs_codes[2]` →
 * the third HS code), when it is text; undefined otherwise.
 */
export function entryAt(input: unknown, path: string): string | undefined {
  if (!/\[\d+\]$/.test(path)) return undefined;
  let at: unknown = input;
  for (const part of path.split(/[.[\]]+/).filter(Boolean)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return typeof at === 'string' ? at : undefined;
}

/** Every issue in the form's words, joined as one sentence's parts; entries read from `input`. */
export function describeFieldIssues(
  issues: readonly SpecIssue[],
  input?: unknown,
  otherLabel?: OtherLabel,
): string {
  return issues.map((i) => describeFieldIssue(i, entryAt(input, i.path), otherLabel)).join('; ');
}
