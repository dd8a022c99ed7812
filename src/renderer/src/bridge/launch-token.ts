/** Must match the web host's TOKEN_HEADER. */
const TOKEN_HEADER = 'X-Portolan-Token';
/** Where an earlier version kept the token for reloads; it is removed wherever it is still found. */
const OLD_STORAGE_KEY = 'portolan.token';

/**
 * The browser host's launch: the token comes in the launch address's fragment (`#token=…`, which no
 * server log or Referer sees). It leaves the address bar and the tab's history entry at once, then is
 * traded, once, for the host's HttpOnly session cookie: from then on the cookie authorises the page
 * (reloads included) and the token, wherever the browser recorded it, opens nothing. It is never kept
 * in storage and never put in a query string.
 *
 * Resolves when the page may call the host; a page opened without a token simply relies on its cookie.
 */
export async function exchangeLaunchToken(base = ''): Promise<void> {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const token = hash.get('token');
  try {
    window.sessionStorage.removeItem(OLD_STORAGE_KEY);
  } catch {
    // Storage can be disabled: then nothing was kept there either.
  }
  if (!token) return;
  hash.delete('token');
  const fragment = hash.toString();
  window.history.replaceState(
    null,
    '',
    `${window.location.pathname}${window.location.search}${fragment ? `#${fragment}` : ''}`,
  );
  try {
    // A refusal (a spent token and no session) shows up on the first call as "not authorised".
    await fetch(`${base}/session`, { method: 'POST', headers: { [TOKEN_HEADER]: token } });
  } catch {
    // The host is not reachable: the first call says so.
  }
}
