import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';

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

export function countryName(code: string): string {
  if (code === 'ALL') return 'All countries';
  return countries.getName(code, 'en') ?? 'unknown code';
}

/** Matches the code exactly first ("DE"), then names containing the text ("germ"). */
export function searchCountries(query: string, limit = 30): Country[] {
  const q = query.trim().toLowerCase();
  const list = allCountries();
  if (!q) return list.slice(0, limit);
  const exact = list.filter((c) => c.code.toLowerCase() === q);
  const rest = list.filter((c) => c.code.toLowerCase() !== q && c.name.toLowerCase().includes(q));
  return [...exact, ...rest].slice(0, limit);
}
