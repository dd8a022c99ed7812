import { z } from 'zod';
import { OPERATIONS } from '../spec/operations';

/**
 * The spec gives no format or length for the key and secret (the portal generates both). Generated
 * credentials are long random strings, so anything under 8 characters is a paste mistake; and a value
 * that short can turn up inside ordinary words, where the log redactor could not mask it without
 * garbling every message. The redactor uses the same bound, so every credential the app accepts is
 * one it can scrub.
 */
export const MIN_CREDENTIAL_LENGTH = 8;
export const MAX_CREDENTIAL_LENGTH = 500;

/**
 * The leading path segments every operation shares (`api/v1/` in the spec), or '' when they share none.
 * The client joins operation paths relative to the base URL, so a base address that already ends in
 * this prefix would send requests to `/api/v1/api/v1/...`.
 */
export const OPERATION_PREFIX: string = (() => {
  const split = Object.values(OPERATIONS).map((op) => op.path.split('/').slice(0, -1));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((segs) => segs[n] === first[n])) n += 1;
  return n === 0 ? '' : `${first.slice(0, n).join('/')}/`;
})();

export type BaseUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Host names that can only mean this computer. Plain http is allowed to these alone (the simulator,
 * a local gateway): anywhere else the key and a replayable signature would cross the network readable.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  // 127.0.0.0/8, as URL() normalises it (127.1 → 127.0.0.1).
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * What stored credentials are bound to: the scheme, host and port of the base address they were saved
 * for. A profile whose address moves to another origin no longer has them (they are removed and asked
 * for again), so a changed address can never carry the key or a signature to a new server.
 */
export function credentialOrigin(baseUrl: string): string | null {
  try {
    const u = new URL(baseUrl.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** The base-address rules shared by the profile form and the main process's schema. */
export function checkBaseUrl(raw: string): BaseUrlCheck {
  const text = raw.trim();
  // URL() would quietly repair `http:/host` into `http://host/`; an analyst should see what is stored.
  if (!/^https?:\/\//i.test(text)) return { ok: false, message: 'a full http:// or https:// address' };
  // URL() percent-encodes a space in the path and refuses it in the host; either way it is a typo.
  if (/\s/.test(text)) return { ok: false, message: 'the address must not contain spaces' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'a full http:// or https:// address, such as https://api.example.com/' };
  }
  if (url.hostname === '') return { ok: false, message: 'a full http:// or https:// address' };
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      message:
        'use https:// — plain http:// would send the API key unencrypted; it is allowed only to this computer (localhost, 127.0.0.1)',
    };
  }
  // profiles.json is a plain file: a password in the address would sit there in clear text.
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      message: 'leave out the user name and password: the API key and secret go in the keychain instead',
    };
  }
  // The client drops these, so a stored one would silently mean nothing.
  if (url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')) {
    return { ok: false, message: 'the address must not contain ? or #' };
  }
  if (OPERATION_PREFIX !== '') {
    const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    const at = path.toLowerCase().indexOf(`/${OPERATION_PREFIX.toLowerCase()}`);
    if (at >= 0) {
      const suggestion = `${url.origin}${path.slice(0, at + 1)}`;
      return {
        ok: false,
        message: `leave out /${OPERATION_PREFIX.slice(0, -1)}: Portolan adds it to every request (use ${suggestion})`,
      };
    }
  }
  return { ok: true, url };
}

/** Names are compared as an analyst reads them: case, surrounding and repeated spaces do not count. */
export function profileNameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export const DUPLICATE_NAME_MESSAGE = 'another profile already has this name';

/** True when `name` is taken by a profile other than `selfId`. */
export function isProfileNameTaken(
  name: string,
  profiles: readonly { id: string; name: string }[],
  selfId?: string,
): boolean {
  const key = profileNameKey(name);
  return profiles.some((p) => p.id !== selfId && profileNameKey(p.name) === key);
}

const tooShort = (what: string) =>
  `at least ${MIN_CREDENTIAL_LENGTH} characters: paste the whole ${what} from the API tab of your account portal`;

/** The profile fields' schemas: the bridge contract checks them in main, the profile form before sending. */
export const profileFields = {
  name: z
    .string()
    .trim()
    .min(1, { error: 'a name is required' })
    .max(100, { error: 'at most 100 characters' }),
  baseUrl: z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      const checked = checkBaseUrl(s);
      if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message });
    }),
  apiKey: z
    .string()
    .trim()
    .min(1, { error: 'the API key is required', abort: true })
    .min(MIN_CREDENTIAL_LENGTH, { error: tooShort('API key'), abort: true })
    .max(MAX_CREDENTIAL_LENGTH, { error: `at most ${MAX_CREDENTIAL_LENGTH} characters` })
    // It travels as a header value, which cannot hold spaces or non-ASCII characters.
    .regex(/^[\x21-\x7e]+$/, { error: 'an API key has no spaces or accented letters: check the pasted key' }),
  apiSecret: z
    .string()
    .min(1, { error: 'the API secret is required', abort: true })
    .min(MIN_CREDENTIAL_LENGTH, { error: tooShort('API secret'), abort: true })
    .max(MAX_CREDENTIAL_LENGTH, { error: `at most ${MAX_CREDENTIAL_LENGTH} characters` }),
};
