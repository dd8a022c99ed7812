import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';
import { ALL_COUNTRIES } from '@shared/spec';

// The package's browser entry ships no locale; registering only English keeps the bundle small.
countries.registerLocale(en);

export interface Country {
  code: string;
  name: string;
}

let all: Country[] | null = null;

/** Every ISO 3166-1 alpha-2 country with its English name, sorted by name. */
export function allCountries(): Country[] {
  all ??= Object.entries(countries.getNames('en', { select: 'official' }))
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return all;
}

/**
 * The spec's one special value: `ALL` (firm search rule 3: an omitted importer_countries means
 * ["ALL"]). It is offered like a country so it can be picked and typed.
 */
export const ALL_ENTRY: Country = { code: ALL_COUNTRIES, name: 'All countries' };

let known: Set<string> | null = null;

/** True for a code of the reference list (ISO 3166-1 alpha-2 with an English name) or ALL. */
export function isKnownCountryCode(code: string): boolean {
  known ??= new Set([ALL_ENTRY.code, ...allCountries().map((c) => c.code)]);
  return known.has(code);
}

export function countryName(code: string): string {
  if (code === ALL_COUNTRIES) return ALL_ENTRY.name;
  return countries.getName(code, 'en') ?? 'unknown code';
}

/**
 * Names analysts type that the reference list does not carry (it already knows UK, Great Britain,
 * USA, Turkey, UAE, Russia, Czechia…, see `select: 'all'`). Keyed by code.
 */
const EXTRA_ALIASES: Record<string, readonly string[]> = {
  GB: ['Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland'],
  US: ['America'],
  NL: ['Holland'],
  KR: ['Korea'],
  AE: ['Emirates'],
  DE: ['Deutschland'],
  MM: ['Burma'],
  SZ: ['Swaziland'],
  CV: ['Cabo Verde'],
  VA: ['Vatican'],
  MO: ['Macau'],
  VN: ['Viet Nam'],
  LA: ['Laos'],
  SY: ['Syria'],
  CN: ['PRC'],
};

/** Lower case without accents, so "turkiye" finds Türkiye and "cote" Côte d'Ivoire. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

interface Searchable extends Country {
  /** The name and every alias, folded. */
  keys: string[];
}

let searchable: Searchable[] | null = null;

function searchList(): Searchable[] {
  searchable ??= [ALL_ENTRY, ...allCountries()].map((c) => {
    const names =
      c.code === ALL_COUNTRIES ? [c.name] : (countries.getName(c.code, 'en', { select: 'all' }) ?? []);
    return { ...c, keys: [...new Set([c.name, ...names, ...(EXTRA_ALIASES[c.code] ?? [])].map(fold))] };
  });
  return searchable;
}

export interface CountryMatch extends Country {
  /**
   * The text is the code, a name or alias, or the start of one of their words ("ger" in Germany):
   * a match Enter may take. A match only inside a word ("ger" in Algeria, Niger) is offered but never
   * taken by Enter unless the analyst highlights it.
   */
  close: boolean;
}

/**
 * Ranks countries for what was typed: the exact code first ("DE", "ALL"), then a name or alias equal
 * to the text ("uk" → United Kingdom before Ukraine, "usa", "holland", "uae"), then names and aliases
 * that start with it, then those with a word that starts with it, then those that contain it. The
 * exact code must win: "all" is also inside "Marshall Islands".
 */
export function searchCountryMatches(query: string, limit = 30): CountryMatch[] {
  const q = fold(query);
  const list = searchList();
  if (!q) return list.slice(0, limit).map((c) => ({ code: c.code, name: c.name, close: false }));
  const rank = (c: Searchable): number => {
    if (c.code.toLowerCase() === q) return 0;
    if (c.keys.includes(q)) return 1;
    if (c.keys.some((k) => k.startsWith(q))) return 2;
    if (c.keys.some((k) => k.split(/[\s,()'-]+/).some((w) => w.startsWith(q)))) return 3;
    if (c.keys.some((k) => k.includes(q))) return 4;
    return 9;
  };
  return list
    .map((c) => ({ c, r: rank(c) }))
    .filter((x) => x.r < 9)
    .sort((a, b) => a.r - b.r)
    .slice(0, limit)
    .map((x) => ({ code: x.c.code, name: x.c.name, close: x.r <= 3 }));
}

/** The countries for what was typed, best first (see `searchCountryMatches`). */
export function searchCountries(query: string, limit = 30): Country[] {
  return searchCountryMatches(query, limit).map(({ code, name }) => ({ code, name }));
}
