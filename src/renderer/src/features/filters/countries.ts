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
 * Matches the code exactly first ("DE", "ALL"), then names containing the text ("germ"). The exact
 * code must win: "all" is also inside "Marshall Islands", and Enter takes the first entry.
 */
export function searchCountries(query: string, limit = 30): Country[] {
  const q = query.trim().toLowerCase();
  const list = [ALL_ENTRY, ...allCountries()];
  if (!q) return list.slice(0, limit);
  const exact = list.filter((c) => c.code.toLowerCase() === q);
  const rest = list.filter((c) => c.code.toLowerCase() !== q && c.name.toLowerCase().includes(q));
  return [...exact, ...rest].slice(0, limit);
}
