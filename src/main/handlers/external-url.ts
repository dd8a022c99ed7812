/** Hosts of reference pages an analyst may be sent to (country and HS code references). */
export const DEFAULT_EXTERNAL_HOSTS: readonly string[] = ['www.iso.org', 'www.wcoomd.org', 'hts.usitc.gov'];

/**
 * Whether a URL may leave the app for the user's browser: https only, no credentials in the URL,
 * and a host on the allow-list exactly (no suffix matching, so `iso.org.evil.example` is refused).
 */
export function isAllowedExternalUrl(url: string, allowedHosts: Iterable<string>): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username !== '' || u.password !== '') return false;
  const host = u.hostname.toLowerCase();
  for (const h of allowedHosts) if (h.toLowerCase() === host) return true;
  return false;
}

/** The https host of a profile's base URL, which is where the account portal lives. */
export function httpsHostOf(baseUrl: string): string | null {
  try {
    const u = new URL(baseUrl);
    return u.protocol === 'https:' ? u.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}
