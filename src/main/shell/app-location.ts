import { pathToFileURL } from 'node:url';

/** Where the app's own page is loaded from: the built index.html, or the dev server in development. */
export type AppLocation = { kind: 'file'; indexPath: string } | { kind: 'dev'; url: string };

export function appEntryUrl(loc: AppLocation): string {
  return loc.kind === 'file' ? pathToFileURL(loc.indexPath).href : loc.url;
}

/**
 * Whether a URL is the app's own page. In production that is exactly the bundled index.html (any hash,
 * since the renderer routes by hash; no other file: a file:// URL can point anywhere on disk).
 * In development it is the dev server's origin.
 */
export function isAppUrl(url: string, loc: AppLocation): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (loc.kind === 'file') {
    const own = new URL(appEntryUrl(loc));
    return (
      u.protocol === 'file:' &&
      u.host === own.host &&
      decodeURIComponent(u.pathname) === decodeURIComponent(own.pathname)
    );
  }
  return u.origin === new URL(loc.url).origin;
}
