import type { Session } from 'electron';

export { contentSecurityPolicy } from '@shared/csp';

export type ResponseHeaders = Record<string, string[] | string>;

/** The response headers with our CSP replacing any the response carried (header names are case-insensitive). */
export function withCspHeader(headers: ResponseHeaders | undefined, csp: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (k.toLowerCase() === 'content-security-policy') continue;
    out[k] = Array.isArray(v) ? v : [v];
  }
  out['Content-Security-Policy'] = [csp];
  return out;
}

/** What hardenSession uses of Electron's Session; tests pass a fake. */
export type SessionLike = {
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived'>;
} & Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>;

/** CSP on every response and no permission (camera, notifications, USB, …) ever granted. */
export function hardenSession(
  session: SessionLike,
  csp: string,
  onDenied?: (permission: string) => void,
): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders, csp) });
  });
  session.setPermissionRequestHandler((_wc, permission, callback) => {
    onDenied?.(permission);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
