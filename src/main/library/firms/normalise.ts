/**
 * What makes two spellings of a party comparable, as DuckDB SQL expressions: a name reduced to the
 * words that name the firm (case, accents, punctuation, script and legal form set aside), and each kind
 * of evidence reduced to the value that identifies (a tax id's characters, a telephone's last digits, a
 * web domain). Everything here is built once from fixed tables; only column names are interpolated.
 */

/**
 * Legal forms and the like, as they read after the steps below (lower case, ASCII, dots dropped, single
 * letters joined): "Co., Ltd." → "co ltd", "S.A. de C.V." → "sa de cv", "A.Ş." → "as". Longer phrases
 * first, so "co ltd" goes before "co" and "ltd".
 */
export const LEGAL_FORMS: readonly string[] = [
  // Turkish: legal form plus the customary activity words that travel with it.
  'sanayi ve ticaret anonim sirketi',
  'sanayi ve ticaret limited sirketi',
  'sanayi ve ticaret',
  'san ve tic',
  'san tic',
  'ithalat ve ihracat',
  'ithalat ihracat',
  'ith ihr',
  'dis ticaret',
  'dis tic',
  'anonim sirketi',
  'limited sirketi',
  'ltd sirketi',
  'ltd sti',
  'ltdsti',
  'sti',
  // English and the forms used across Asia, Africa and the Gulf.
  'limited liability company',
  'limited liability partnership',
  'joint stock company',
  'public limited company',
  'private limited',
  'company limited',
  'pvt limited',
  'pvt ltd',
  'pte ltd',
  'pty ltd',
  'sdn bhd',
  'co limited',
  'co ltd',
  'p ltd',
  'co wll',
  'company wll',
  'fz llc',
  'fz co',
  'company',
  'corporation',
  'incorporated',
  'limited',
  'co',
  'corp',
  'inc',
  'ltd',
  'llc',
  'llp',
  'lp',
  'plc',
  'pvt',
  'pte',
  'pty',
  'bhd',
  'jsc',
  'wll',
  'fze',
  'fzco',
  'fzc',
  'est',
  'establishment',
  'sae',
  'sal',
  // Spanish, Portuguese, French, Italian.
  's de rl de cv',
  'sa de cv',
  'sociedad anonima',
  'sociedad limitada',
  'sa',
  'sl',
  'sac',
  'srl',
  'sas',
  'sarl',
  'eurl',
  'spa',
  'snc',
  'ltda',
  'limitada',
  'lda',
  'eireli',
  'eireli me',
  // German, Dutch, Nordic.
  'gesellschaft mit beschrankter haftung',
  'gmbh and co kg',
  'gmbh u co kg',
  'gmbh co kg',
  'aktiengesellschaft',
  'kommanditgesellschaft',
  'gmbh',
  'ag',
  'kg',
  'ek',
  'ohg',
  'bv',
  'nv',
  'vof',
  'oy',
  'ab',
  'as',
  'aps',
  // Polish.
  'spolka z ograniczona odpowiedzialnoscia',
  'spolka akcyjna',
  'spolka jawna',
  'sp z oo',
  'sp zoo',
  'sp j',
  // Russian and Central Asian (after transliteration), Japanese, Vietnamese.
  'obshchestvo s ogranichennoi otvetstvennostyu',
  'aktsionernoe obshchestvo',
  'ooo',
  'ao',
  'zao',
  'oao',
  'pao',
  'too',
  'kabushiki kaisha',
  'kk',
  'cong ty tnhh',
  'cong ty co phan',
  'cty tnhh',
  'tnhh',
];

/** Legal forms in scripts without word spaces: removed wherever they stand. */
export const CJK_LEGAL_FORMS: readonly string[] = [
  '股份有限公司',
  '有限责任公司',
  '有限公司',
  '股份公司',
  '株式会社',
  '(株)',
  '（株）',
  '주식회사',
  '(주)',
  '（주）',
];

/** Words written shorter; each short form is read as the long one. */
const SHORT_WORDS: Readonly<Record<string, string>> = {
  intl: 'international',
  imp: 'import',
  exp: 'export',
  trdg: 'trading',
  inds: 'industries',
  industry: 'industries',
  bldg: 'building',
  gen: 'general',
  mfg: 'manufacturing',
  mat: 'materials',
  material: 'materials',
};

/** Words that say a party is a branch: the text from them on (or the city before them) is dropped. */
const BRANCH_BEFORE_CITY = [
  'zweigniederlassung',
  'niederlassung',
  'sucursal',
  'succursale',
  'filiale di',
  'filiale',
  'filial',
  'vestiging',
  'oddzial',
];
const BRANCH_AFTER_CITY = ['branch', 'subesi', 'sube'];

/** Russian letters in Latin ones (one common system; names written in another still come out close). */
const CYRILLIC: readonly (readonly [string, string])[] = [
  ['щ', 'shch'],
  ['ж', 'zh'],
  ['х', 'kh'],
  ['ц', 'ts'],
  ['ч', 'ch'],
  ['ш', 'sh'],
  ['ю', 'yu'],
  ['я', 'ya'],
  ['ё', 'e'],
  ['ъ', ''],
  ['ь', ''],
];
const CYRILLIC_ONE = ['абвгдезийклмнопрстуфыэ', 'abvgdeziyklmnoprstufye'] as const;

/** Mailbox providers: a domain anyone can have an address at says nothing about the firm. */
export const MAILBOX_DOMAINS: readonly string[] = [
  'gmail.com',
  'googlemail.com',
  'hotmail.com',
  'outlook.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.in',
  'yahoo.co.jp',
  'aol.com',
  'icloud.com',
  'me.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  't-online.de',
  'orange.fr',
  'free.fr',
  'libero.it',
  'yandex.ru',
  'mail.ru',
  'bk.ru',
  'list.ru',
  'inbox.ru',
  'rambler.ru',
  '163.com',
  '126.com',
  'qq.com',
  'sina.com',
  'sohu.com',
  'aliyun.com',
  'naver.com',
  'daum.net',
  'hanmail.net',
  'rediffmail.com',
  'protonmail.com',
  'proton.me',
  'zoho.com',
  // Social networks: a page there is not the firm's own domain.
  'facebook.com',
  'instagram.com',
  'linkedin.com',
  'twitter.com',
  'x.com',
];

const sqlText = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `replace(…)` calls applied in order. */
function replaceAll(expr: string, pairs: readonly (readonly [string, string])[]): string {
  return pairs.reduce((e, [from, to]) => `replace(${e}, ${sqlText(from)}, ${sqlText(to)})`, expr);
}

const LEGAL_ALTERNATION = [...LEGAL_FORMS]
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join('|');

/** One step of the name's normalisation: an expression over the previous step's value `v`. */
type Step = string;
const v = 'v';
const regexpReplace = (pattern: string, replacement: string, global = true): Step =>
  `regexp_replace(v, '${pattern}', '${replacement}'${global ? ", 'g'" : ''})`;
/** A step applied only to the values it can change (the test is much cheaper than the step). */
const onlyIf = (test: string, step: Step): Step => `CASE WHEN ${test} THEN ${step} ELSE v END`;

/** Letters written apart ("s a de c v", "s r l") joined: each single letter is marked (twice, as a
 * match takes the space after it), then the gaps between marked letters close (twice, for runs). */
const mark = (e: string) => `regexp_replace(${e}, '(^| )([a-z])( |$)', '\\1\\2#\\3', 'g')`;
const close = (e: string) => `regexp_replace(${e}, '# ([a-z]#)', '\\1', 'g')`;

/** The steps of the name's normalisation, in order. */
export const NAME_STEPS: readonly Step[] = [
  // Composed first: text from some systems arrives decomposed (Hangul as jamo, "é" as e + accent).
  `lower(nfc_normalize(coalesce(v, '')))`,
  // Parts in brackets (a branch's city, "(株)") and everything after a spaced dash ("- Brno Branch").
  onlyIf(
    `regexp_matches(v, '[(（]| [-–—] ')`,
    `regexp_replace(regexp_replace(v, '[(（][^)）]*[)）]', ' ', 'g'), ' [-–—] .*$', '')`,
  ),
  onlyIf(
    `regexp_matches(v, '[株주]|公司')`,
    replaceAll(
      v,
      CJK_LEGAL_FORMS.map((f) => [f, ' ']),
    ),
  ),
  // A dot between a word and the next ("sp.z o.o.", "ltd.şti.") separates them; other dots just go
  // ("s.a." → "sa", "l.l.c." → "llc").
  onlyIf(`contains(v, '.')`, `replace(${regexpReplace('(\\pL\\pL)\\.(\\pL)', '\\1 \\2')}, '.', '')`),
  `strip_accents(${replaceAll(v, [
    ['ı', 'i'],
    ['ß', 'ss'],
    ['đ', 'd'],
    ['ł', 'l'],
    ['ø', 'o'],
    ['æ', 'ae'],
    ['&', ' and '],
    ["'", ''],
    ['’', ''],
  ])})`,
  onlyIf(
    `regexp_matches(v, '[а-яё]')`,
    `translate(${replaceAll(v, CYRILLIC)}, ${sqlText(CYRILLIC_ONE[0])}, ${sqlText(CYRILLIC_ONE[1])})`,
  ),
  // Any other punctuation or symbol separates words; letters written apart are joined.
  `trim(regexp_replace(regexp_replace(v, '[^\\p{L}\\p{N}]+', ' ', 'g'), ' (and|und) ', ' ', 'g'))`,
  onlyIf(`regexp_matches(v, '(^| )[a-z]( |$)')`, `replace(${close(close(mark(mark(v))))}, '#', '')`),
  // Short words read as long ones.
  onlyIf(
    `regexp_matches(v, '\\b(${Object.keys(SHORT_WORDS).join('|')})\\b')`,
    Object.entries(SHORT_WORDS).reduce(
      (x, [short, long]) => `regexp_replace(${x}, '\\b${short}\\b', '${long}', 'g')`,
      v,
    ),
  ),
  // A branch: the words that name it go. "… niederlassung hamburg" → "…"; "… istanbul subesi" → "…".
  onlyIf(
    `regexp_matches(v, '\\b(${[...BRANCH_BEFORE_CITY, ...BRANCH_AFTER_CITY].join('|')})\\b')`,
    `regexp_replace(${regexpReplace(`\\b(${BRANCH_BEFORE_CITY.join('|')})\\b.*$`, '', false)}, '( [^ ]+)? (${BRANCH_AFTER_CITY.join('|')})$', '')`,
  ),
  // Legal forms written first ("ооо", "cong ty tnhh") go; after one written later, the rest names a
  // branch or a place ("… a s istanbul subesi", "… gmbh hamburg") and goes with it.
  regexpReplace(`^(?:(?:${LEGAL_ALTERNATION})\\b ?)+`, '', false),
  onlyIf(
    `regexp_matches(v, '\\b(?:${LEGAL_ALTERNATION}) [^ ]')`,
    regexpReplace(`^(.+\\b(?:${LEGAL_ALTERNATION}))\\b.*$`, '\\1', false),
  ),
  onlyIf(
    `regexp_matches(v, '\\b(?:${LEGAL_ALTERNATION}|gesellschaft|obs?h?ch?estvo)\\b')`,
    `regexp_replace(regexp_replace(${regexpReplace(`\\b(?:${LEGAL_ALTERNATION})\\b`, ' ')}, ` +
      `'\\bgesellschaft mit beschr[a-z]*nkter haftung\\b', ' ', 'g'), ` +
      // The Russian long form, transliterated by any of the usual systems.
      `'\\bobs?h?ch?estvo s ogranich?enn[a-z]* otvetstvennost[a-z]*\\b', ' ', 'g')`,
  ),
  `trim(regexp_replace(v, '\\s+', ' ', 'g'))`,
];

/**
 * A query of `relation`'s column `name` and its normalisation `norm`: the words that name the firm.
 * "ACME CO., LTD. (Shanghai)" → "acme", "Yılmaz Tekstil San. ve Tic. A.Ş. İstanbul Şubesi" →
 * "yilmaz tekstil", "ООО «Волга Трейд»" → "volga treid", "华信贸易有限公司" → "华信贸易". Empty when
 * nothing but a legal form is left. Each step is a layer of its own, so a step can test its input
 * before it does the dearer work.
 */
export function normalisedNames(relation: string): string {
  const layers = NAME_STEPS.reduce(
    (from, step) => `(SELECT name, ${step} AS v FROM ${from})`,
    `(SELECT name, name AS v FROM ${relation})`,
  );
  return `SELECT name, v AS norm FROM ${layers}`;
}

/**
 * The evidence of each row of `relation` (columns tax, tel, email, web), each reduced to the value
 * that identifies, or NULL:
 * - `tax`: a tax id's letters and digits, upper case; not when shorter than six or one repeated
 *   character ("0000000000");
 * - `phone`: a telephone's last nine digits, where national and international writing agree;
 * - `email`: an e-mail address in lower case;
 * - `web_domain`, `mail_domain`: the domain of the web address and of the e-mail address, not when it
 *   is a mailbox provider's or a social network's.
 */
export function evidenceValues(relation: string): string {
  const providers = MAILBOX_DOMAINS.map(sqlText).join(', ');
  const domain = (host: string) =>
    `CASE WHEN ${host} <> '' AND ${host} NOT IN (${providers}) THEN ${host} END`;
  return `
    SELECT * EXCLUDE (t, d, m, w, web_host, mail_host),
           CASE WHEN length(t) >= 6 AND length(replace(t, left(t, 1), '')) > 0 THEN t END AS tax_value,
           CASE WHEN length(d) >= 8 AND length(replace(d, left(d, 1), '')) > 0 THEN right(d, 9) END AS phone_value,
           CASE WHEN regexp_matches(m, '^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$') THEN m END AS email_value,
           ${domain('web_host')} AS web_domain, ${domain('mail_host')} AS mail_domain
      FROM (
        SELECT *,
               regexp_extract(regexp_replace(w, '^[a-z]+://', ''),
                 '^(?:www[0-9]*\\.)?([a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.[a-z]{2,})(?:[:/].*)?$', 1) AS web_host,
               regexp_extract(m, '@([a-z0-9.-]+\\.[a-z]{2,})$', 1) AS mail_host
          FROM (
            SELECT *, upper(regexp_replace(coalesce(tax, ''), '[^0-9A-Za-z]', '', 'g')) AS t,
                   regexp_replace(coalesce(tel, ''), '[^0-9]', '', 'g') AS d,
                   lower(trim(coalesce(email, ''))) AS m, lower(trim(coalesce(web, ''))) AS w
              FROM ${relation}
          )
      )`;
}
