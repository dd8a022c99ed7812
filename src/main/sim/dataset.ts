import { PARTY_SUFFIXES, type PartySuffix, type ShipmentRecord } from '@shared/spec';
import { hash2, mix32, pickBy, Rng } from './prng';
import type { HsSubheading } from './hs-codes';
import {
  inLatin,
  MAILBOX_PROVIDERS,
  phoneSpelling,
  taxIdSpelling,
  variantCount,
  variantSpelling,
  webSpelling,
  type NameParts,
} from './firm-spellings';
import {
  BRANDS,
  CARRIERS,
  CONDITIONS,
  COUNTRIES,
  DATA_TYPES,
  FILLERS,
  FIRM_NAME_PARTS,
  FIRM_TYPES,
  INCOTERMS,
  PACKAGE_UNITS,
  PAYMENT_TYPES,
  PRODUCT_PHRASES,
  PRODUCT_QUALIFIERS,
  QUANTITY_UNITS,
  REGIMES,
  STREET_WORDS,
  TRANSPORT_TYPES,
  USD_RATES,
  VESSEL_WORDS,
  type CountryInfo,
  type Locale,
} from './reference-data';

/** First day of the simulated data (inclusive). */
export const DATA_START = '2021-01-01';
/** Last day of the simulated data (inclusive). */
export const DATA_END = '2025-12-31';
const DAY_MS = 86_400_000;
const BASE_DAY = Date.UTC(2021, 0, 1) / DAY_MS;
export const DATA_DAYS = Date.UTC(2025, 11, 31) / DAY_MS - BASE_DAY + 1;

/**
 * A party (importer or exporter) as the service keeps it: one spelling of a firm's name with its own
 * UrlCode. Fields mirror the record's party suffixes.
 */
export interface SimFirm {
  readonly index: number;
  /**
   * The firm this party is a spelling of: the index of the firm's main party. Parties with the same
   * `firmId` are one firm written differently ("ACME CO LTD", "Acme Company Limited"); this is the truth
   * firm resolution is measured against.
   */
  readonly firmId: number;
  readonly name: string;
  readonly taxId: string;
  readonly address: string;
  readonly country: string;
  readonly countryCode: string;
  readonly cityState: string;
  readonly email: string;
  readonly facebook: string;
  readonly fax: string;
  readonly instagram: string;
  readonly linkedin: string;
  readonly tel: string;
  readonly twitter: string;
  readonly web: string;
  readonly cleanUrl: string;
  readonly urlCode: string;
  /** `firm_type` / `CompanyTypeCode` as a number. */
  readonly firmType: number;
  readonly taCode: string;
}

export interface SimHsVariant {
  /** The full code: 6 digits, optionally with 2 or 4 national digits. */
  readonly code: string;
  readonly keyword: string;
  readonly description: string;
}

export interface SimPort {
  readonly name: string;
  readonly countryCode: string;
}

/** Read-only view of the generated data, for tests that compute expected answers on their own. */
export interface SimDataset {
  readonly size: number;
  readonly seed: number;
  /** Every party, main spellings first (index = firmId for those), then the other spellings. */
  readonly firms: readonly SimFirm[];
  /** Number of distinct firms (each has one main party and maybe other spellings). */
  readonly firmCount: number;
  /** Simulated USD value of one unit of each currency. */
  readonly usdRates: Readonly<Record<string, number>>;
  /** Record `i` of the stored order (arrivalDate descending, then hashId ascending). */
  record(i: number): ShipmentRecord;
  /** Every record in stored order. Materialises each one: meant for small datasets. */
  records(): Generator<ShipmentRecord>;
  firmByUrlCode(urlCode: string): SimFirm | undefined;
  /**
   * The day (yyyy-MM-dd) record `i` is published on: the day of its `createdAt`, 1 to 20 days after it
   * arrived. A simulator that grows (`asOf`) shows a record only from that day on.
   */
  publishedOn(i: number): string;
}

/** Columns of the records, one typed array per stored attribute; index = position in stored order. */
export interface SimColumns {
  readonly importer: Uint16Array;
  readonly exporter: Uint16Array;
  readonly hs: Uint16Array;
  readonly day: Uint16Array;
  readonly arrivalPort: Uint16Array;
  readonly departurePort: Uint16Array;
  readonly product: Uint16Array;
  readonly brand: Uint16Array;
  readonly key: Uint32Array;
  readonly currency: Uint8Array;
  readonly fobCents: Float64Array;
  readonly quantity: Float64Array;
  readonly grossKg: Float64Array;
}

export interface GenerateOptions {
  records: number;
  seed: number;
  hsSubheadings: readonly HsSubheading[];
  /** Number of distinct firms; default 5% of the records, between 100 and 5,000. */
  firms?: number;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const money = (cents: number): string => (cents / 100).toFixed(2);
const q = (s: string): string => JSON.stringify(s);

/** A JSON fragment with its UTF-8 bytes, encoded once. */
export interface Frag {
  readonly text: string;
  readonly bytes: Buffer;
}
const frag = (text: string): Frag => ({ text, bytes: Buffer.from(text, 'utf8') });

/** Receives a record's JSON in pieces. */
export interface JsonSink {
  text(s: string): void;
  frag(f: Frag): void;
}
// Local bindings: imported bindings may compile to property getters (tsx), too slow for the hot path.
const hash = hash2;
const pick = pickBy;
const escapeAll = (xs: readonly string[]): string[] => xs.map(q);
const FILLERS_J = escapeAll(FILLERS);
const CONDITIONS_J = escapeAll(CONDITIONS);
const INCOTERMS_J = escapeAll(INCOTERMS);
const PAYMENT_TYPES_J = escapeAll(PAYMENT_TYPES);
const REGIMES_J = escapeAll(REGIMES);
const DATA_TYPES_J = escapeAll(DATA_TYPES);
const CARRIERS_J = escapeAll(CARRIERS);
const VESSELS_J = escapeAll(VESSEL_WORDS);
const PACKAGE_UNITS_J = escapeAll(PACKAGE_UNITS);
const QUANTITY_UNITS_J = escapeAll(QUANTITY_UNITS);
const COUNT_UNITS_J = escapeAll(['PCS', 'SET', 'PR', 'CTN']);
const COUNTRY_CODES = COUNTRIES.map((country) => country.code);
const BOL_PREFIXES = CARRIERS.map((name) =>
  name
    .replace(/[^A-Z]/g, '')
    .slice(0, 4)
    .padEnd(4, 'X'),
);

/** A filler ("", "-", "N/A") for a share `p` of the records, else the value; both as JSON text. */
function fillerOr(hk: number, salt: number, p: number, json: string): string {
  return hash(hk, salt) % 1000 < p * 1000 ? pick(FILLERS_J, hash(hk, salt + 1000)) : json;
}

/**
 * The generated data. Records are stored column-wise and sorted once in the documented order,
 * so a scan in index order yields results already ordered; a record object is built only when a
 * response needs it.
 */
export class SimData implements SimDataset {
  readonly size: number;
  readonly seed: number;
  readonly firms: SimFirm[] = [];
  firmCount = 0;
  /** Party indices of each firm, its main spelling first. */
  private readonly spellings: number[][] = [];
  readonly usdRates = USD_RATES;
  readonly columns: SimColumns;
  readonly hsVariants: SimHsVariant[] = [];
  readonly ports: SimPort[] = [];
  readonly products: string[] = [];
  readonly brands: string[];
  readonly currencies: string[];
  /** `dayStart[d]` = index of the first record whose day is `d` or earlier (records run newest first). */
  readonly dayStart: Uint32Array;
  readonly dates: string[] = [];
  private readonly byUrlCode = new Map<string, SimFirm>();
  // JSON fragments of every table entry, escaped once: records are written by concatenation.
  private readonly importerJson: Frag[];
  private readonly exporterJson: Frag[];
  private readonly hsJson: Frag[];
  private readonly brandJson: Frag[];
  private readonly portJson: Frag[];
  private readonly productJson: Frag[];
  private readonly nameJson: Frag[];
  private readonly addressJson: Frag[];
  private readonly seedMix: number;

  constructor(opts: GenerateOptions) {
    const n = Math.max(0, Math.floor(opts.records));
    this.size = n;
    this.seed = opts.seed;
    this.seedMix = mix32(opts.seed ^ 0x5bd1e995);
    const rng = new Rng(opts.seed);
    for (let d = 0; d < DATA_DAYS; d++)
      this.dates.push(new Date((BASE_DAY + d) * DAY_MS).toISOString().slice(0, 10));

    // Reference tables.
    const portsByCountry: number[][] = COUNTRIES.map((country) =>
      country.ports.map((name) => {
        this.ports.push({ name, countryCode: country.code });
        return this.ports.length - 1;
      }),
    );
    const productsByLocale = new Map<Locale, number[]>();
    for (const [locale, phrases] of Object.entries(PRODUCT_PHRASES) as [Locale, readonly string[]][]) {
      const ids: number[] = [];
      for (const phrase of phrases) {
        for (const q of PRODUCT_QUALIFIERS) {
          this.products.push(phrase + q);
          ids.push(this.products.length - 1);
        }
      }
      productsByLocale.set(locale, ids);
    }
    // Brand 0..2 are the fillers; a record without a brand points at one of them.
    this.brands = [...FILLERS, ...BRANDS];
    this.currencies = Object.keys(USD_RATES);
    const currencyIndex = new Map(this.currencies.map((code, i) => [code, i]));

    this.buildHsVariants(opts.hsSubheadings, rng);
    const hsOrder = shuffled(this.hsVariants.length, rng);
    this.buildFirms(n, rng, opts.firms);
    const firmsByCountry = new Map<string, number[]>();
    for (const f of this.firms) {
      const list = firmsByCountry.get(f.countryCode) ?? [];
      list.push(f.index);
      firmsByCountry.set(f.countryCode, list);
    }

    // Dates and hash keys first, then sort: the order is arrivalDate descending, hashId ascending,
    // and hashId starts with the hex of `key`, which is unique (mix32 of a distinct integer).
    const sortKeys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      // Later years slightly busier, as trade data usually is.
      const day = Math.min(DATA_DAYS - 1, Math.floor(DATA_DAYS * Math.pow(rng.next(), 0.85)));
      const key = mix32((i + this.seedMix) >>> 0);
      sortKeys[i] = (DATA_DAYS - 1 - day) * 4294967296 + key;
    }
    sortKeys.sort();
    const cols: SimColumns = {
      importer: new Uint16Array(n),
      exporter: new Uint16Array(n),
      hs: new Uint16Array(n),
      day: new Uint16Array(n),
      arrivalPort: new Uint16Array(n),
      departurePort: new Uint16Array(n),
      product: new Uint16Array(n),
      brand: new Uint16Array(n),
      key: new Uint32Array(n),
      currency: new Uint8Array(n),
      fobCents: new Float64Array(n),
      quantity: new Float64Array(n),
      grossKg: new Float64Array(n),
    };
    this.columns = cols;
    const firmCount = this.firmCount;
    const usd = currencyIndex.get('USD') ?? 0;
    const eur = currencyIndex.get('EUR') ?? 0;
    for (let i = 0; i < n; i++) {
      const sk = sortKeys[i] ?? 0;
      const hi = Math.floor(sk / 4294967296);
      cols.day[i] = DATA_DAYS - 1 - hi;
      cols.key[i] = sk - hi * 4294967296;

      const imp = rng.skewed(firmCount, 2.2);
      const impFirm = this.firms[imp] as SimFirm;
      let exp = rng.skewed(firmCount, 2.2);
      for (let t = 0; t < 6 && (this.firms[exp] as SimFirm).countryCode === impFirm.countryCode; t++) {
        exp = rng.int(firmCount);
      }
      const expFirm = this.firms[exp] as SimFirm;
      // Which spelling of each firm this record carries: drawn from the record's key, not the PRNG, so
      // the rest of the data does not depend on how many spellings the firms have.
      cols.importer[i] = this.spellingOf(imp, hash2(cols.key[i] as number, this.seedMix ^ 0x1e1));
      cols.exporter[i] = this.spellingOf(exp, hash2(cols.key[i] as number, this.seedMix ^ 0xe0e));
      cols.hs[i] = hsOrder[rng.skewed(hsOrder.length, 2.5)] ?? 0;

      const impCountry = countryIdx(impFirm.countryCode);
      const expCountry = countryIdx(expFirm.countryCode);
      const arrPorts = portsByCountry[impCountry] ?? [0];
      const depPorts = portsByCountry[expCountry] ?? [0];
      cols.arrivalPort[i] = rng.pick(arrPorts);
      cols.departurePort[i] = rng.pick(depPorts);

      const impLocale = (COUNTRIES[impCountry] as CountryInfo).locale;
      const productLocale = productsByLocale.has(impLocale) && rng.chance(0.75) ? impLocale : 'en';
      cols.product[i] = rng.pick(productsByLocale.get(productLocale) ?? [0]);
      cols.brand[i] = rng.chance(0.45)
        ? rng.int(FILLERS.length)
        : FILLERS.length + rng.skewed(BRANDS.length, 1.5);

      const u = rng.next();
      const cur =
        u < 0.55
          ? usd
          : u < 0.85
            ? (currencyIndex.get((COUNTRIES[expCountry] as CountryInfo).currency) ?? usd)
            : eur;
      cols.currency[i] = cur;
      const usdValue = Math.exp(4.5 + rng.next() * 11); // ~ 90 .. 5,400,000 USD
      const rate = USD_RATES[this.currencies[cur] ?? 'USD'] ?? 1;
      cols.fobCents[i] = Math.max(100, Math.round((usdValue / rate) * 100));
      cols.quantity[i] = rng.chance(0.5) ? rng.range(1, 20000) : Math.round(rng.next() * 50_000_000) / 1000;
      cols.grossKg[i] = Math.round((10 + rng.next() * 25_000) * 1000) / 1000;
    }

    // dayStart[d]: records of day d occupy [dayStart[d], dayStart[d - 1]) (newest first).
    this.dayStart = new Uint32Array(DATA_DAYS + 1);
    const counts = new Uint32Array(DATA_DAYS);
    for (let i = 0; i < n; i++) counts[cols.day[i] as number] = (counts[cols.day[i] as number] ?? 0) + 1;
    let acc = 0;
    for (let d = DATA_DAYS - 1; d >= 0; d--) {
      this.dayStart[d] = acc;
      acc += counts[d] ?? 0;
    }
    this.dayStart[DATA_DAYS] = 0;
    for (const f of this.firms) this.byUrlCode.set(f.urlCode, f);
    this.importerJson = this.firms.map((f) => frag(partyJson(f, 'importer')));
    this.exporterJson = this.firms.map((f) => frag(partyJson(f, 'exporter')));
    this.hsJson = this.hsVariants.map((v) =>
      frag(`"hsCode":${q(v.code)},"hsCodeDescription":${q(v.description)},"hsCodeKeyword":${q(v.keyword)}`),
    );
    this.brandJson = this.brands.map((b) => frag(q(b)));
    this.portJson = this.ports.map((p) => frag(q(p.name)));
    this.productJson = this.products.map((t) => frag(q(t)));
    this.nameJson = this.firms.map((f) => frag(q(f.name)));
    this.addressJson = this.firms.map((f) => frag(q(f.address)));
  }

  /** Index range [from, to) of the records with day in [lo, hi] (day numbers, inclusive). */
  dayRange(lo: number, hi: number): [number, number] {
    const l = Math.max(0, lo);
    const h = Math.min(DATA_DAYS - 1, hi);
    if (l > h) return [0, 0];
    const from = this.dayStart[h] ?? 0;
    const to = l === 0 ? this.size : (this.dayStart[l - 1] ?? this.size);
    return [from, to];
  }

  /** Day number of a yyyy-MM-dd string relative to DATA_START (may be out of range). */
  static dayOf(date: string): number {
    return (
      Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS -
      BASE_DAY
    );
  }

  firmByUrlCode(urlCode: string): SimFirm | undefined {
    return this.byUrlCode.get(urlCode);
  }

  /** Day number (from DATA_START) record `i` is published on; see `publishedOn`. */
  publishedDay(i: number): number {
    const hk = ((this.columns.key[i] as number) ^ this.seedMix) >>> 0;
    return (this.columns.day[i] as number) + 1 + (hash(hk, 7) % 20);
  }

  publishedOn(i: number): string {
    return new Date((BASE_DAY + this.publishedDay(i)) * DAY_MS).toISOString().slice(0, 10);
  }

  private publishedCache: Uint16Array | null = null;
  /** Every record's publication day, computed once (only a growing simulator needs it). */
  get published(): Uint16Array {
    if (!this.publishedCache) {
      const out = new Uint16Array(this.size);
      for (let i = 0; i < this.size; i++) out[i] = this.publishedDay(i);
      this.publishedCache = out;
    }
    return this.publishedCache;
  }

  *records(): Generator<ShipmentRecord> {
    for (let i = 0; i < this.size; i++) yield this.record(i);
  }

  hashId(i: number): string {
    const key = this.columns.key[i] ?? 0;
    const hex = (v: number): string => v.toString(16).padStart(8, '0');
    return (
      hex(key) +
      hex(hash2(key, this.seedMix)) +
      hex(hash2(key, this.seedMix ^ 1)) +
      hex(hash2(key, this.seedMix ^ 2))
    );
  }

  /** Record `i` as an object (parsed from its JSON text, so both views can never disagree). */
  record(i: number): ShipmentRecord {
    return JSON.parse(this.recordJson(i)) as ShipmentRecord;
  }

  /** Record `i` as JSON text. */
  recordJson(i: number): string {
    const parts: string[] = [];
    this.writeRecord(i, { text: (t) => parts.push(t), frag: (f) => parts.push(f.text) });
    return parts.join('');
  }

  /**
   * Writes record `i` as JSON, piece by piece: a 10,000-record answer must serialise well within the
   * response-time target, and building objects for JSON.stringify costs about as much as the rest.
   * Every text that could need escaping comes from a table escaped once with JSON.stringify and
   * encoded once to UTF-8 (a Frag), so a buffer sink only copies bytes for the bulk of a record.
   */
  writeRecord(i: number, out: JsonSink): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) throw new RangeError(`no record ${i}`);
    const c = this.columns;
    const imp = c.importer[i] as number;
    const exp = c.exporter[i] as number;
    const impCode = (this.firms[imp] as SimFirm).countryCode;
    const expCode = (this.firms[exp] as SimFirm).countryCode;
    const day = c.day[i] as number;
    const date = this.dates[day] as string;
    // Per-record fields that no filter reads are derived from hashes of the record key, not stored.
    const hk = ((c.key[i] as number) ^ this.seedMix) >>> 0;
    const currency = this.currencies[c.currency[i] as number] ?? 'USD';
    const rate = USD_RATES[currency] ?? 1;
    const fob = c.fobCents[i] as number;
    const freight = Math.round(fob * (0.02 + (hash(hk, 1) % 600) / 10000));
    const insurance = Math.round(fob * (0.001 + (hash(hk, 2) % 40) / 10000));
    const cif = fob + freight + insurance;
    const usdCif = money(Math.round(cif * rate));
    const qty = c.quantity[i] as number;
    const gross = c.grossKg[i] as number;
    const net = Math.round(gross * (0.85 + (hash(hk, 3) % 130) / 1000) * 1000) / 1000;
    const transport = pick(TRANSPORT_TYPES, hash(hk, 4));
    const sea = transport === 'SEA';
    const containers = sea ? 1 + (hash(hk, 5) % 6) : 0;
    const carrier = hash(hk, 6) % CARRIERS_J.length;
    const createdSec = (BASE_DAY + day) * 86400 + 86400 * (1 + (hash(hk, 7) % 20)) + (hash(hk, 8) % 86400);
    const createdMicro = hash(hk, 9) % 1_000_000;
    // A third of the records were never updated (updatedAt = createdAt); the rest later, by up to 90 days.
    const updated = hash(hk, 10) % 3 !== 0;
    const updatedSec = updated ? createdSec + 1 + (hash(hk, 11) % (90 * 86400)) : createdSec;
    const updatedMicro = updated ? hash(hk, 12) % 1_000_000 : createdMicro;
    const notifyIsImporter = hash(hk, 13) % 2 === 0;
    const year = date.slice(0, 4);
    const month = date.slice(5, 7);
    const whole = Number.isInteger(qty);
    const bol = `"${BOL_PREFIXES[carrier]}${String(hash(hk, 21) % 1e9).padStart(9, '0')}"`;

    const mfgIsExporter = hash(hk, 29) % 10 < 4;
    out.text('{');
    out.frag(this.importerJson[imp] as Frag);
    out.text(',');
    out.frag(this.exporterJson[exp] as Frag);
    out.text(
      `,"arrivalDate":"${date}"` +
        `,"billOfLadingNo":${fillerOr(hk, 20, 0.1, bol)}` +
        `,"conditionNewUsed":${fillerOr(hk, 22, 0.3, pick(CONDITIONS_J, hash(hk, 23)))}` +
        `,"containerCount":"${sea ? containers : ''}"` +
        `,"countryOfOrigin":"${hash(hk, 24) % 100 < 85 ? expCode : pick(COUNTRY_CODES, hash(hk, 25))}"` +
        `,"fobValue":"${money(fob)}","fobCurrency":"${currency}","usdFob":"${money(Math.round(fob * rate))}"` +
        `,"cifValue":"${money(cif)}","cifCurrency":"${currency}","usdCif":"${usdCif}"` +
        `,"unitPrice":"${(fob / 100 / qty).toFixed(4)}","fiCurrency":"${currency}","freightAmount":"${money(freight)}"` +
        `,"grossWeight":"${gross.toFixed(3)}","grossWeightUnit":"KG"` +
        `,"netWeight":${fillerOr(hk, 26, 0.1, `"${net.toFixed(3)}"`)},"netWeightUnit":"KG"` +
        `,"quantity":"${whole ? qty : qty.toFixed(3)}","quantityUnit":${pick(whole ? COUNT_UNITS_J : QUANTITY_UNITS_J, hash(hk, 14))}` +
        `,"packageAmount":"${1 + (hash(hk, 27) % 500)}","packagesUnit":${pick(PACKAGE_UNITS_J, hash(hk, 28))},`,
    );
    out.frag(this.hsJson[c.hs[i] as number] as Frag);
    out.text(`,"insuranceAmount":"${money(insurance)}","manufacturingCompany":`);
    if (mfgIsExporter) out.frag(this.nameJson[exp] as Frag);
    else out.text(pick(FILLERS_J, hash(hk, 30)));
    out.text(',"brandName":');
    out.frag(this.brandJson[c.brand[i] as number] as Frag);
    out.text(
      `,"incoterms":${fillerOr(hk, 31, 0.15, pick(INCOTERMS_J, hash(hk, 32)))}` +
        `,"paymentType":${fillerOr(hk, 33, 0.3, pick(PAYMENT_TYPES_J, hash(hk, 34)))}` +
        `,"regime":${pick(REGIMES_J, hash(hk, 35) % 7 < 4 ? 0 : hash(hk, 36))}` +
        `,"transportType":"${transport}","notifyParty":`,
    );
    if (notifyIsImporter) {
      out.frag(this.nameJson[imp] as Frag);
      out.text(',"notifyAddress":');
      out.frag(this.addressJson[imp] as Frag);
    } else out.text(`${pick(FILLERS_J, hash(hk, 37))},"notifyAddress":""`);
    out.text(',"portOfArrival":');
    out.frag(this.portJson[c.arrivalPort[i] as number] as Frag);
    out.text(',"portOfDeparture":');
    out.frag(this.portJson[c.departurePort[i] as number] as Frag);
    out.text(
      `,"itemNo":"${1 + (hash(hk, 38) % 20)}"` +
        `,"declarationNumber":"${year}${impCode}${String(hash(hk, 39) % 1e8).padStart(8, '0')}"` +
        `,"importerDataType":${pick(DATA_TYPES_J, hash(hk, 40))},"exporterDataType":${pick(DATA_TYPES_J, hash(hk, 41))}` +
        `,"dataType":"${hash(hk, 42) % 4 === 0 ? 'EXPORT' : 'IMPORT'}"` +
        `,"transportCompany":${sea ? CARRIERS_J[carrier] : pick(FILLERS_J, hash(hk, 43))}` +
        `,"vesselName":${sea ? pick(VESSELS_J, hash(hk, 44)) : '""'}` +
        `,"productDetails":`,
    );
    out.frag(this.productJson[c.product[i] as number] as Frag);
    out.text(
      `,"statisticalValueUsd":"${usdCif}"` +
        `,"totalTeus":"${sea ? containers * (hash(hk, 45) % 2 === 0 ? 1 : 2) : ''}"` +
        `,"updatedAt":"${updatedSec}.${String(updatedMicro).padStart(6, '0')}"` +
        `,"createdAt":"${createdSec}.${String(createdMicro).padStart(6, '0')}"` +
        `,"addedGroup":"${impCode}_IMPORT_${year}_${month}"` +
        `,"hashId":"${this.hashId(i)}","month":"${Number(month)}","year":"${year}"}`,
    );
  }

  private buildHsVariants(subheadings: readonly HsSubheading[], rng: Rng): void {
    for (const sub of subheadings) {
      if (this.hsVariants.length > 60_000) break;
      const keyword = sub.code.slice(0, 4);
      this.hsVariants.push({ code: sub.code, keyword, description: sub.description });
      // Some subheadings also appear with national digits appended (8 or 10 digits in total).
      const extra = rng.int(3);
      for (let e = 0; e < extra; e++) {
        const national =
          e === 0 ? pad2(rng.range(0, 9) * 10) : `${pad2(rng.range(10, 99))}${pad2(rng.range(0, 99))}`;
        this.hsVariants.push({ code: sub.code + national, keyword, description: sub.description });
      }
    }
  }

  /** The party of firm `firm` a record carries: the main spelling about half the time, else another. */
  private spellingOf(firm: number, h: number): number {
    const parties = this.spellings[firm] as number[];
    if (parties.length === 1 || h % 1000 < 550) return parties[0] as number;
    return parties[1 + ((h >>> 10) % (parties.length - 1))] as number;
  }

  private urlCode(index: number): string {
    // The first seven characters are unique on their own (mix32 is a bijection); the rest is decoration.
    return (
      mix32((index + this.seedMix) >>> 0)
        .toString(36)
        .padStart(7, '0') +
      mix32(index ^ this.seedMix)
        .toString(36)
        .padStart(7, '0')
        .slice(0, 5)
    );
  }

  /**
   * The firms, each with its main party first (drawn from the main PRNG as always), then the other
   * spellings of every firm as parties of their own. Names are unique within a country before the legal
   * form (two "Pacific Trading" firms in one country would be one firm to anybody): a clash is redrawn
   * from a second PRNG, which also draws the other spellings, so the main PRNG's sequence and with it
   * the rest of the data stay as they were.
   */
  private buildFirms(records: number, rng: Rng, firms?: number): void {
    const count = firms ?? Math.max(100, Math.min(5000, Math.round(records / 20)));
    if (!Number.isInteger(count) || count < 1 || count > 30_000) {
      throw new RangeError('firms must be a whole number from 1 to 30,000');
    }
    const spell = new Rng(this.seed ^ 0x2f6b1d3c);
    const usedSlugs = new Set<string>();
    const usedBases = new Set<string>();
    const namesIn = new Map<string, Set<string>>();
    const parts: NameParts[] = [];
    const typeTotal = FIRM_TYPES.reduce((s, t) => s + t.weight, 0);
    const digitsFrom =
      (r: Rng) =>
      (len: number): string => {
        let s = String(r.range(1, 9));
        while (s.length < len) s += String(r.int(10));
        return s;
      };
    const uniqueSlug = (name: string, index: number): string => {
      let slug = slugify(name) || 'firm';
      if (usedSlugs.has(slug)) slug = `${slug}-${index.toString(36)}`;
      usedSlugs.add(slug);
      return slug;
    };
    for (let index = 0; index < count; index++) {
      const country = COUNTRIES[rng.skewed(COUNTRIES.length, 1.7)] as CountryInfo;
      const words = FIRM_NAME_PARTS[country.locale];
      const drawStem = (r: Rng): string => {
        const stem = r.pick(words.stems);
        const stem2 = r.chance(0.35) ? ` ${r.pick(words.stems)}` : '';
        return `${stem}${stem2 === ` ${stem}` ? '' : stem2}`;
      };
      let stem = drawStem(rng);
      let sector = rng.pick(words.sectors);
      const suffix = rng.pick(words.suffixes);
      const base = (): string => `${country.code}|${nameKey(inLatin(`${stem} ${sector}`, country.locale))}`;
      // A clash is redrawn; a city in front ("Ningbo Jinlong Textile") makes room when the words run out.
      for (let attempt = 0; usedBases.has(base()); attempt++) {
        stem = drawStem(spell);
        sector = spell.pick(words.sectors);
        if (attempt >= 20) stem = `${cityOf(spell.pick(country.cities))} ${stem}`;
        if (attempt >= 60) stem = `${stem} ${attempt}`;
      }
      usedBases.add(base());
      const name = `${stem} ${sector} ${suffix}`;
      parts.push({ stem, sector, suffix, locale: country.locale });
      const names = namesIn.get(country.code) ?? new Set<string>();
      names.add(name);
      namesIn.set(country.code, names);
      const slug = uniqueSlug(name, index);
      let w = rng.int(typeTotal);
      let firmType = 5;
      for (const t of FIRM_TYPES) {
        if (w < t.weight) {
          firmType = t.code;
          break;
        }
        w -= t.weight;
      }
      const city = rng.pick(country.cities);
      const domain = slug.split('-').slice(0, 2).join('');
      const digits = digitsFrom(rng);
      const tel = `+${digits(2)} ${digits(3)} ${digits(7)}`;
      const social = (base: string, p: number): string =>
        rng.chance(p) ? `${base}/${domain}` : rng.pick(FILLERS);
      this.firms.push({
        index,
        firmId: index,
        name,
        taxId: rng.chance(0.1) ? rng.pick(FILLERS) : digits(country.locale === 'tr' ? 10 : 11),
        address: `${rng.pick(STREET_WORDS[country.locale])} ${rng.range(1, 250)}, ${city}`,
        country: country.name,
        countryCode: country.code,
        cityState: city,
        email: rng.chance(0.6) ? `info@${domain}.com` : rng.pick(FILLERS),
        facebook: social('facebook.com', 0.2),
        fax: rng.chance(0.3) ? `+${digits(2)} ${digits(3)} ${digits(7)}` : rng.pick(FILLERS),
        instagram: social('instagram.com', 0.1),
        linkedin: social('linkedin.com/company', 0.25),
        tel: rng.chance(0.85) ? tel : rng.pick(FILLERS),
        twitter: social('twitter.com', 0.08),
        web: rng.chance(0.6) ? `www.${domain}.com` : rng.pick(FILLERS),
        cleanUrl: slug,
        urlCode: this.urlCode(index),
        firmType,
        taCode: `TA${String(100_000 + index)}`,
      });
      this.spellings.push([index]);
    }
    this.firmCount = count;

    // The other spellings: each a party of its own that shares some of its firm's evidence (tax id,
    // telephone, e-mail, web site, address), often written differently, and sometimes none of it.
    const digits = digitsFrom(spell);
    const agents = new Map<string, string[]>();
    const isReal = (v: string): boolean => !(FILLERS as readonly string[]).includes(v);
    for (let firm = 0; firm < count; firm++) {
      const main = this.firms[firm] as SimFirm;
      const country = COUNTRIES[countryIdx(main.countryCode)] as CountryInfo;
      const names = namesIn.get(main.countryCode) as Set<string>;
      const n = variantCount(spell);
      for (let v = 0; v < n; v++) {
        const name = variantSpelling(parts[firm] as NameParts, country.cities, names, spell);
        if (name === null) continue;
        names.add(name);
        const index = this.firms.length;
        const slug = uniqueSlug(name, index);
        const same = (value: string, p: number): boolean => isReal(value) && spell.chance(p);
        let taxId = spell.pick(FILLERS);
        if (same(main.taxId, 0.6)) taxId = spell.chance(0.25) ? taxIdSpelling(main.taxId, spell) : main.taxId;
        else if (spell.chance(0.06)) taxId = main.countryCode === 'TR' ? '0000000000' : '00000000000';
        let tel = spell.pick(FILLERS);
        const t = spell.next();
        if (same(main.tel, 0.5)) tel = phoneSpelling(main.tel, spell);
        else if (t < 0.05) {
          // A forwarding agent's number, written on the records of several unrelated firms.
          const pool = agents.get(main.countryCode) ?? [];
          if (pool.length < 3) pool.push(`+${digits(2)} ${digits(3)} ${digits(7)}`);
          agents.set(main.countryCode, pool);
          tel = spell.pick(pool);
        } else if (t < 0.4) tel = `+${digits(2)} ${digits(3)} ${digits(7)}`;
        let email = spell.pick(FILLERS);
        if (same(main.email, 0.4)) email = spell.chance(0.2) ? main.email.toUpperCase() : main.email;
        else if (spell.chance(0.25)) {
          email = `${slug.replace(/-/g, '').slice(0, 12)}${spell.range(1, 99)}@${spell.pick(MAILBOX_PROVIDERS)}`;
        }
        const web = same(main.web, 0.4) ? webSpelling(main.web, spell) : spell.pick(FILLERS);
        const keepsAddress = spell.chance(0.5);
        const city = keepsAddress ? main.cityState : spell.pick(country.cities);
        const address = keepsAddress
          ? spell.chance(0.3)
            ? main.address.toUpperCase()
            : main.address
          : `${spell.pick(STREET_WORDS[country.locale])} ${spell.range(1, 250)}, ${city}`;
        const social = (value: string): string => (same(value, 0.3) ? value : spell.pick(FILLERS));
        this.firms.push({
          index,
          firmId: firm,
          name,
          taxId,
          address,
          country: main.country,
          countryCode: main.countryCode,
          cityState: city,
          email,
          facebook: social(main.facebook),
          fax: spell.chance(0.2) ? `+${digits(2)} ${digits(3)} ${digits(7)}` : spell.pick(FILLERS),
          instagram: social(main.instagram),
          linkedin: social(main.linkedin),
          tel,
          twitter: social(main.twitter),
          web,
          cleanUrl: slug,
          urlCode: this.urlCode(index),
          firmType: main.firmType,
          taCode: `TA${String(100_000 + index)}`,
        });
        (this.spellings[firm] as number[]).push(index);
      }
    }
    if (this.firms.length > 65_535) throw new RangeError('too many parties for the record columns');
  }
}

const cityOf = (city: string): string => city.split(' / ')[0] ?? city;

/** A name's letters and digits in any script, lower case and without marks: what makes two names one. */
function nameKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A party's fields as a record carries them (`importerName`, …, `importerTaCode`), in the spec's order. */
export function partyFields(firm: SimFirm, prefix: 'importer' | 'exporter'): Record<string, string> {
  const values: Record<PartySuffix, string> = {
    Name: firm.name,
    TaxId: firm.taxId,
    Address: firm.address,
    Country: firm.country,
    CityState: firm.cityState,
    Email: firm.email,
    Facebook: firm.facebook,
    Fax: firm.fax,
    Instagram: firm.instagram,
    Linkedin: firm.linkedin,
    Tel: firm.tel,
    Twitter: firm.twitter,
    Web: firm.web,
    CleanUrl: firm.cleanUrl,
    UrlCode: firm.urlCode,
    CompanyTypeCode: String(firm.firmType),
    CountryCode: firm.countryCode,
    TaCode: firm.taCode,
  };
  return Object.fromEntries(PARTY_SUFFIXES.map((suffix) => [`${prefix}${suffix}`, values[suffix]]));
}

/** `"importerName":…,"importerTaCode":…` of a firm, in the spec's suffix order. */
function partyJson(firm: SimFirm, prefix: 'importer' | 'exporter'): string {
  return Object.entries(partyFields(firm, prefix))
    .map(([field, value]) => `"${field}":${q(value)}`)
    .join(',');
}

const countryIndexByCode = new Map(COUNTRIES.map((country, i) => [country.code, i]));
function countryIdx(code: string): number {
  return countryIndexByCode.get(code) ?? 0;
}

function shuffled(n: number, rng: Rng): Uint16Array {
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = out[i] as number;
    out[i] = out[j] as number;
    out[j] = t;
  }
  return out;
}
