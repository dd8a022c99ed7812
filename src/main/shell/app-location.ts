/**
 * Where the app's own page is loaded from: the renderer build served by the `app://` protocol
 * (app-protocol.ts), or the Vite dev server in a development build.
 */
export type AppLocation = { kind: 'app'; rootDir: string } | { kind: 'dev'; url: string };

/** The app's own scheme and host: `app://portolan/index.html`. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'portolan';
const APP_INDEX = '/index.html';

export function appEntryUrl(loc: AppLocation): string {
  return loc.kind === 'app' ? `${APP_SCHEME}://${APP_HOST}${APP_INDEX}` : loc.url;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What decides where the page comes from; index.ts passes the build's and the process's facts. */
export interface LocationFacts {
  /** True only in a development build (`electron-vite dev`); a production build never looks further. */
  devBuild: boolean;
  /** Electron's `app.isPackaged`. */
  packaged: boolean;
  /** The dev server's address, as electron-vite dev sets it (ELECTRON_RENDERER_URL). */
  devServerUrl: string | undefined;
  /** The renderer build's folder, served as `app://portolan/`. */
  rendererDir: string;
}

/**
 * The page's location. The dev server's address is honoured only by an unpackaged development build,
 * and only when it is plain http on this machine: a production build, or a variable pointing anywhere
 * else, loads the bundled page.
 */
export function resolveAppLocation(facts: LocationFacts): AppLocation {
  if (facts.devBuild && !facts.packaged && facts.devServerUrl) {
    let url: URL | null = null;
    try {
      url = new URL(facts.devServerUrl);
    } catch {
      url = null;
    }
    if (url && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
      return { kind: 'dev', url: url.href };
  }
  return { kind: 'app', rootDir: facts.rendererDir };
}

/**
 * Whether a URL is the app's own page. In production that is exactly `app://portolan/index.html` (any
 * hash, since the renderer routes by hash). In development it is the dev server's origin.
 */
export function isAppUrl(url: string, loc: AppLocation): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (loc.kind === 'app') {
    // Node gives a non-special scheme the origin "null": compare its parts instead.
    return (
      u.protocol === `${APP_SCHEME}:` &&
      u.host === APP_HOST &&
      u.username === '' &&
      u.password === '' &&
      u.pathname === APP_INDEX &&
      u.search === ''
    );
  }
  return u.origin === new URL(loc.url).origin;
}
