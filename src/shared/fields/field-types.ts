import {
  DATE_SHIPMENT_FIELDS,
  DECIMAL_SHIPMENT_FIELDS,
  EPOCH_SHIPMENT_FIELDS,
  FIRM_FIELDS,
  FIRM_INTEGER_FIELDS,
  PARTY_FIELDS,
  PARTY_SUFFIXES,
  SHIPMENT_FIELDS,
} from '../spec/records';

/** The two kinds of record the service returns, and so the two kinds of dataset. */
export type DatasetKind = 'shipments' | 'firms';
export const DATASET_KINDS = ['shipments', 'firms'] as const satisfies readonly DatasetKind[];

/** Here rather than in the import contract: the import worker asks it of a file and starts without zod. */
export function isDatasetKind(v: unknown): v is DatasetKind {
  return v === 'shipments' || v === 'firms';
}

/**
 * What a field's text stands for. Every shipment value is text (the spec); `decimal`, `date` and
 * `epoch` say how that text is read as a number, a day or an instant (value-text.ts) wherever it is
 * sorted, filtered or written typed. Firm counts are whole numbers (`integer`).
 */
export type FieldType = 'text' | 'decimal' | 'date' | 'epoch' | 'integer';

export interface FieldDef {
  /** The record's field name: the column name in the library, the key of a record. */
  field: string;
  type: FieldType;
  /** The field in the grid's words, standing alone (a spreadsheet header): "Importer Name", "USD FOB". */
  title: string;
}

const decimal: ReadonlySet<string> = new Set(DECIMAL_SHIPMENT_FIELDS);
const dates: ReadonlySet<string> = new Set(DATE_SHIPMENT_FIELDS);
const epochs: ReadonlySet<string> = new Set(EPOCH_SHIPMENT_FIELDS);
const firmIntegers: ReadonlySet<string> = new Set(FIRM_INTEGER_FIELDS);
const partyFields: ReadonlySet<string> = new Set(PARTY_FIELDS);

/** The type of a shipment field; epoch wins over decimal (createdAt is in both of the spec's lists). */
export function shipmentFieldType(field: string): FieldType {
  if (epochs.has(field)) return 'epoch';
  if (dates.has(field)) return 'date';
  if (decimal.has(field)) return 'decimal';
  return 'text';
}

export function firmFieldType(field: string): FieldType {
  return firmIntegers.has(field) ? 'integer' : 'text';
}

/** Trade abbreviations read as such in labels: "USD FOB", not "Usd Fob". */
const ACRONYMS: Readonly<Record<string, string>> = {
  Usd: 'USD',
  Fob: 'FOB',
  Cif: 'CIF',
  Hs: 'HS',
  Url: 'URL',
  Ta: 'TA',
  Teus: 'TEUs',
  Id: 'ID',
  Fi: 'FI',
  Tel: 'Tel.',
  No: 'No.',
  Linkedin: 'LinkedIn',
};

/** Names read as a phrase, not word by word: "City / State", never "City State". */
const PHRASES: readonly (readonly [RegExp, string])[] = [
  [/\bCity State\b/, 'City / State'],
  [/\bCondition New Used\b/, 'Condition (New / Used)'],
  // Short words inside a name stay lower case, as in "Bill of Lading No.", "Port of Arrival".
  [/ Of /g, ' of '],
];

function words(name: string): string {
  const plain = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase())
    .split(' ')
    .map((w) => ACRONYMS[w] ?? w)
    .join(' ');
  return PHRASES.reduce((text, [pattern, phrase]) => text.replace(pattern, phrase), plain);
}

/**
 * A shipment field's label under its column group in the grid: a party field by its suffix alone
 * ("Name" under "Importer"), any other field in words ("USD FOB", "Arrival Date").
 */
export function shipmentFieldLabel(field: string): string {
  if (partyFields.has(field)) {
    const suffix = PARTY_SUFFIXES.find((s) => field.endsWith(s));
    if (suffix) return words(suffix);
  }
  return words(field);
}

/** A shipment field's label standing alone: a party field with its party ("Importer Name"). */
export function shipmentFieldTitle(field: string): string {
  if (partyFields.has(field)) {
    const party = field.startsWith('importer') ? 'Importer' : 'Exporter';
    return `${party} ${shipmentFieldLabel(field)}`;
  }
  return shipmentFieldLabel(field);
}

/** Firm fields in the firm grids' words. */
export const FIRM_FIELD_LABELS: Readonly<Record<(typeof FIRM_FIELDS)[number], string>> = {
  name: 'Name',
  country: 'Country',
  country_code: 'Country code',
  address: 'Address',
  city_state: 'City / state',
  tel: 'Telephone',
  e_mail: 'E-mail',
  web: 'Web',
  firm_type: 'Firm type',
  shipment_count: 'Shipments',
};

export const SHIPMENT_FIELD_DEFS: readonly FieldDef[] = SHIPMENT_FIELDS.map((field) => ({
  field,
  type: shipmentFieldType(field),
  title: shipmentFieldTitle(field),
}));

export const FIRM_FIELD_DEFS: readonly FieldDef[] = FIRM_FIELDS.map((field) => ({
  field,
  type: firmFieldType(field),
  title: FIRM_FIELD_LABELS[field],
}));

/** Every field of a kind, in the spec's record order. */
export function fieldDefsOf(kind: DatasetKind): readonly FieldDef[] {
  return kind === 'shipments' ? SHIPMENT_FIELD_DEFS : FIRM_FIELD_DEFS;
}

const byKind: Record<DatasetKind, ReadonlyMap<string, FieldDef>> = {
  shipments: new Map(SHIPMENT_FIELD_DEFS.map((d) => [d.field, d])),
  firms: new Map(FIRM_FIELD_DEFS.map((d) => [d.field, d])),
};

/** A known field of a kind by its exact name; undefined for anything else. */
export function findFieldDef(kind: DatasetKind, field: string): FieldDef | undefined {
  return byKind[kind].get(field);
}

/** The type of a field of a kind; text for a name the spec does not list (an extra column). */
export function fieldTypeOf(kind: DatasetKind, field: string): FieldType {
  return findFieldDef(kind, field)?.type ?? 'text';
}

/** A field's title standing alone; an extra column keeps its own name. */
export function fieldTitleOf(kind: DatasetKind, field: string): string {
  return findFieldDef(kind, field)?.title ?? field;
}
