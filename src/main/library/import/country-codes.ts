import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';

countries.registerLocale(en);

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

/**
 * What a country field's text is: a two-letter ISO code as it is (`code`), the code of a country
 * written otherwise (by its English name, "Korea, Republic of", or a three-letter code, "DEU"), or
 * null for text that names no country known. Empty text is a code as it is.
 */
export function countryCodeOf(text: string): { code: string; converted: boolean } | null {
  const t = text.trim();
  if (t === '') return { code: text, converted: false };
  if (/^[A-Z]{2}$/.test(t) && countries.isValid(t)) return { code: t, converted: t !== text };
  if (/^[A-Za-z]{2}$/.test(t) && countries.isValid(t.toUpperCase()))
    return { code: t.toUpperCase(), converted: true };
  const alpha3 = /^[A-Za-z]{3}$/.test(t) ? countries.alpha3ToAlpha2(t.toUpperCase()) : undefined;
  const code = alpha3 ?? countries.getAlpha2Code(t, 'en');
  return code ? { code, converted: true } : null;
}
