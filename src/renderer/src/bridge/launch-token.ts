const STORAGE_KEY = 'portolan.token';

/**
 * The browser host's per-launch token: taken from the launch URL (`#token=…` or `?token=…`), kept in
 * sessionStorage so a reload still works, and removed from the address bar so it is not bookmarked,
 * copied or shown in a screenshot.
 */
export function takeLaunchToken(): string {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(window.location.search);
  const fromUrl = hash.get('token') ?? query.get('token');
  if (fromUrl) {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // Storage can be disabled; the token still works for this page load.
    }
    query.delete('token');
    hash.delete('token');
    const search = query.toString();
    const fragment = hash.toString();
    const clean = `${window.location.pathname}${search ? `?${search}` : ''}${fragment ? `#${fragment}` : ''}`;
    window.history.replaceState(null, '', clean);
    return fromUrl;
  }
  try {
    return window.sessionStorage.getItem(STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}
