/**
 * How one firm's name comes to be written many ways in trade records: the legal form abbreviated or
 * spelled out ("Co., Ltd." / "Company Limited" / "CO LTD"), capitals, punctuation dropped, letters
 * folded to ASCII or transliterated into another script, a typing slip, a branch suffix. The simulator
 * uses it to give a firm several party records (each with its own UrlCode, as the service keeps one per
 * spelling) and to know which of them are one firm: the truth firm resolution is measured against.
 */
import type { Rng } from './prng';
import type { Locale } from './reference-data';

/** A firm's name in parts, as the generator drew it: "Pacific Atlas" + "Trading" + "Inc." */
export interface NameParts {
  readonly stem: string;
  readonly sector: string;
  readonly suffix: string;
  readonly locale: Locale;
}

/** Other ways each legal form is written in records (its own spelling is always a choice too). */
const LEGAL_FORMS: Readonly<Record<string, readonly string[]>> = {
  'Inc.': ['Inc', 'INC.', 'Incorporated', 'Inc.,'],
  LLC: ['L.L.C.', 'Llc', 'LLC.', 'Limited Liability Company'],
  Ltd: ['Ltd.', 'Limited', 'LTD.'],
  'Corp.': ['Corp', 'Corporation', 'CORP'],
  'Pvt. Ltd.': ['Pvt Ltd', 'Private Limited', 'Pvt. Limited', 'PVT LTD'],
  'Co.': ['Co', 'Company', 'CO.'],
  'San. ve Tic. A.Ş.': [
    'Sanayi ve Ticaret A.Ş.',
    'San. Tic. A.Ş.',
    'Sanayi ve Ticaret Anonim Şirketi',
    'San ve Tic AS',
    'San.ve Tic.A.Ş.',
  ],
  'Ltd. Şti.': ['Limited Şirketi', 'Ltd.Şti.', 'Ltd Sti', 'Ltd. Şirketi'],
  'İth. İhr. A.Ş.': ['İthalat İhracat A.Ş.', 'Ith. Ihr. AS', 'İthalat ve İhracat Anonim Şirketi'],
  'Dış Tic. Ltd. Şti.': ['Dış Ticaret Ltd. Şti.', 'Dis Tic. Ltd. Sti.', 'Dış Ticaret Limited Şirketi'],
  'S.A.': ['SA', 'S. A.', 'Sociedad Anónima'],
  'S.A. de C.V.': ['SA de CV', 'S.A. DE C.V.', 'S. A. de C. V.'],
  'S.L.': ['SL', 'S. L.', 'Sociedad Limitada'],
  'S.A.C.': ['SAC', 'S. A. C.'],
  'Ltda.': ['Ltda', 'Limitada', 'LTDA'],
  'S.R.L.': ['SRL', 'S. R. L.'],
  GmbH: ['G.m.b.H.', 'Gmbh', 'Gesellschaft mit beschränkter Haftung'],
  AG: ['A.G.', 'Aktiengesellschaft'],
  'GmbH & Co. KG': ['GmbH & Co KG', 'GmbH u. Co. KG', 'GmbH und Co. KG'],
  KG: ['K.G.', 'Kommanditgesellschaft'],
  'e.K.': ['eK', 'e. K.'],
  'Co., Ltd.': ['Co. Ltd.', 'Co.,Ltd', 'Company Limited', 'CO LTD', 'Co Ltd'],
  'Group Co., Ltd.': ['Group Co. Ltd.', 'Group Company Limited', 'GROUP CO LTD'],
  'International Co., Ltd.': ['International Co. Ltd.', "Int'l Co., Ltd.", 'International Company Limited'],
  有限公司: ['有限责任公司'],
  股份有限公司: ['股份公司'],
  SARL: ['S.A.R.L.', 'Sarl'],
  SAS: ['S.A.S.', 'Sas'],
  SA: ['S.A.', 'S A'],
  EURL: ['E.U.R.L.', 'Eurl'],
  'S.p.A.': ['SpA', 'S.P.A.', 'Spa'],
  'S.r.l.': ['Srl', 'S.R.L.', 'S.r.l'],
  'S.n.c.': ['Snc', 'S.N.C.'],
  'S.a.s.': ['Sas', 'S.A.S.'],
  Eireli: ['EIRELI', 'Eireli ME'],
  'Lda.': ['Lda', 'Limitada'],
  ООО: ['OOO', 'Общество с ограниченной ответственностью', 'LLC'],
  АО: ['AO', 'Акционерное общество', 'JSC'],
  LLP: ['L.L.P.', 'Llp'],
  ТОО: ['TOO', 'LLP'],
  'B.V.': ['BV', 'B.V'],
  'N.V.': ['NV', 'N.V'],
  BV: ['B.V.'],
  VOF: ['V.O.F.'],
  'Sp. z o.o.': ['Sp. z o. o.', 'SP Z OO', 'Spółka z ograniczoną odpowiedzialnością', 'Sp.z o.o.'],
  'Sp.j.': ['Sp. j.', 'Spółka jawna'],
  'K.K.': ['KK', 'Kabushiki Kaisha'],
  Corporation: ['Corp.', 'CORPORATION'],
  株式会社: ['(株)'],
  FZE: ['F.Z.E.', 'Fze'],
  FZCO: ['FZ CO', 'F.Z.CO'],
  'Est.': ['Est', 'Establishment', 'EST.'],
  'Co. W.L.L.': ['Co. WLL', 'Company W.L.L.', 'CO WLL'],
  'S.A.E.': ['SAE', 'S.A.E'],
  JSC: ['J.S.C', 'Joint Stock Company', 'JSC.'],
  'Công Ty TNHH': ['Cong Ty TNHH', 'CTY TNHH', 'Công ty TNHH'],
  'Joint Stock Company': ['JSC', 'J.S.C.'],
  주식회사: ['(주)'],
};

/** Legal forms written before the name in their own language ("ООО «Волга Трейд»", "株式会社山本商事"). */
const LEADING_FORMS: ReadonlySet<string> = new Set([
  'ООО',
  'АО',
  'ТОО',
  'Общество с ограниченной ответственностью',
  'Акционерное общество',
  'Công Ty TNHH',
  'Cong Ty TNHH',
  'CTY TNHH',
  'Công ty TNHH',
  '株式会社',
  '(株)',
  '주식회사',
  '(주)',
]);

/** Words written shorter in some records. */
const WORD_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  'Import & Export': ['Imp. & Exp.', 'Import and Export', 'Import-Export', 'Imp & Exp'],
  'General Trading': ['Gen. Trading', 'General Trdg.'],
  International: ["Int'l", 'Intl.'],
  Industries: ['Inds.', 'Industry'],
  Trading: ['Trdg.', 'Trading'],
  'Building Materials': ['Bldg. Materials', 'Building Material'],
  'Dış Tic.': ['Dış Ticaret'],
};

/** Names in one script and their usual rendering in Latin letters, per language. */
const SCRIPT_PAIRS: Readonly<Partial<Record<Locale, readonly (readonly [string, string])[]>>> = {
  zh: [
    ['华信', 'Huaxin'],
    ['中泰', 'Zhongtai'],
    ['金龙', 'Jinlong'],
    ['恒达', 'Hengda'],
    ['东方', 'Dongfang'],
    ['新华', 'Xinhua'],
    ['长江', 'Changjiang'],
    ['红星', 'Hongxing'],
    ['天一', 'Tianyi'],
    ['保利', 'Baoli'],
    ['贸易', 'Trading'],
    ['进出口', 'Import & Export'],
    ['电子科技', 'Electronics'],
    ['纺织', 'Textile'],
    ['实业', 'Industrial'],
    ['机械', 'Machinery'],
    ['股份有限公司', 'Co., Ltd.'],
    ['有限公司', 'Co., Ltd.'],
  ],
  ja: [
    ['山本', 'Yamamoto'],
    ['田中', 'Tanaka'],
    ['鈴木', 'Suzuki'],
    ['佐藤', 'Sato'],
    ['中村', 'Nakamura'],
    ['小林', 'Kobayashi'],
    ['富士', 'Fuji'],
    ['日本', 'Nippon'],
    ['商事', 'Shoji'],
    ['商事', 'Trading'],
    ['工業', 'Industries'],
    ['株式会社', 'Co., Ltd.'],
    ['株式会社', 'K.K.'],
  ],
  ko: [
    ['한일', 'Hanil'],
    ['대성', 'Daesung'],
    ['삼진', 'Samjin'],
    ['금호', 'Kumho'],
    ['효성', 'Hyosung'],
    ['세진', 'Sejin'],
    ['무역', 'Trading'],
    ['산업', 'Industrial'],
    ['전자', 'Electronics'],
    ['주식회사', 'Co., Ltd.'],
  ],
  ar: [
    ['النور', 'Al Noor'],
    ['الخليج', 'Al Khaleej'],
    ['الفجر', 'Al Fajr'],
    ['للتجارة', 'Trading'],
  ],
};

/** Latin spellings of Arabic names that differ from one record to the next. */
const ARABIC_LATIN: Readonly<Record<string, readonly string[]>> = {
  'Al Noor': ['Al-Noor', 'Alnoor', 'Al Nour', 'El Nour'],
  'Al Fajr': ['Al-Fajr', 'Al Fajer', 'Alfajr'],
  'Al Madina': ['Al Madinah', 'Al-Madina', 'Al Medina'],
  'Al Khaleej': ['Al Khalij', 'Al-Khaleej', 'Alkhaleej'],
  'Al Amal': ['Al-Amal', 'Alamal', 'El Amal'],
};

/** Russian in Latin letters; the second and third spellings are the other systems seen in records. */
const CYRILLIC: Readonly<Record<string, readonly [string, string, string]>> = {
  а: ['a', 'a', 'a'],
  б: ['b', 'b', 'b'],
  в: ['v', 'v', 'v'],
  г: ['g', 'g', 'g'],
  д: ['d', 'd', 'd'],
  е: ['e', 'e', 'e'],
  ё: ['e', 'yo', 'e'],
  ж: ['zh', 'zh', 'j'],
  з: ['z', 'z', 'z'],
  и: ['i', 'i', 'i'],
  й: ['y', 'i', 'j'],
  к: ['k', 'k', 'k'],
  л: ['l', 'l', 'l'],
  м: ['m', 'm', 'm'],
  н: ['n', 'n', 'n'],
  о: ['o', 'o', 'o'],
  п: ['p', 'p', 'p'],
  р: ['r', 'r', 'r'],
  с: ['s', 's', 's'],
  т: ['t', 't', 't'],
  у: ['u', 'u', 'u'],
  ф: ['f', 'f', 'f'],
  х: ['kh', 'h', 'kh'],
  ц: ['ts', 'c', 'tz'],
  ч: ['ch', 'ch', 'tch'],
  ш: ['sh', 'sh', 'sh'],
  щ: ['shch', 'sch', 'shch'],
  ъ: ['', '', ''],
  ы: ['y', 'y', 'i'],
  ь: ['', '', ''],
  э: ['e', 'e', 'e'],
  ю: ['yu', 'iu', 'ju'],
  я: ['ya', 'ia', 'ja'],
};

function transliterateCyrillic(text: string, system: 0 | 1 | 2): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const latin = CYRILLIC[lower];
    if (!latin) {
      out += ch;
      continue;
    }
    const t = latin[system];
    out += ch === lower ? t : t.charAt(0).toUpperCase() + t.slice(1);
  }
  return out;
}

/** Letters of Latin scripts written without their marks, the way a keyboard without them types them. */
function foldToAscii(text: string, locale: Locale, german: boolean): string {
  let s = text;
  if (german) s = s.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/Ä/g, 'Ae');
  s = s
    .replace(/Ö/g, german ? 'Oe' : 'O')
    .replace(/Ü/g, german ? 'Ue' : 'U')
    .replace(/ß/g, 'ss');
  if (locale === 'tr') s = s.replace(/ı/g, 'i').replace(/İ/g, 'I');
  s = s.replace(/đ/g, 'd').replace(/Đ/g, 'D').replace(/ł/g, 'l').replace(/Ł/g, 'L');
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
}

const hasLatin = (s: string): boolean => /[A-Za-z]/.test(s);
/** Chinese, Japanese or Korean only: such names are written without spaces. */
const isCjk = (s: string): boolean =>
  /^[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}\s()]+$/u.test(s);
const isLatinLetter = (c: string): boolean => /[a-z]/i.test(c);

/** Keys next to each other on a QWERTY keyboard, for a slip of the finger. */
const NEIGHBOURS: Readonly<Record<string, string>> = {
  a: 's',
  b: 'v',
  c: 'x',
  d: 's',
  e: 'r',
  f: 'g',
  g: 'h',
  h: 'j',
  i: 'o',
  j: 'k',
  k: 'l',
  l: 'k',
  m: 'n',
  n: 'm',
  o: 'i',
  p: 'o',
  q: 'w',
  r: 't',
  s: 'a',
  t: 'r',
  u: 'y',
  v: 'b',
  w: 'e',
  x: 'z',
  y: 'u',
  z: 'x',
};

/** One slip in a word of the name: a letter dropped, doubled, swapped with the next, or a neighbour key. */
function typo(core: string, rng: Rng): string {
  const positions: number[] = [];
  for (let i = 1; i < core.length - 1; i++) {
    if (isLatinLetter(core[i] as string) && isLatinLetter(core[i + 1] as string)) positions.push(i);
  }
  if (positions.length === 0) return core;
  const i = rng.pick(positions);
  const c = core[i] as string;
  switch (rng.int(4)) {
    case 0:
      return core.slice(0, i) + core.slice(i + 1);
    case 1:
      return core.slice(0, i) + c + core.slice(i);
    case 2:
      return core.slice(0, i) + (core[i + 1] as string) + c + core.slice(i + 2);
    default: {
      const n = NEIGHBOURS[c.toLowerCase()] ?? c;
      return core.slice(0, i) + (c === c.toLowerCase() ? n : n.toUpperCase()) + core.slice(i + 1);
    }
  }
}

/** How a branch is named after its firm, per language; `{n}` is the firm's name, `{c}` the city. */
const BRANCH_TEMPLATES: Readonly<Partial<Record<Locale, readonly string[]>>> = {
  en: ['{n} ({c})', '{n} - {c} Branch', '{n}, {c} Branch'],
  tr: ['{n} {c} Şubesi', '{n} ({c})'],
  de: ['{n} Niederlassung {c}', '{n} Zweigniederlassung {c}'],
  es: ['{n} Sucursal {c}', '{n} ({c})'],
  pt: ['{n} Filial {c}', '{n} ({c})'],
  fr: ['{n} Succursale {c}', '{n} ({c})'],
  it: ['{n} Filiale di {c}', '{n} ({c})'],
  nl: ['{n} Vestiging {c}', '{n} ({c})'],
  pl: ['{n} Oddział {c}', '{n} ({c})'],
  zh: ['{n} ({c})', '{n} {c} Branch'],
};

const cityName = (city: string): string => city.split(' / ')[0] ?? city;

function joinName(parts: { lead: string; core: string; tail: string }): string {
  return [parts.lead, parts.core, parts.tail].filter((p) => p.length > 0).join(' ');
}

/** The name as the generator first wrote it (its main spelling). */
export function mainSpelling(p: NameParts): string {
  return `${p.stem} ${p.sector} ${p.suffix}`;
}

/**
 * The name with every word that has a rendering in Latin letters written in them: "金龙 电子科技" and
 * "Jinlong 电子科技" are one name to anybody who reads both.
 */
export function inLatin(name: string, locale: Locale): string {
  let out = name;
  for (const [native, latin] of [...(SCRIPT_PAIRS[locale] ?? [])].sort((a, b) => b[0].length - a[0].length)) {
    out = out.split(native).join(` ${latin} `);
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * The name written in the other script (Chinese characters to pinyin, Kanji to rōmaji, Hangul to
 * Latin, Arabic to Latin, or back), or null when some word of it has no known rendering.
 */
function otherScript(name: string, locale: Locale): string | null {
  const pairs = SCRIPT_PAIRS[locale];
  if (!pairs) return null;
  const toLatin = !hasLatin(name);
  // Longest first, so that 股份有限公司 is not taken for 有限公司.
  const sorted = [...pairs].sort((a, b) => (toLatin ? b[0].length - a[0].length : b[1].length - a[1].length));
  let out = name;
  for (const [native, latin] of sorted) {
    const [from, to] = toLatin ? [native, latin] : [latin, native];
    if (out.includes(from)) out = out.split(from).join(toLatin ? ` ${to} ` : ` ${to}`);
  }
  out = out.replace(/\s+/g, ' ').trim();
  if (toLatin) return /^[\x20-\x7e]+$/.test(out) ? out : null;
  if (hasLatin(out)) return null;
  // Chinese, Japanese and Korean names run together; Arabic keeps its spaces.
  return locale === 'ar' ? out : out.replace(/ /g, '');
}

/**
 * A spelling of the firm other than `taken`, or null when the draws found none. Each spelling changes
 * the legal form's writing most of the time, and on top of that may be in capitals, lose its
 * punctuation, be folded to ASCII or written in another script, carry a typing slip or a branch suffix.
 */
export function variantSpelling(
  p: NameParts,
  cities: readonly string[],
  taken: ReadonlySet<string>,
  rng: Rng,
): string | null {
  for (let attempt = 0; attempt < 12; attempt++) {
    let suffix = p.suffix;
    const r = rng.next();
    if (r < 0.65) suffix = rng.pick([p.suffix, ...(LEGAL_FORMS[p.suffix] ?? [])]);
    else if (r < 0.75) suffix = '';
    let core = `${p.stem} ${p.sector}`;
    for (const [word, short] of Object.entries(WORD_ABBREVIATIONS)) {
      if (core.includes(word) && rng.chance(0.4)) core = core.replace(word, rng.pick(short));
    }
    if (p.locale === 'ar') {
      for (const [word, others] of Object.entries(ARABIC_LATIN)) {
        if (core.includes(word) && rng.chance(0.6)) core = core.replace(word, rng.pick(others));
      }
    }
    if (hasLatin(core) && rng.chance(0.15)) core = typo(core, rng);
    let lead = '';
    let tail = suffix;
    if (LEADING_FORMS.has(suffix) && rng.chance(0.7)) {
      lead = suffix;
      tail = '';
      if (p.locale === 'ru') core = rng.pick([`«${core}»`, `"${core}"`, core]);
    }
    let name = joinName({ lead, core, tail });
    if (isCjk(name) && rng.chance(0.7)) name = name.replace(/ /g, '');
    if (rng.chance(0.2)) name = otherScript(name, p.locale) ?? name;
    if (p.locale === 'ru' && /[а-яё]/i.test(name) && rng.chance(0.5)) {
      name = transliterateCyrillic(name, rng.int(3) as 0 | 1 | 2);
    }
    if (hasLatin(name) && rng.chance(0.3)) {
      name = foldToAscii(name, p.locale, p.locale === 'de' && rng.chance(0.7));
    }
    const branches = BRANCH_TEMPLATES[p.locale];
    if (branches && cities.length > 0 && rng.chance(0.12)) {
      name = rng
        .pick(branches)
        .replace('{n}', name)
        .replace('{c}', cityName(rng.pick(cities)));
    }
    const caps = rng.next();
    if (caps < 0.4) name = p.locale === 'tr' ? name.toLocaleUpperCase('tr') : name.toUpperCase();
    else if (caps < 0.45) name = p.locale === 'tr' ? name.toLocaleLowerCase('tr') : name.toLowerCase();
    if (rng.chance(0.25)) name = name.replace(/[.,]/g, '').replace(/\s+/g, ' ');
    if (rng.chance(0.05)) name = name.replace(/ /g, '  ');
    name = name.trim();
    if (name.length > 0 && !taken.has(name)) return name;
  }
  return null;
}

/** How many spellings besides its main one a firm has in the records: most none, some several. */
export function variantCount(rng: Rng): number {
  const u = rng.next();
  return u < 0.5 ? 0 : u < 0.75 ? 1 : u < 0.88 ? 2 : u < 0.95 ? 3 : 4;
}

/** Generic mailbox providers: a shared domain there says nothing about who the sender is. */
export const MAILBOX_PROVIDERS = [
  'gmail.com',
  'hotmail.com',
  'yahoo.com',
  'outlook.com',
  '163.com',
  'qq.com',
  'yandex.ru',
  'mail.ru',
  'naver.com',
];

/** A telephone number written another way: digits only, dashes, or 00 instead of +. */
export function phoneSpelling(tel: string, rng: Rng): string {
  const digits = tel.replace(/\D/g, '');
  switch (rng.int(4)) {
    case 0:
      return digits;
    case 1:
      return `00${digits}`;
    case 2:
      return `+${digits.slice(0, 2)}-${digits.slice(2, 5)}-${digits.slice(5)}`;
    default:
      return tel;
  }
}

/** A web address written another way: with a scheme, without www, in capitals, with a slash. */
export function webSpelling(web: string, rng: Rng): string {
  switch (rng.int(4)) {
    case 0:
      return `http://${web}`;
    case 1:
      return web.replace(/^www\./, '');
    case 2:
      return `${web.toUpperCase()}/`;
    default:
      return `https://${web}/`;
  }
}

/** A tax id written with separators (as some records do). */
export function taxIdSpelling(taxId: string, rng: Rng): string {
  if (!/^\d{9,}$/.test(taxId)) return taxId;
  return rng.chance(0.5)
    ? `${taxId.slice(0, 3)}-${taxId.slice(3, 6)}-${taxId.slice(6)}`
    : `${taxId.slice(0, 3)} ${taxId.slice(3)}`;
}
