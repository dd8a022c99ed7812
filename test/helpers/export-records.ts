/**
 * Deterministic shipment and firm records for the export tests: realistic shapes, non-ASCII names,
 * the fillers the service sends, and text that CSV must quote. Independent of the simulator so that
 * the export tests do not move when the simulator's data does.
 */
import { FIRM_FIELDS, SHIPMENT_FIELDS } from '@shared/spec/records';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  'İstanbul Şeker Ürünleri A.Ş.',
  'Çukurova Gıda Sanayi ve Ticaret Ltd. Şti.',
  '深圳市华强电子有限公司',
  '上海浦东国际贸易公司',
  'Müller & Söhne GmbH',
  'ACME "Global", Inc.',
  'Ğüzel Tekstil',
  'Société Générale d’Import',
];
const COUNTRIES = [
  ['Türkiye', 'TR'],
  ['China', 'CN'],
  ['Germany', 'DE'],
  ['United States', 'US'],
] as const;
const FILLERS = ['-', 'N/A', '', ' '];
const PRODUCTS = [
  'Pamuklu örme tişört, %100 pamuk',
  '不锈钢螺丝 M8×40',
  'Line one\nline two, with "quotes"',
  '=SUM(A1:A2) looks like a formula',
  'Plain widgets',
];

export function makeShipments(count: number, seed = 1): Record<string, string>[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const rows: Record<string, string>[] = [];
  for (let i = 0; i < count; i++) {
    const r: Record<string, string> = {};
    for (const f of SHIPMENT_FIELDS)
      r[f] = rnd() < 0.1 ? pick(FILLERS) : `${f}-${i}-${Math.floor(rnd() * 1000)}`;
    const [ic, icc] = pick(COUNTRIES);
    const [ec, ecc] = pick(COUNTRIES);
    Object.assign(r, {
      importerName: pick(NAMES),
      importerCountry: ic,
      importerCountryCode: icc,
      exporterName: pick(NAMES),
      exporterCountry: ec,
      exporterCountryCode: ecc,
      productDetails: pick(PRODUCTS),
      hsCode: pick(['8471300000', '6109100010', '7318150000']),
      arrivalDate:
        rnd() < 0.05
          ? pick(['', '-', '2024-02-30'])
          : `202${Math.floor(rnd() * 5)}-${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}`,
      createdAt:
        rnd() < 0.05
          ? 'N/A'
          : `${1_600_000_000 + Math.floor(rnd() * 100_000_000)}.${Math.floor(rnd() * 1000)}`,
      updatedAt: `${1_700_000_000 + Math.floor(rnd() * 10_000_000)}.5`,
    });
    for (const f of [
      'usdFob',
      'usdCif',
      'fobValue',
      'cifValue',
      'grossWeight',
      'netWeight',
      'quantity',
      'unitPrice',
    ]) {
      const roll = rnd();
      r[f] =
        roll < 0.08 ? pick(FILLERS) : roll < 0.1 ? '0' : (rnd() * 1_000_000).toFixed(Math.floor(rnd() * 4));
    }
    r['month'] = String(1 + Math.floor(rnd() * 12));
    r['year'] = '2024';
    r['itemNo'] = rnd() < 0.5 ? '12345678901234567890' : String(Math.floor(rnd() * 100));
    rows.push(r);
  }
  return rows;
}

export function makeFirms(count: number, seed = 2): Record<string, unknown>[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const [country, code] = pick(COUNTRIES);
    const r: Record<string, unknown> = {};
    for (const f of FIRM_FIELDS) r[f] = `${f} ${i}`;
    Object.assign(r, {
      name: pick(NAMES),
      country,
      country_code: code,
      firm_type: rnd() < 0.1 ? null : Math.floor(rnd() * 5),
      shipment_count: rnd() < 0.1 ? null : Math.floor(rnd() * 100_000),
    });
    return r;
  });
}
