/**
 * From a file's header row to the record's fields: the automatic mapping by name and common
 * synonyms, the header row found below title rows, the kind of record, and the locale the values are
 * written in. Pure functions over a sample of rows, so the preview, the import and the tests agree.
 */
import { DATASET_KINDS, fieldDefsOf, fieldTypeOf, type DatasetKind, type FieldType } from '@shared/fields';
import type { ImportLocale } from '@shared/library/import-contract';
import { columnLetters } from '@shared/spreadsheet-columns';

/** A header as compared: lower case, letters and digits only ("USD FOB" → "usdfob"). */
export function headerKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/**
 * Common names other tools and people give the fields, beyond the field names and the grid's titles:
 * in English, then as customs data of Spanish-, Portuguese-, French-, German- and Turkish-speaking
 * countries names them (compared without accents or case, as every header is).
 */
const SHIPMENT_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  importerName: [
    'importer',
    'consignee',
    'consignee name',
    'buyer',
    'buyer name',
    'importer company',
    'importador',
    'consignatario',
    'importateur',
    'importeur',
    'ithalatçı',
    'ithalatçı firma',
  ],
  exporterName: [
    'exporter',
    'shipper',
    'shipper name',
    'supplier',
    'supplier name',
    'seller',
    'exporter company',
    'exportador',
    'embarcador',
    'exportateur',
    'exporteur',
    'ihracatçı',
    'ihracatçı firma',
  ],
  importerCountry: [
    'importer country',
    'import country',
    'destination country',
    'country of destination',
    'buyer country',
    'consignee country',
    'país importador',
    'país de destino',
    'pays de destination',
    'bestimmungsland',
  ],
  exporterCountry: [
    'exporter country',
    'export country',
    'shipper country',
    'supplier country',
    'país exportador',
    'país de procedencia',
    'pays de provenance',
  ],
  importerAddress: ['consignee address', 'buyer address'],
  exporterAddress: ['shipper address', 'supplier address'],
  importerTaxId: ['importer tax id', 'consignee tax id', 'importer vat', 'importer id'],
  exporterTaxId: ['exporter tax id', 'shipper tax id', 'exporter vat', 'exporter id'],
  hsCode: [
    'hs',
    'hs code',
    'hscode',
    'hts',
    'hts code',
    'commodity code',
    'tariff code',
    'customs code',
    'hs code 10',
    'hs code 8',
    'hs code 6',
    'gtip',
    'partida arancelaria',
    'posición arancelaria',
    'código arancelario',
    'código hs',
    'ncm',
    'código ncm',
    'code sh',
    'nomenclature douanière',
    'warennummer',
    'zolltarifnummer',
    'gtip kodu',
    'hs kodu',
  ],
  hsCodeDescription: ['hs description', 'hs code description', 'tariff description'],
  productDetails: [
    'product',
    'product description',
    'products',
    'description',
    'goods',
    'goods description',
    'description of goods',
    'commodity',
    'commodity description',
    'item description',
    'product details',
    'descripción',
    'descripción de la mercancía',
    'mercancía',
    'descrição',
    'descrição da mercadoria',
    'désignation des marchandises',
    'warenbeschreibung',
    'eşya tanımı',
  ],
  arrivalDate: [
    'date',
    'arrival date',
    'shipment date',
    'import date',
    'arrival',
    'eta',
    'date of arrival',
    'date of import',
    'declaration date',
    'fecha',
    'fecha de llegada',
    'fecha de importación',
    'data de chegada',
    "date d'arrivée",
    'datum',
    'tarih',
  ],
  usdFob: [
    'fob usd',
    'usd fob',
    'fob value usd',
    'fob value (usd)',
    'fob us$',
    'value usd',
    'usd value',
    'total value usd',
    'us$ fob',
    'total fob value usd',
    'valor fob usd',
    'valor fob (usd)',
    'valor fob us$',
    'valeur fob usd',
  ],
  usdCif: [
    'cif usd',
    'usd cif',
    'cif value usd',
    'cif value (usd)',
    'cif us$',
    'valor cif usd',
    'valor cif (usd)',
    'valeur cif usd',
  ],
  fobValue: ['fob', 'fob value', 'fob amount'],
  cifValue: ['cif', 'cif value', 'cif amount'],
  fobCurrency: ['fob currency', 'currency'],
  quantity: ['qty', 'quantity', 'quantities', 'cantidad', 'quantidade', 'quantité', 'menge', 'miktar'],
  quantityUnit: [
    'unit',
    'units',
    'qty unit',
    'quantity unit',
    'quantity units',
    'uom',
    'unit of measure',
    'unidad',
    'unidade',
    'unité',
    'einheit',
    'birim',
  ],
  grossWeight: [
    'gross weight',
    'gross wt',
    'weight',
    'gross weight kg',
    'weight kg',
    'gross kg',
    'peso bruto',
    'poids brut',
    'bruttogewicht',
    'brüt ağırlık',
  ],
  netWeight: [
    'net weight',
    'net wt',
    'net weight kg',
    'net kg',
    // Eurostat's and customs declarations' word for it.
    'net mass',
    'net mass kg',
    'peso neto',
    'peso líquido',
    'poids net',
    'nettogewicht',
    'net ağırlık',
  ],
  countryOfOrigin: [
    'country of origin',
    'origin',
    'origin country',
    'país de origen',
    'país de origem',
    'origen',
    'origem',
    "pays d'origine",
    'ursprungsland',
    'menşe ülke',
  ],
  portOfArrival: [
    'port of arrival',
    'arrival port',
    'port of discharge',
    'discharge port',
    'pod',
    'destination port',
    'port of unloading',
    'port of entry',
    // US customs' word for the port where the goods are unloaded.
    'port of unlading',
    'puerto de llegada',
    'puerto de descarga',
    'porto de descarga',
    'port de déchargement',
  ],
  portOfDeparture: [
    'port of departure',
    'departure port',
    'port of loading',
    'loading port',
    'pol',
    'origin port',
    'port of lading',
    'puerto de embarque',
    'puerto de carga',
    'porto de embarque',
    "port d'embarquement",
  ],
  billOfLadingNo: [
    'bill of lading',
    'bill of lading no',
    'bill of lading number',
    'bl',
    'b/l',
    'bl no',
    'bl number',
    'bol',
  ],
  transportType: [
    'transport',
    'transport mode',
    'mode of transport',
    'transport type',
    'shipping mode',
    'vía de transporte',
    'modo de transporte',
    'mode de transport',
  ],
  transportCompany: ['carrier', 'carrier name', 'shipping line', 'transport company'],
  vesselName: ['vessel', 'vessel name', 'ship name'],
  brandName: ['brand', 'brand name', 'marks'],
  incoterms: ['incoterm', 'incoterms', 'delivery terms', 'terms of delivery'],
  containerCount: ['containers', 'container count', 'no of containers', 'number of containers'],
  unitPrice: ['unit price', 'unit price usd', 'price', 'unit value'],
  declarationNumber: ['declaration', 'declaration no', 'declaration number', 'customs declaration'],
  packageAmount: ['packages', 'package count', 'no of packages', 'number of packages'],
  packagesUnit: ['package unit', 'package type'],
  paymentType: ['payment', 'payment terms', 'payment type'],
};

const FIRM_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  name: [
    'firm',
    'firm name',
    'company',
    'company name',
    'name',
    'empresa',
    'razón social',
    'société',
    'entreprise',
    'firma',
    'unternehmen',
    'firma adı',
  ],
  country: ['country', 'country name', 'país', 'pays', 'ülke'],
  country_code: ['country code', 'iso', 'iso code', 'country iso'],
  address: ['address', 'street address'],
  city_state: ['city', 'city state', 'city / state', 'state'],
  tel: ['tel', 'phone', 'telephone', 'phone number', 'teléfono', 'telefone', 'téléphone', 'telefon'],
  e_mail: ['email', 'e-mail', 'mail', 'email address'],
  web: ['web', 'website', 'url', 'web site', 'homepage'],
  firm_type: ['type', 'firm type', 'company type'],
  shipment_count: ['shipments', 'shipment count', 'number of shipments', 'shipments count'],
};

function dictionary(kind: DatasetKind): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  const synonyms = kind === 'shipments' ? SHIPMENT_SYNONYMS : FIRM_SYNONYMS;
  // Exact field names and the grid's titles first; synonyms never take a key a name already has.
  for (const d of fieldDefsOf(kind)) {
    out.set(headerKey(d.field), d.field);
    if (!out.has(headerKey(d.title))) out.set(headerKey(d.title), d.field);
  }
  for (const [field, names] of Object.entries(synonyms))
    for (const n of names) if (!out.has(headerKey(n))) out.set(headerKey(n), field);
  return out;
}

const DICTIONARIES: Record<DatasetKind, ReadonlyMap<string, string>> = {
  shipments: dictionary('shipments'),
  firms: dictionary('firms'),
};

/** The field a header names, by exact name, the grid's title or a common synonym; null when none. */
export function fieldForHeader(kind: DatasetKind, header: string): string | null {
  const key = headerKey(header);
  return key ? (DICTIONARIES[kind].get(key) ?? null) : null;
}

/** Each header's field; a field is taken by the first header that names it. */
export function autoMapping(kind: DatasetKind, headers: readonly string[]): (string | null)[] {
  const taken = new Set<string>();
  return headers.map((h) => {
    const f = fieldForHeader(kind, h);
    if (!f || taken.has(f)) return null;
    taken.add(f);
    return f;
  });
}

/** The kind whose fields the headers name most; shipments when neither is named more. */
export function guessKind(headers: readonly string[]): DatasetKind {
  const counts = DATASET_KINDS.map((k) => autoMapping(k, headers).filter((f) => f !== null).length);
  const [ship = 0, firm = 0] = counts;
  return firm > ship ? 'firms' : 'shipments';
}

function cellText(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * The header row among the first rows of a sheet: the one naming the most fields (title rows above a
 * table name none); without any field name, the first row of two or more texts only. 0-based index
 * into `rows`.
 */
export function findHeaderRow(rows: readonly (readonly unknown[])[]): number {
  let best = -1;
  let bestScore = 0;
  const limit = Math.min(rows.length, 30);
  for (let i = 0; i < limit; i++) {
    const score = fieldsNamed((rows[i] ?? []).map(cellText));
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  if (best >= 0) return best;
  for (let i = 0; i < limit; i++) {
    const row = rows[i] ?? [];
    const filled = row.filter((v) => v !== null && v !== undefined && v !== '');
    if (filled.length >= 2 && filled.every((v) => typeof v === 'string')) return i;
  }
  return 0;
}

/** The most fields a row of headers names, under either kind. */
function fieldsNamed(headers: readonly string[]): number {
  return Math.max(...DATASET_KINDS.map((k) => autoMapping(k, headers).filter((f) => f).length));
}

/**
 * A header of two rows, as reports group columns ("Value" over "USD FOB" and "Quantity"): the row
 * under the header holds only text, names some columns the header leaves empty, and the two together
 * name more fields than either alone. A column's name is its heading and sub-heading together when
 * that names a field ("Importer Name"), else the sub-heading when it does ("USD FOB"), else both;
 * the header's own name where nothing is under it. Null when the row under the header is not part of it.
 */
export function twoRowHeader(top: readonly unknown[], under: readonly unknown[]): string[] | null {
  const width = Math.max(top.length, under.length);
  const names = (name: string): boolean => DATASET_KINDS.some((k) => fieldForHeader(k, name) !== null);
  let fillsGap = false;
  let heading = '';
  const merged: string[] = [];
  for (let c = 0; c < width; c++) {
    const v = under[c];
    const sub = cellText(v);
    // A number, or text of digits and signs only ("2025", "12.5%"), is a record's, not a heading's.
    if (
      v !== null &&
      v !== undefined &&
      (typeof v !== 'string' || (sub !== '' && /^[\d.,:/()%+-]+$/.test(sub)))
    )
      return null;
    const head = cellText(top[c]);
    // A heading spans the empty cells to its right ("Importer" over "Name" and "Country").
    if (head) heading = head;
    if (sub && !head) fillsGap = true;
    if (!sub) merged.push(head);
    else {
      // "Importer" + "Name" names a field; "Value" + "USD FOB" does not, but "USD FOB" does.
      const joined = heading ? `${heading} ${sub}` : sub;
      merged.push(names(joined) || !names(sub) ? joined : sub);
    }
  }
  if (!fillsGap) return null;
  const alone = Math.max(fieldsNamed(top.map(cellText)), fieldsNamed(under.map(cellText)));
  return fieldsNamed(merged) > alone ? merged : null;
}

/** A header another tool writes over a column it made up: none, or pandas' "Unnamed: 0" read back. */
const UNNAMED = /^(?:Unnamed: \d+)?$/;

/**
 * The leading columns that are a row index another tool wrote, not data: no name in the header row
 * (or pandas' "Unnamed: 0") over whole numbers from 0 or up that only grow, in every row below (as
 * pandas writes a DataFrame's index, filtered or not). At least two rows must show it.
 */
export function rowIndexColumns(header: readonly unknown[], rows: readonly (readonly unknown[])[]): number[] {
  const out: number[] = [];
  // The table's rows: up to a blank row below them (notes under a table are not indexed).
  const filled: (readonly unknown[])[] = [];
  for (const r of rows) {
    if (r.some((v) => cellText(v) !== '' || typeof v === 'number')) filled.push(r);
    else if (filled.length > 0) break;
  }
  if (filled.length < 2) return out;
  for (let c = 0; c < header.length; c++) {
    const name = header[c];
    if (!(name === null || name === undefined || (typeof name === 'string' && UNNAMED.test(name.trim()))))
      break;
    let last = -1;
    const grows = filled.every((r) => {
      const v = r[c];
      const n = typeof v === 'number' ? v : /^\d{1,15}$/.test(cellText(v)) ? Number(cellText(v)) : NaN;
      if (!Number.isSafeInteger(n) || n <= last) return false;
      last = n;
      return true;
    });
    if (!grows) break;
    out.push(c);
  }
  return out;
}

/** A header cell's text, trimmed: "" for a blank one. */
function headerCellText(raw: unknown): string {
  return (typeof raw === 'string' ? raw : raw === null || raw === undefined ? '' : String(raw)).trim();
}

/**
 * Headers as shown and stored for extra columns: trimmed, never empty, never twice. A blank header
 * cell is named by its column's letters ("Column G"); blankHeaders says which those are, since the
 * same words may be written in the header row itself (a template's spare columns).
 */
export function headerNames(row: readonly unknown[], width: number): string[] {
  const seen = new Map<string, number>();
  const out: string[] = [];
  for (let c = 0; c < width; c++) {
    const name = headerCellText(row[c]) || `Column ${columnLetters(c)}`;
    const n = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), n);
    out.push(n > 1 ? `${name} (${n})` : name);
  }
  return out;
}

/** A file's column names (headerNames) and which of them it leaves blank (blankHeaders). */
export interface FileHeaders {
  headers: readonly string[];
  blank: readonly number[];
}

/** The columns (0-based) whose header cell is blank: columns with no name in the file. */
export function blankHeaders(row: readonly unknown[], width: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < width; c++) if (!headerCellText(row[c])) out.push(c);
  return out;
}

/** A currency sign or code written with an amount ("$1,500.00", "1.500,00 €", "USD 1,500"). */
const CURRENCY_SIGN = String.raw`US\$|[$€£¥₹₺₽]|USD|EUR|GBP|JPY|CNY|RMB|INR|TRY|RUB|BRL|MXN|CAD|AUD|CHF|KRW|ZAR|AED|SAR`;
// A minus may follow the amount, as accounting systems write negative amounts (withTrailingMinus).
const AMOUNT = String.raw`[+-]?\d[\d.,\s\u00a0\u202f']*?-?`;
const WITH_CURRENCY = new RegExp(
  String.raw`^\s*([+-]?)\s*(?:(${CURRENCY_SIGN})\s*(${AMOUNT})|(${AMOUNT})\s*(${CURRENCY_SIGN}))\s*$`,
  'i',
);

const TRAILING_MINUS = /^(\d(?:[\d.,'\s\u00a0\u202f]*\d)?)\s?-$/;

/**
 * A number with its minus written after it ("1234-", "1.234,50-"), as SAP and other accounting
 * systems write negative amounts, with the minus before it ("-1.234,50"); null for any other text.
 */
export function withTrailingMinus(text: string): string | null {
  const m = TRAILING_MINUS.exec(text.trim());
  return m ? `-${m[1]}` : null;
}

/** A code and the sign written for the same currency, so that "$1,500" and "USD 900" are one currency. */
const SAME_CURRENCY: Readonly<Record<string, string>> = {
  US$: '$',
  USD: '$',
  EUR: '€',
  GBP: '£',
  INR: '₹',
  TRY: '₺',
  RUB: '₽',
  JPY: '¥',
  CNY: '¥',
  RMB: '¥',
};

/** An amount written with one currency sign or code, without it ("$1,500.00" → "1,500.00"); null otherwise. */
export function withoutCurrency(text: string): { amount: string; sign: string } | null {
  const m = WITH_CURRENCY.exec(text);
  if (!m) return null;
  const amount = (m[3] ?? m[4]!).trim();
  const written = (m[2] ?? m[5]!).toUpperCase();
  const sign = SAME_CURRENCY[written] ?? written;
  if (m[1] === '-' && /^[+-]/.test(amount)) return null;
  return { amount: `${m[1] === '-' ? '-' : ''}${amount}`, sign };
}

const COMMA_DECIMAL =
  /^[+-]?(?:\d{1,3}(?:[. \u00a0\u202f']\d{3})+,\d+|\d+,\d{1,2}|\d+,\d{4,}|\d{1,3}(?:\.\d{3}){2,})$/;
/** A whole number grouped with dots ("25.000", "1.234"), or a dot decimal of three digits: which, the file must say. */
const DOT_GROUPED = /^[+-]?\d{1,3}\.\d{3}$/;
const DOT_DECIMAL = /^[+-]?(?:\d{1,3}(?:,\d{3})+\.\d+|\d+\.\d{1,2}|\d+\.\d{4,})$/;
const SLASH_OR_DOT_DATE = /^(\d{1,2})([./-])(\d{1,2})\2(\d{2}|\d{4})$/;

/**
 * Midnight written after a day, as pandas, databases and spreadsheets write a date column holding
 * timestamps ("2025-01-05 00:00:00", "2025-01-05T00:00:00.000Z", "31.12.2025 00:00", and in .NET's and
 * US Excel's way "1/5/2025 12:00:00 AM"; Excel saves a date-and-time cell to CSV with the hour
 * unpadded, "1/5/2025 0:00"): without a zone or at UTC only, so the day is the one written.
 */
const MIDNIGHT = /(?:[ T]0?0:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?|\s+12:00(?::00)?\s*(?:AM|A\.M\.))$/i;

/** A day's text without the midnight written after it, trimmed: what the day order is read from. */
export function withoutMidnight(text: string): string {
  return text.trim().replace(MIDNIGHT, '');
}

/**
 * Any time of day written after a day, without a zone or at UTC, as ERP systems, databases and Excel's
 * date-and-time cells saved to CSV write timestamps ("2025-01-05 14:30:00", "1/13/2025 2:30 PM",
 * "31.12.2025 23:59"): the day written is the day whatever the hour.
 */
const TIME_OF_DAY =
  /^(.*?\d)[ T]\s*([01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d+)?)?(?:\s*(?:[AP]M|[AP]\.M\.))?(?:Z|[+-]00:?00)?$/i;

/** The day's text of a timestamp ("2025-01-05" of "2025-01-05 14:30:00"), trimmed; null when no time follows a day. */
export function dayOfTimestamp(text: string): string | null {
  return TIME_OF_DAY.exec(text.trim())?.[1] ?? null;
}

export interface LocaleEvidence {
  locale: ImportLocale;
  /** A value that proves the decimal separator or the day order, to show the analyst; null when guessed. */
  decimalProof: string | null;
  dateProof: string | null;
  /** The date cells' format that decided the day order ("dd/mm/yyyy") when no value proves it; null otherwise. */
  dateFormatProof: string | null;
  /**
   * Whether some date is written with its day and month both as numbers (31/12/2025, 3.4.2025), whose
   * order the analyst may need to say. ISO dates (2025-12-31), spelled months and a workbook's date
   * cells carry their order with them, so a file of only those is never asked.
   */
  dateOrderMatters: boolean;
  /**
   * A number read with a decimal point that may as well be a whole number grouped with dots
   * ("25.000"), when nothing in the file says which; null otherwise.
   */
  decimalInDoubt: string | null;
}

/**
 * The locale a file's values are written in, read from samples of the columns mapped to decimal and
 * date fields: "12,5" or "1.234,5" prove decimal commas (without any "12.5" against them); a date
 * whose first part is over 12 ("31.12.2025") proves day-first, one whose second part is over 12
 * proves month-first. Undecided dates are read day-first when written with dots, month-first otherwise.
 */
export function guessLocale(
  samples: readonly { type: FieldType; values: readonly unknown[] }[],
  /**
   * The file is a CSV separated by semicolons, as Excel saves one where the decimal separator is a
   * comma: numbers it proves neither way ("25.000", "1.234") are then read with decimal commas.
   */
  semicolons = false,
  /**
   * The order a workbook's date cells show day and month in (their format, e.g. dd/mm/yyyy): the
   * order of dates typed as text beside them when none of those proves it.
   */
  cellOrder: { order: ImportLocale['dates']; format: string } | null = null,
): LocaleEvidence {
  let commaProof: string | null = null;
  let dotProof: string | null = null;
  let grouped: string | null = null;
  let dayFirst: string | null = null;
  let monthFirst: string | null = null;
  let dotted = false;
  let numericDates = false;
  for (const s of samples) {
    for (const v of s.values) {
      if (typeof v !== 'string') continue;
      const t = v.trim();
      if (s.type === 'decimal') {
        // "1.500,00 €" proves decimal commas as "1.500,00" does.
        const bare = withoutCurrency(t)?.amount ?? t;
        const amount = withTrailingMinus(bare) ?? bare;
        if (COMMA_DECIMAL.test(amount)) commaProof ??= t;
        else if (DOT_DECIMAL.test(amount)) dotProof ??= t;
        else if (DOT_GROUPED.test(amount)) grouped ??= t;
      } else if (s.type === 'date') {
        const m = SLASH_OR_DOT_DATE.exec(dayOfTimestamp(t) ?? withoutMidnight(t));
        if (!m) continue;
        numericDates = true;
        if (m[2] === '.') dotted = true;
        if (Number(m[1]) > 12) dayFirst ??= t;
        else if (Number(m[3]) > 12) monthFirst ??= t;
      }
    }
  }
  const decimalComma = dotProof === null && (commaProof !== null || (semicolons && grouped !== null));
  const proven = dayFirst && !monthFirst ? 'dmy' : monthFirst && !dayFirst ? 'mdy' : null;
  const byCells = proven === null && cellOrder !== null && numericDates ? cellOrder : null;
  const dates = proven ?? byCells?.order ?? (dotted ? 'dmy' : 'mdy');
  return {
    locale: { decimal: decimalComma ? ',' : '.', dates },
    decimalProof: decimalComma ? commaProof : null,
    dateProof: proven === 'dmy' ? dayFirst : proven === 'mdy' ? monthFirst : null,
    dateFormatProof: byCells?.format ?? null,
    dateOrderMatters: numericDates,
    decimalInDoubt: decimalComma || dotProof !== null ? null : grouped,
  };
}

export { fieldTypeOf };
