/**
 * The page's Content Security Policy, one definition for every place it is delivered: the meta tag the
 * renderer build writes into index.html, the Electron session's header, the `app://` protocol's
 * responses and the browser host's header. All four carry exactly this text.
 *
 * Only directives a meta tag honours are used, so the meta and the header cannot mean different things:
 * framing (`frame-ancestors`, ignored in a meta tag) is refused by `X-Frame-Options: DENY` on every
 * response instead. In development the Vite dev server needs its inline React-refresh preamble and a
 * websocket for HMR.
 */
export function contentSecurityPolicy(dev: { url: string } | null = null): string {
  const devOrigin = dev ? new URL(dev.url) : null;
  const ws = devOrigin ? ` ws://${devOrigin.host}` : '';
  return [
    "default-src 'self'",
    devOrigin ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    // ag-grid and React set style attributes at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${ws}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "worker-src 'self'",
  ].join('; ');
}

/** Where the renderer build writes the policy into index.html (a placeholder in the source page). */
export const CSP_PLACEHOLDER = '%PORTOLAN_CSP%';
