/**
 * The page's Content Security Policy, one definition for both hosts (the Electron session header and
 * the browser host's response header); the production policy matches the meta tag in index.html.
 * In development the Vite dev server needs its inline React-refresh preamble and a websocket for HMR.
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
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "worker-src 'self'",
  ].join('; ');
}
