import type { SpecIssue } from './issues';

/** Suffixes of the party fields; each exists once with `importer` and once with `exporter`. */
export const PARTY_SUFFIXES = [
  'Name',
  'TaxId',
  'Address',
  'Country',
  'CityState',
  'Email',
  'Facebook',
  'Fax',
  'Instagram',
  'Linkedin',
  'Tel',
  'Twitter',
  'Web',
  'CleanUrl',
  'UrlCode',
  'CompanyTypeCode',
  'CountryCode',
  'TaCode',
] as const;
export type PartySuffix = (typeof PARTY_SUFFIXES)[number];
export const PARTY_PREFIXES = ['importer', 'exporter'] as const;
export type PartyPrefix = (typeof PARTY_PREFIXES)[number];

/** The spec's "Other shipment fields", in its order. */
export const OTHER_SHIPMENT_FIELDS = [
  'arrivalDate',
  'billOfLadingNo',
  'conditionNewUsed',
  'containerCount',
  'countryOfOrigin',
  'fobValue',
  'fobCurrency',
  'usdFob',
  'cifValue',
  'cifCurrency',
  'usdCif',
  'unitPrice',
  'fiCurrency',
  'freightAmount',
  'grossWeight',
  'grossWeightUnit',
  'netWeight',
  'netWeightUnit',
  'quantity',
  'quantityUnit',
  'packageAmount',
  'packagesUnit',
  'hsCode',
  'hsCodeDescription',
  'hsCodeKeyword',
  'insuranceAmount',
  'manufacturingCompany',
  'brandName',
  'incoterms',
  'paymentType',
  'regime',
  'transportType',
  'notifyParty',
  'notifyAddress',
  'portOfArrival',
  'portOfDeparture',
  'itemNo',
  'declarationNumber',
  'importerDataType',
  'exporterDataType',
  'dataType',
  'transportCompany',
  'vesselName',
  'productDetails',
  'statisticalValueUsd',
  'totalTeus',
  'updatedAt',
  'createdAt',
  'addedGroup',
  'hashId',
  'month',
  'year',
] as const;

export type PartyField = `${PartyPrefix}${PartySuffix}`;
export type OtherShipmentField = (typeof OTHER_SHIPMENT_FIELDS)[number];
export type ShipmentField = PartyField | OtherShipmentField;

export const PARTY_FIELDS: readonly PartyField[] = PARTY_PREFIXES.flatMap((p) =>
  PARTY_SUFFIXES.map((s) => `${p}${s}` as PartyField),
);

/** Every field of a shipment record by its exact name: the importer party, the exporter party, the rest. */
export const SHIPMENT_FIELDS: readonly ShipmentField[] = [...PARTY_FIELDS, ...OTHER_SHIPMENT_FIELDS];

/** Fields holding decimal numbers written as text. */
export const DECIMAL_SHIPMENT_FIELDS = [
  'containerCount',
  'fobValue',
  'usdFob',
  'cifValue',
  'usdCif',
  'unitPrice',
  'freightAmount',
  'grossWeight',
  'netWeight',
  'quantity',
  'packageAmount',
  'insuranceAmount',
  'itemNo',
  'statisticalValueUsd',
  'totalTeus',
  'updatedAt',
  'createdAt',
  'month',
  'year',
] as const satisfies readonly ShipmentField[];

export const DATE_SHIPMENT_FIELDS = ['arrivalDate'] as const satisfies readonly ShipmentField[];
/** Unix seconds with a fraction, as text. */
export const EPOCH_SHIPMENT_FIELDS = ['createdAt', 'updatedAt'] as const satisfies readonly ShipmentField[];

/** A shipment record: every known field as text, plus whatever else the service sent (kept as is). */
export type ShipmentRecord = Record<ShipmentField, string> & Record<string, unknown>;

export const FIRM_TEXT_FIELDS = [
  'country',
  'country_code',
  'name',
  'address',
  'city_state',
  'tel',
  'e_mail',
  'web',
] as const;
export const FIRM_INTEGER_FIELDS = ['firm_type', 'shipment_count'] as const;
export const FIRM_FIELDS = [...FIRM_TEXT_FIELDS, ...FIRM_INTEGER_FIELDS] as const;
export type FirmField = (typeof FIRM_FIELDS)[number];

/** A firm record; a missing integer is `null` (the service did not say), never a made-up 0. */
export type FirmRecord = Record<(typeof FIRM_TEXT_FIELDS)[number], string> &
  Record<(typeof FIRM_INTEGER_FIELDS)[number], number | null> &
  Record<string, unknown>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; issue: SpecIssue };

const fail = (path: string, message: string): { ok: false; issue: SpecIssue } => ({
  ok: false,
  issue: { path, message },
});

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Lenient but safe: unknown extra fields are kept, a missing or null text field becomes "", and a
 * present field of the wrong type is an error. A hand-written loop rather than a schema library
 * because a 10,000-record response has close to a million fields and ingest speed is a target.
 */
export function parseShipmentRecord(input: unknown, path = 'shipment'): Parsed<ShipmentRecord> {
  if (!isPlainObject(input)) return fail(path, 'must be an object');
  const out: Record<string, unknown> = { ...input };
  const checked = normaliseShipmentRecord(out, path);
  return typeof checked === 'object'
    ? { ok: false, issue: checked }
    : { ok: true, value: out as ShipmentRecord };
}

/**
 * Checks a record of a freshly parsed response and normalises it in place (a missing or null text
 * field becomes ""): the response is the caller's own, so nothing is copied. Returns the first problem,
 * or whether the record is (still) in the spec's field order. Records that carry exactly the spec's fields in the spec's order (what the service sends)
 * are read with one `Object.values`, about three times faster than 88 reads by name.
 */
function normaliseShipmentRecord(rec: Record<string, unknown>, path: string): SpecIssue | boolean {
  if (hasSpecOrder(rec)) {
    const values = Object.values(rec);
    for (let c = 0; c < values.length; c++) {
      const v = values[c];
      if (typeof v === 'string') continue;
      const field = SHIPMENT_FIELDS[c]!;
      if (v === null) rec[field] = '';
      else return { path: `${path}.${field}`, message: `must be text, got ${typeName(v)}` };
    }
    return true;
  }
  for (const field of SHIPMENT_FIELDS) {
    const v = rec[field];
    if (v === undefined || v === null) rec[field] = '';
    else if (typeof v !== 'string')
      return { path: `${path}.${field}`, message: `must be text, got ${typeName(v)}` };
  }
  // Not in the spec's order (or the fast path would have read it); a missing field went to the end.
  return false;
}

/** Whether a record's own keys are exactly the spec's shipment fields, in the spec's order. */
export function hasSpecOrder(rec: Record<string, unknown>): boolean {
  const keys = Object.keys(rec);
  if (keys.length !== SHIPMENT_FIELDS.length) return false;
  for (let c = 0; c < keys.length; c++) if (keys[c] !== SHIPMENT_FIELDS[c]) return false;
  return true;
}

/**
 * Lists of records a response parser checked, with whether every record is in the spec's field order.
 * Keyed by the list itself, so only the parser can vouch for a list: the library stores a vouched-for
 * list without checking its values a second time, and checks any other list as it stores it.
 */
const checkedLists = new WeakMap<readonly unknown[], { allInSpecOrder: boolean }>();

/** What the response parser vouched for this exact list, or undefined when it did not check it. */
export function checkedRecordList(list: readonly unknown[]): { allInSpecOrder: boolean } | undefined {
  return checkedLists.get(list);
}

/**
 * The records of a checked list that `keep` accepts, as a new list the parser's check still covers: they
 * are the same records, unchanged, so storing them needs no second check. A fetch job drops the records
 * of overlapping windows it already holds before storing the rest; without this the rest would be
 * checked again. A list nobody checked stays unchecked.
 */
export function filterCheckedList<T>(list: readonly T[], keep: (rec: T) => boolean): T[] {
  const out = list.filter((rec) => keep(rec));
  const vouched = checkedLists.get(list);
  if (vouched) checkedLists.set(out, vouched);
  return out;
}

/**
 * Checks and normalises the shipment records of a freshly parsed response in place, and vouches for
 * the list (see `checkedRecordList`): the one check a response gets.
 */
export function checkShipmentRecordList(list: unknown[], path: string): Parsed<ShipmentRecord[]> {
  let allInSpecOrder = true;
  for (let i = 0; i < list.length; i++) {
    const rec: unknown = list[i];
    if (!isPlainObject(rec)) return fail(`${path}[${i}]`, 'must be an object');
    const checked = normaliseShipmentRecord(rec, `${path}[${i}]`);
    if (typeof checked === 'object') return { ok: false, issue: checked };
    if (!checked) allInSpecOrder = false;
  }
  checkedLists.set(list, { allInSpecOrder });
  return { ok: true, value: list as ShipmentRecord[] };
}

/** Checks the firm records of a response (copies: a page holds 100 at most) and vouches for the list. */
export function checkFirmRecordList(list: readonly unknown[], path: string): Parsed<FirmRecord[]> {
  const out = new Array<FirmRecord>(list.length);
  for (let i = 0; i < list.length; i++) {
    const r = parseFirmRecord(list[i], `${path}[${i}]`);
    if (!r.ok) return r;
    out[i] = r.value;
  }
  checkedLists.set(out, { allInSpecOrder: false });
  return { ok: true, value: out };
}

export function parseFirmRecord(input: unknown, path = 'firm'): Parsed<FirmRecord> {
  if (!isPlainObject(input)) return fail(path, 'must be an object');
  const out: Record<string, unknown> = { ...input };
  for (const field of FIRM_TEXT_FIELDS) {
    const v = input[field];
    if (v === undefined || v === null) out[field] = '';
    else if (typeof v !== 'string') return fail(`${path}.${field}`, `must be text, got ${typeName(v)}`);
  }
  for (const field of FIRM_INTEGER_FIELDS) {
    const v = input[field];
    if (v === undefined || v === null) out[field] = null;
    else if (!Number.isInteger(v))
      return fail(`${path}.${field}`, `must be a whole number, got ${typeName(v)}`);
  }
  return { ok: true, value: out as FirmRecord };
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'number') return Number.isInteger(v) ? 'a number' : 'a decimal number';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v).slice(0, 40)}`;
}

/** Reads a required whole-number field of a response object. */
export function requireInteger(obj: Record<string, unknown>, field: string, path: string): Parsed<number> {
  const v = obj[field];
  if (v === undefined || v === null) return fail(`${path}.${field}`, 'missing');
  if (!Number.isInteger(v)) return fail(`${path}.${field}`, `must be a whole number, got ${typeName(v)}`);
  return { ok: true, value: v as number };
}

export { isPlainObject };
