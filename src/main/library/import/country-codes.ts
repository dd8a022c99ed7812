// The package's own entry point, not its Node one: that one registers all 78 locales on load, in the
// main process and in every import worker, where only the names below are ever looked up.
import countries from 'i18n-iso-countries/index';
import type { LocaleData } from 'i18n-iso-countries/index';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';
import es from 'i18n-iso-countries/langs/es.json';
import fr from 'i18n-iso-countries/langs/fr.json';
import pt from 'i18n-iso-countries/langs/pt.json';
import tr from 'i18n-iso-countries/langs/tr.json';

/**
 * The languages whose country names are read: English, and those of the customs data whose headers the
 * mapping knows (mapping.ts), whose values name countries in the same language.
 */
const NAME_LOCALES: readonly LocaleData[] = [en, es, pt, fr, de, tr];

/** The fields that hold a two-letter ISO 3166-1 code (the service's record fields). */
export const COUNTRY_CODE_FIELDS: ReadonlySet<string> = new Set([
  'countryOfOrigin',
  'importerCountryCode',
  'exporterCountryCode',
  'country_code',
]);

/** Every two-letter ISO 3166-1 code. */
export function isoCountryCodes(): string[] {
  return Object.keys(countries.getAlpha2Codes());
}

/** Letters NFKD does not take apart ("ı", "ß"), as their plain forms. */
const PLAIN_LETTERS: Readonly<Record<string, string>> = {
  ı: 'i',
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  đ: 'd',
  ł: 'l',
};

/**
 * A country's name as compared: without accents, case or punctuation, as people type it ("TURQUIA",
 * "Etats Unis", "türkiye").
 */
function nameKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ıßøæœđł]/g, (c) => PLAIN_LETTERS[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Names the shipped data gives the wrong country, by key: in Portuguese the two Congos are swapped
 * (CG is the Republic of the Congo, once the People's Republic; CD the Democratic Republic).
 */
const CORRECTED: Readonly<Record<string, string>> = {
  'republica democratica do congo': 'CD',
  'republica popular do congo': 'CG',
};

let names: Map<string, string[]> | null = null;

/** Every name of the read languages, by its key: the codes of the countries it names. */
function countryNames(): Map<string, string[]> {
  if (names) return names;
  names = new Map();
  for (const locale of NAME_LOCALES)
    for (const [code, written] of Object.entries(locale.countries))
      for (const name of typeof written === 'string' ? [written] : written) {
        const key = nameKey(name);
        const named = CORRECTED[key] ?? code;
        const codes = names.get(key);
        if (!codes) names.set(key, [named]);
        else if (!codes.includes(named)) codes.push(named);
      }
  return names;
}

/** What a country field's text was found to be (countryCodeOf). */
export type CountryReading =
  | { code: string; converted: boolean }
  /** A name of more than one country (English "Congo"): which one is not guessed. */
  | { codes: string[] }
  | null;

/**
 * What a country field's text is: a two-letter ISO code as it is (`code`), the code of a country
 * written otherwise (by its name in English, Spanish, Portuguese, French, German or Turkish, with or
 * without accents and in any case: "Korea, Republic of", "Alemania", "Almanya"; or a three-letter
 * code, "DEU"), the codes a name could mean, or null for text that names no country known. Empty
 * text is a code as it is.
 */
export function countryCodeOf(text: string): CountryReading {
  const t = text.trim();
  if (t === '') return { code: text, converted: false };
  if (/^[A-Z]{2}$/.test(t) && countries.isValid(t)) return { code: t, converted: t !== text };
  if (/^[A-Za-z]{2}$/.test(t) && countries.isValid(t.toUpperCase()))
    return { code: t.toUpperCase(), converted: true };
  const alpha3 = /^[A-Za-z]{3}$/.test(t) ? countries.alpha3ToAlpha2(t.toUpperCase()) : undefined;
  if (alpha3) return { code: alpha3, converted: true };
  const codes = countryNames().get(nameKey(t));
  if (!codes) return null;
  return codes.length === 1 ? { code: codes[0]!, converted: true } : { codes: [...codes] };
}
