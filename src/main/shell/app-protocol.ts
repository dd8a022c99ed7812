import { resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './app-location';

/**
 * The `app://` scheme's privileges (registered before the app is ready). `standard` gives the page a
 * real origin (`app://portolan`) so `'self'` in the CSP means the app's own files and nothing else on
 * disk; `secure` treats it like https. No service workers, no CORS, no bypass of the CSP.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  allowServiceWorkers: false,
  corsEnabled: false,
  bypassCSP: false,
} as const;

/** The request as the protocol handler sees it (Electron passes a GlobalRequest). */
export interface AppRequest {
  readonly url: string;
  readonly method: string;
}

export interface AppProtocolOptions {
  /** The renderer build: `app://portolan/x` is `<rootDir>/x`, and nothing outside it. */
  rootDir: string;
  /** The page's policy, sent as a header identical to index.html's meta tag. */
  csp: string;
  /** Reads one file of the build as a response (Electron: `net.fetch` of its file URL). */
  fetchFile: (path: string) => Promise<Response>;
}

/**
 * The file of the renderer build an `app://` URL names, or null: another host, a path that escapes the
 * build (`..` survives no URL parse, but encoded slashes, backslashes or NUL would), or no file name.
 * `/` is index.html.
 */
export function appFilePath(url: string, rootDir: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST || u.username || u.password) return null;
  if (/%2f|%5c|%00/i.test(u.pathname)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\\') || decoded.includes('\0')) return null;
  const root = resolve(rootDir);
  const rel = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = resolve(root, rel);
  return full.startsWith(root + sep) ? full : null;
}

/** Headers every response of the app's own protocol carries. */
const APP_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-cache',
} as const;

/**
 * The `app://` protocol handler: serves the renderer build's files (GET and HEAD only) with the CSP
 * header; anything else is a 404 that names nothing of the disk.
 */
export function createAppProtocolHandler(opts: AppProtocolOptions): (req: AppRequest) => Promise<Response> {
  const notFound = () =>
    new Response('Not found', { status: 404, headers: { ...APP_HEADERS, 'Content-Type': 'text/plain' } });
  return async (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return new Response('Method not allowed', { status: 405, headers: APP_HEADERS });
    const path = appFilePath(req.url, opts.rootDir);
    if (!path) return notFound();
    let file: Response;
    try {
      file = await opts.fetchFile(path);
    } catch {
      return notFound();
    }
    if (!file.ok) return notFound();
    const headers = new Headers(file.headers);
    for (const [k, v] of Object.entries(APP_HEADERS)) headers.set(k, v);
    headers.set('Content-Security-Policy', opts.csp);
    return new Response(req.method === 'HEAD' ? null : file.body, { status: 200, headers });
  };
}
