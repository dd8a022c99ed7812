/**
 * What a browser does with the browser host's launch address, for tests that talk to the host from
 * Node: trade the launch token for the session cookie (`POST /session`), then send that cookie with
 * every request, as a browser's cookie jar does.
 */
export interface BrowserSession {
  /** `name=value`, as the Cookie header carries it. */
  cookie: string;
  /** The Set-Cookie header the host answered, to check its attributes. */
  setCookie: string;
  /** fetch with the session cookie, like the page's own. */
  fetch: typeof fetch;
}

export async function openSession(host: { origin: string; token: string }): Promise<BrowserSession> {
  const res = await fetch(`${host.origin}/session`, {
    method: 'POST',
    headers: { 'X-Portolan-Token': host.token },
  });
  const setCookie = res.headers.get('set-cookie') ?? '';
  if (res.status !== 204 || !setCookie) throw new Error(`no session: HTTP ${res.status}`);
  const cookie = setCookie.split(';')[0]!.trim();
  return {
    cookie,
    setCookie,
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Cookie', cookie);
      return fetch(input, { ...init, headers });
    },
  };
}
