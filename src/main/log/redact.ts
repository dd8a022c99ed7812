/**
 * Process-wide scrubbing of secrets from any text that may leave memory (log lines, error messages,
 * response excerpts). Registered values are removed wherever they occur; header-shaped and
 * signature-shaped values are removed by pattern even when nobody registered them.
 */

import { MIN_CREDENTIAL_LENGTH } from '@shared/profiles/profile-rules';

const MASK = '[REDACTED]';

/**
 * Shorter values are not scrubbed: a one-letter "secret" occurs inside every word, so masking it
 * would garble all text and show by where the masks land which letters it holds. The contract refuses
 * credentials this short, so no real key or secret falls below it.
 */
export const MIN_REDACTABLE_LENGTH = MIN_CREDENTIAL_LENGTH;

interface Registration {
  count: number;
  /** Characters kept at the end (API keys keep their last 4 so a person can tell keys apart). */
  keepLast: number;
}

const registered = new Map<string, Registration>();
/** The forms to search for, longest first so a secret that contains another is removed whole. */
let needles: { needle: string; replacement: string }[] = [];

function maskKeepingLast(value: string, keepLast: number): string {
  // A short value would be given away by its tail, so it is masked whole.
  if (keepLast <= 0 || value.length < keepLast * 2) return MASK;
  return `…${value.slice(-keepLast)}`;
}

function rebuildNeedles(): void {
  const out: { needle: string; replacement: string }[] = [];
  for (const [value, reg] of registered) {
    const replacement = maskKeepingLast(value, reg.keepLast);
    // A secret can reach a line already escaped by JSON.stringify or percent-encoded in a URL.
    const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
    for (const needle of forms) if (needle.length > 0) out.push({ needle, replacement });
  }
  out.sort((a, b) => b.needle.length - a.needle.length);
  needles = out;
}

export interface RegisterOptions {
  /** Keep this many trailing characters visible (for API keys); default 0: mask whole. */
  keepLast?: number;
}

/**
 * Adds a value to the process-wide scrub list until the returned function is called. Registering the
 * same value twice needs two unregisters, so independent owners (two clients on one profile) cannot
 * un-protect each other's secret.
 */
export function registerSecret(value: string, opts: RegisterOptions = {}): () => void {
  if (typeof value !== 'string' || value.length < MIN_REDACTABLE_LENGTH) return () => undefined;
  const keepLast = Math.max(0, Math.floor(opts.keepLast ?? 0));
  const existing = registered.get(value);
  if (existing) {
    existing.count += 1;
    // The stricter masking wins when owners disagree.
    existing.keepLast = Math.min(existing.keepLast, keepLast);
  } else {
    registered.set(value, { count: 1, keepLast });
  }
  rebuildNeedles();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const reg = registered.get(value);
    if (!reg) return;
    reg.count -= 1;
    if (reg.count <= 0) registered.delete(value);
    rebuildNeedles();
  };
}

// Name, then an optional closing quote, separator and opening quote, then the value.
const SIGNATURE_FIELD = /((?:x[-_])?signature\\?["']?\s*[:=]\s*\\?["']?)([^\s"'\\,;&}\]]+)/gi;
const API_KEY_FIELD = /((?:x[-_])?api[-_]?key\\?["']?\s*[:=]\s*\\?["']?)([^\s"'\\,;&}\]]+)/gi;
const SECRET_FIELD = /((?:api[-_]?)?secret\\?["']?\s*[:=]\s*\\?["']?)([^\s"'\\,;&}\]]+)/gi;
/** Base64 of a 32-byte digest: 43 alphabet characters and one '=' of padding, standing alone. */
const HMAC_SHA256_BASE64 = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{43}=(?![A-Za-z0-9+/=_-])/g;

/** Letters, digits and `_` glue characters into one token; `%` keeps a percent-escape with its token. */
const TOKEN_CHAR = /[\p{L}\p{N}\p{M}_%]/u;
/** What follows a backslash in JSON text as one escape (`\n`, `\u00e9`). */
const JSON_ESCAPE = /^(?:u[0-9a-fA-F]{4}|[nrtbf])/;

/**
 * The whole token around text[start, end). A secret glued to other characters (`key+secret`, a word)
 * is masked together with them, so a mask never lands inside a word and neither the secret's edges
 * nor its neighbours are left to read.
 */
function tokenAround(text: string, start: number, end: number): [number, number] {
  let s = start;
  while (s > 0 && TOKEN_CHAR.test(text[s - 1] ?? '')) s -= 1;
  // Log lines are JSON: `\nabc` must keep its `\n`, or the line would no longer parse.
  if (s > 0 && s < start && text[s - 1] === '\\') {
    const escape = JSON_ESCAPE.exec(text.slice(s, start));
    if (escape) s += escape[0].length;
  }
  let e = end;
  while (e < text.length && TOKEN_CHAR.test(text[e] ?? '')) e += 1;
  return [s, e];
}

/** Removes registered secrets, signatures, API keys (keeping their last 4) and HMAC-shaped values. */
export function redact(text: string): string {
  let out = String(text);
  for (const { needle, replacement } of needles) {
    let from = 0;
    for (let at = out.indexOf(needle, from); at >= 0; at = out.indexOf(needle, from)) {
      const [s, e] = tokenAround(out, at, at + needle.length);
      // A key's kept tail only makes sense when the token is the key itself.
      const mask = s === at && e === at + needle.length ? replacement : MASK;
      out = `${out.slice(0, s)}${mask}${out.slice(e)}`;
      from = s + mask.length;
    }
  }
  out = out.replace(SIGNATURE_FIELD, (_m, name: string) => `${name}${MASK}`);
  out = out.replace(SECRET_FIELD, (_m, name: string) => `${name}${MASK}`);
  out = out.replace(API_KEY_FIELD, (_m, name: string, value: string) =>
    value === MASK || value.startsWith('…') ? `${name}${value}` : `${name}${maskKeepingLast(value, 4)}`,
  );
  out = out.replace(HMAC_SHA256_BASE64, MASK);
  return out;
}

/** Key names whose values are never worth logging, whatever they hold. */
const SECRET_KEY = /secret|signature|password|passphrase|authorization|token|credential/i;
const API_KEY_KEY = /^(?:x[-_])?api[-_]?key$/i;

/** Structural pass for log fields, before the text pass: masks values by the name of their key. */
export function redactFieldValue(key: string, value: unknown): unknown {
  if (SECRET_KEY.test(key)) return value === undefined ? undefined : MASK;
  if (API_KEY_KEY.test(key) && typeof value === 'string') return maskKeepingLast(value, 4);
  return value;
}

export const REDACTED = MASK;
