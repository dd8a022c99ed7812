import { setTimeout as delay } from 'node:timers/promises';
import {
  OPERATIONS,
  checkRequest,
  parseResponse,
  type BodyOperationName,
  type FirmCountRequest,
  type FirmCountResponse,
  type FirmSearchRequest,
  type FirmSearchResponse,
  type OperationName,
  type Responses,
  type ShipmentCountRequest,
  type ShipmentCountResponse,
  type ShipmentSearchRequest,
  type ShipmentSearchResponse,
  type SpecIssue,
  type UsageSummary,
} from '@shared/spec';
import { isLoopbackHost } from '@shared/profiles/profile-rules';
import type { ServiceReach } from '@shared/profiles/profiles-contract';
import { nullLogger, type Logger, registerSecret } from '../log';
import {
  type ServiceClientError,
  authRejectedError,
  badResponseError,
  cancelledError,
  hsCodesOverrunError,
  invalidRequestError,
  limitExceededError,
  networkError,
  type LimitRefusal,
  serviceError,
  type NetworkReason,
  type PaidDownloads,
} from './errors';
import { AsciiJsonReader } from './ascii-json';
import { sign } from './sign';
import type { UsageLedger } from './usage-ledger';

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

export interface RetryOptions {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts?: number;
  /** Backoff cap for the first retry; doubles per retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Longest wait between attempts. Default 15 s. A Retry-After longer than this is not waited out. */
  maxDelayMs?: number;
}

export interface ClientOptions {
  /** With or without a trailing slash; may carry a base path (`https://host/x/`). */
  baseUrl: string;
  /** Kept in this module's closure; never in an error message or a log line. */
  credentials: Credentials;
  /** Per attempt, covering connect, wait and reading the body. Default 60 s. */
  timeoutMs?: number;
  retry?: RetryOptions;
  logger?: Logger;
  userAgent?: string;
  /**
   * After every attempt, before any retry's pause: whether the service answered (any HTTP status but
   * those below), its gateway answered that it is unavailable (502/503/504, the statuses retried), or
   * no answer came (refused, reset, unreachable, timed out). A cancelled attempt says nothing either way.
   */
  onReach?: (reach: ServiceReach, error?: ServiceClientError) => void;
  /**
   * Whether this service has answered before (since the app started): then a refused connection
   * means it went down, not that its address is wrong, and the message says so.
   */
  answeredBefore?: () => boolean;
  /**
   * What the profile has spent: told of every request the service answered (and of refusals it did not
   * foresee), and asked first by `usage()`, which reaches the service at most once a minute.
   */
  usageLedger?: UsageLedger;
}

export interface RetryInfo {
  /** The attempt that just failed (1-based); the next one is `attempt + 1`. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  error: ServiceClientError;
  maxAttempts: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Attempts of this call, when fewer than the client's (a job pacing its own askings asks once). */
  maxAttempts?: number;
  onRetry?: (info: RetryInfo) => void;
  /** usage(): read the service's figures even when the ledger's are less than a minute old. */
  fresh?: boolean;
  /**
   * Hears a 2xx answer's JSON as bytes once the whole body has come, before it is parsed (the library
   * starts storing a search's answer from them while this thread parses it): the very text the client
   * parses, every character beyond ASCII written as its `\uXXXX` escape (the same values), or, where it
   * cannot be written so, the body's own bytes. The bytes are the client's: read them during the call
   * and keep no reference. What it does, or throws, never changes the outcome.
   */
  onBody?: (bytes: Uint8Array) => void;
  /**
   * Hears the start of a 2xx answer's body while the rest still arrives (the window's first rows are
   * read from it): called with the first `START_BYTES` or more once they have come, and, unless it
   * returned true then, with the whole body once it has come (`whole`). The bytes are the client's:
   * read them during the call and keep no reference. What it does, or throws, never changes the outcome.
   */
  onStart?: (bytes: Uint8Array, whole: boolean) => boolean;
}

/** Bytes of an answer's start `onStart` hears first: the first 200 records of a search with room to spare. */
export const START_BYTES = 1 << 20;

export interface ServiceClient {
  shipmentSearch(req: ShipmentSearchRequest, opts?: CallOptions): Promise<ShipmentSearchResponse>;
  shipmentCount(req: ShipmentCountRequest, opts?: CallOptions): Promise<ShipmentCountResponse>;
  firmSearch(req: FirmSearchRequest, opts?: CallOptions): Promise<FirmSearchResponse>;
  firmCount(req: FirmCountRequest, opts?: CallOptions): Promise<FirmCountResponse>;
  usage(opts?: CallOptions): Promise<UsageSummary>;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_USER_AGENT = 'Portolan/0.1';
/** Statuses worth another try: the gateway or the service is briefly unavailable. */
const RETRYABLE_STATUS = new Set([502, 503, 504]);

/** What a failed attempt found of the service, for `onReach`. */
function reachOf(error: ServiceClientError): ServiceReach {
  if (error.kind === 'NetworkError') return 'no-answer';
  const unavailable =
    error.kind === 'ServiceError' && error.status !== undefined && RETRYABLE_STATUS.has(error.status);
  return unavailable ? 'unavailable' : 'answered';
}

/** A listener's answer, or false when it throws: whoever is asked must not change the call's outcome. */
function safely(ask: () => boolean): boolean {
  try {
    return ask();
  } catch {
    return false;
  }
}

/** The downloads a served (2xx) answer of this operation is counted against, whether or not it can be read. */
function paidFor(op: OperationName, status: number): PaidDownloads | undefined {
  if (status < 200 || status > 299) return undefined;
  return op === 'shipmentSearch' ? 'shipments' : op === 'firmSearch' ? 'firms' : undefined;
}
/** Decodes a body as `Response.text()` does: UTF-8, a byte-order mark dropped, a bad sequence U+FFFD. */
const bodyDecoder = new TextDecoder('utf-8');

/** `onStart`'s answer, or true when it throws (it is not asked again). */
function hearStart(onStart: NonNullable<CallOptions['onStart']>, bytes: Uint8Array, whole: boolean): boolean {
  try {
    return onStart(bytes, whole);
  } catch {
    return true;
  }
}

/**
 * A response's body as text: a 2xx answer's JSON one-byte where it can be (`AsciiJsonReader`: cheaper
 * to make and to parse), written while the body arrives; anything else as `Response.text()` reads it.
 * The start of a 2xx answer is heard by `onStart` as soon as it has come (a search's 25.7 MB answer
 * takes a few hundred milliseconds to arrive), and the text's bytes by `onBody` before the parse. The
 * chunks and the bytes are dropped here, before the parse: a 48 MB body kept alive through JSON.parse
 * cost the parse extra collections.
 */
async function bodyText(res: Response, hooks: Pick<CallOptions, 'onBody' | 'onStart'>): Promise<string> {
  if (!res.ok || !res.body) return bodyDecoder.decode(await res.arrayBuffer());
  const { onBody, onStart } = hooks;
  const reader = new AsciiJsonReader(Number(res.headers.get('content-length')) || 0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  let asked = false;
  let heard = false;
  for await (const chunk of res.body) {
    chunks.push(chunk);
    length += chunk.byteLength;
    reader.push(chunk);
    if (onStart && !asked && length >= START_BYTES) {
      asked = true;
      heard = hearStart(onStart, Buffer.concat(chunks, length), false);
    }
  }
  const ascii = reader.end();
  let body: Uint8Array | null = null;
  const whole = (): Uint8Array => (body ??= Buffer.concat(chunks, length));
  if (onStart && !heard) hearStart(onStart, whole(), true);
  const text = ascii?.text ?? bodyDecoder.decode(whole());
  // Heard once the text is made, not before: what a listener starts (DuckDB storing the answer, on its
  // own thread) then shares the machine with the parse only. Beside the decoding as well, on 2 cores, it
  // slowed both, and the answer's first rows came later; the store ends a little later this way.
  if (onBody) {
    try {
      onBody(ascii?.bytes ?? whole());
    } catch {
      // Whoever listens must not change the outcome of the call.
    }
  }
  return text;
}

/** Normalises the base address so relative operation paths land under its path. */
export function parseBaseUrl(raw: string): { ok: true; url: URL } | { ok: false; issue: SpecIssue } {
  let url: URL;
  try {
    url = new URL(String(raw).trim());
  } catch {
    return { ok: false, issue: { path: 'baseUrl', message: 'must be a full address such as https://host/' } };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, issue: { path: 'baseUrl', message: 'must start with http:// or https://' } };
  }
  if (url.username || url.password) {
    return { ok: false, issue: { path: 'baseUrl', message: 'must not contain a user name or password' } };
  }
  // The key and the signature travel in headers: over plain http only to this computer.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      issue: { path: 'baseUrl', message: 'must use https:// (http:// only to this computer)' },
    };
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return { ok: true, url };
}

/** Limits that free up within a minute by themselves: a 429 over one of these is worth retrying. */
const RATE_WINDOW_METRICS: ReadonlySet<string> = new Set(['minutelyRequest']);

/**
 * Reads a 429 body (`{ error: 'limit_exceeded', metric, message }`, docs/simulator.md) and the
 * account the request named. The service sends Retry-After only for its request-rate windows, so a
 * refusal naming any other metric, or a `limit_exceeded` without Retry-After, is a used-up quota.
 * A body that says nothing (`{}`, HTML from a gateway) is taken for a rate limit, as before.
 */
export function readLimitRefusal(
  body: string,
  payload: Buffer | undefined,
  retryAfterSeconds: number | undefined,
): LimitRefusal {
  const out: LimitRefusal = {};
  let error: string | undefined;
  try {
    const json: unknown = JSON.parse(body);
    if (json && typeof json === 'object') {
      const o = json as { error?: unknown; metric?: unknown; message?: unknown };
      if (typeof o.error === 'string') error = o.error;
      if (typeof o.metric === 'string' && o.metric.trim()) out.metric = o.metric.trim().slice(0, 100);
      if (typeof o.message === 'string' && o.message.trim()) out.detail = o.message;
    }
  } catch {
    // Not JSON: nothing more to learn than the status and the header.
  }
  try {
    const req: unknown = payload ? JSON.parse(payload.toString('utf8')) : undefined;
    const account =
      req && typeof req === 'object' ? (req as { account_name?: unknown }).account_name : undefined;
    if (typeof account === 'string' && account.trim()) out.account = account.trim();
  } catch {
    // The payload is our own JSON; unreadable would be a bug elsewhere, and the name is optional.
  }
  if (retryAfterSeconds === undefined) {
    const quotaMetric = out.metric !== undefined && !RATE_WINDOW_METRICS.has(out.metric);
    const quotaError = error === 'limit_exceeded' && out.metric === undefined;
    if (quotaMetric || quotaError) out.exhausted = true;
  }
  return out;
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP-date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  // Date.parse accepts bare numbers like "-5" or "5.5" as dates; an HTTP-date always names a month.
  if (!/[A-Za-z]{3}/.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function checkCredentials(c: Credentials | undefined): SpecIssue[] {
  const issues: SpecIssue[] = [];
  // A header value must be visible ASCII; anything else would fail inside fetch with a vaguer error.
  if (!c || typeof c.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(c.apiKey)) {
    issues.push({
      path: 'credentials.apiKey',
      message: 'must be the API key from the account portal (no spaces)',
    });
  }
  if (!c || typeof c.apiSecret !== 'string' || c.apiSecret.length === 0) {
    issues.push({ path: 'credentials.apiSecret', message: 'must be the API secret from the account portal' });
  }
  return issues;
}

function networkReason(e: unknown): NetworkReason {
  const seen = new Set<unknown>();
  let cur: unknown = e;
  // undici wraps the socket error as `cause`, sometimes twice.
  while (cur && typeof cur === 'object' && !seen.has(cur)) {
    seen.add(cur);
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code === 'ECONNREFUSED') return 'refused';
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
      if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH' || code === 'UND_ERR_CONNECT_TIMEOUT')
        return 'unreachable';
      if (
        code === 'ECONNRESET' ||
        code === 'EPIPE' ||
        code === 'UND_ERR_SOCKET' ||
        code === 'UND_ERR_CLOSED'
      ) {
        return 'reset';
      }
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return 'other';
}

/** A wait between attempts that ends early, with the client's Cancelled error, when the signal aborts. */
async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await delay(ms, undefined, signal ? { signal } : undefined);
  } catch (e) {
    if (signal?.aborted) throw cancelledError();
    throw e;
  }
}

type AttemptOutcome<T> =
  { ok: true; value: T } | { ok: false; error: ServiceClientError; retryable: boolean; minDelayMs: number };

export function createServiceClient(options: ClientOptions): ServiceClient {
  // Copied into the closure: later changes to the caller's object do not reach in-flight requests.
  const apiKey = options.credentials?.apiKey;
  const apiSecret = options.credentials?.apiSecret;
  const credentialIssues = checkCredentials(options.credentials);
  /**
   * The pair is on the scrub list only while a call is in flight: that is when errors and log lines
   * about it are made. Registering per client for good would keep every secret ever used (a deleted
   * profile's, a replaced one) masked until restart; the profile's owner registers it for as long as
   * the profile holds it.
   */
  const whileRegistered = <T>(run: () => Promise<T>): Promise<T> => {
    const releaseSecret = typeof apiSecret === 'string' ? registerSecret(apiSecret) : () => undefined;
    const releaseKey = typeof apiKey === 'string' ? registerSecret(apiKey, { keepLast: 4 }) : () => undefined;
    const release = (): void => {
      releaseSecret();
      releaseKey();
    };
    return run().finally(release);
  };

  const base = parseBaseUrl(options.baseUrl);
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxAttempts = Math.max(1, Math.floor(options.retry?.maxAttempts ?? 4));
  const baseDelayMs = Math.max(0, options.retry?.baseDelayMs ?? 500);
  const maxDelayMs = Math.max(0, options.retry?.maxDelayMs ?? 15_000);
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const log = (options.logger ?? nullLogger).child('api');

  /** Full jitter: uniform in [0, min(cap, base·2^(n-1))], so clients that failed together spread out. */
  const backoff = (failedAttempt: number): number =>
    Math.round(Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (failedAttempt - 1)));

  async function attempt<K extends OperationName>(
    op: K,
    url: URL,
    payload: Buffer | undefined,
    attemptNo: number,
    signal: AbortSignal | undefined,
    hooks: Pick<CallOptions, 'onBody' | 'onStart'>,
  ): Promise<AttemptOutcome<Responses[K]>> {
    const { method } = OPERATIONS[op];
    const headers: Record<string, string> = {
      'X-API-KEY': apiKey,
      // Recomputed per request, as the spec asks, over exactly the bytes below.
      'X-SIGNATURE': sign(payload ?? '', apiSecret),
      Accept: 'application/json',
      'User-Agent': userAgent,
    };
    if (payload) headers['Content-Type'] = 'application/json';

    const ctrl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, timeoutMs);
    const onAbort = (): void => ctrl.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const started = performance.now();
    const logFields = { op, method, path: url.pathname, attempt: attemptNo };
    const ms = (): number => Math.round(performance.now() - started);
    const failNoResponse = (e: unknown): AttemptOutcome<Responses[K]> => {
      if (signal?.aborted) return { ok: false, error: cancelledError(), retryable: false, minDelayMs: 0 };
      // Our own timeout is not retried: a slow answer is more likely a heavy query than a blip,
      // and asking again would only wait as long again.
      const reason: NetworkReason = timedOut ? 'timeout' : networkReason(e);
      const error = networkError(reason, url.host, {
        timeoutMs,
        answeredBefore: safely(() => options.answeredBefore?.() ?? false),
      });
      log.warn('request failed', { ...logFields, ms: ms(), kind: error.kind, reason });
      return { ok: false, error, retryable: !timedOut, minDelayMs: 0 };
    };

    try {
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers,
          ...(payload ? { body: payload } : {}),
          signal: ctrl.signal,
          // Following a redirect would hand the key and signature to wherever it points.
          redirect: 'manual',
        });
      } catch (e) {
        return failNoResponse(e);
      }

      let text: string;
      try {
        text = await bodyText(res, hooks);
      } catch (e) {
        if (signal?.aborted || timedOut) return failNoResponse(e);
        log.warn('response cut off', { ...logFields, status: res.status, ms: ms() });
        return {
          ok: false,
          error: badResponseError(
            'response',
            'the connection closed before the whole body arrived',
            res.status,
            paidFor(op, res.status),
            true,
          ),
          retryable: false,
          minDelayMs: 0,
        };
      }
      const status = res.status;
      log.info('request', { ...logFields, status, ms: ms() });

      if (status === 401) return { ok: false, error: authRejectedError(), retryable: false, minDelayMs: 0 };
      if (status === 429) {
        const retryAfterSeconds = parseRetryAfter(res.headers.get('retry-after'));
        const waitMs = (retryAfterSeconds ?? 0) * 1000;
        const refusal = readLimitRefusal(text, payload, retryAfterSeconds);
        // A wait longer than the backoff cap is the user's call, not a silent stall. A used-up quota
        // (no Retry-After) is never retried: it does not come back by waiting, so each retry would only
        // spend a request of the daily and per-minute allowance and delay the answer.
        return {
          ok: false,
          error: limitExceededError(retryAfterSeconds, refusal),
          retryable: !refusal.exhausted && waitMs <= maxDelayMs,
          minDelayMs: waitMs,
        };
      }
      if (status < 200 || status > 299) {
        return {
          ok: false,
          error: serviceError(status, text, attemptNo),
          retryable: RETRYABLE_STATUS.has(status),
          minDelayMs: 0,
        };
      }

      if (text.trim() === '') {
        return {
          ok: false,
          error: badResponseError('response', 'the body is empty', status, paidFor(op, status)),
          retryable: false,
          minDelayMs: 0,
        };
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (e) {
        const cutOff =
          e instanceof SyntaxError && /end of (JSON )?(data|input)|Unterminated/i.test(e.message);
        const problem = cutOff ? 'the JSON ends early (truncated)' : 'the body is not JSON';
        return {
          ok: false,
          error: badResponseError('response', problem, status, paidFor(op, status), cutOff),
          retryable: false,
          minDelayMs: 0,
        };
      }
      const parsed = parseResponse(op, json);
      if (!parsed.ok) {
        log.warn('unexpected response shape', { ...logFields, problemPath: parsed.issue.path });
        return {
          ok: false,
          error: badResponseError(parsed.issue.path, parsed.issue.message, status, paidFor(op, status)),
          retryable: false,
          minDelayMs: 0,
        };
      }
      return { ok: true, value: parsed.value };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  function reach(outcome: AttemptOutcome<unknown>): void {
    if (!options.onReach) return;
    if (!outcome.ok && outcome.error.kind === 'Cancelled') return;
    try {
      if (outcome.ok) options.onReach('answered');
      else options.onReach(reachOf(outcome.error), outcome.error);
    } catch {
      // Whoever listens must not change the outcome of the call.
    }
  }

  async function call<K extends OperationName>(
    op: K,
    body: unknown,
    opts: CallOptions = {},
  ): Promise<Responses[K]> {
    const { signal, onRetry, onBody, onStart } = opts;
    const attempts = Math.max(1, Math.min(maxAttempts, Math.floor(opts.maxAttempts ?? maxAttempts)));
    if (signal?.aborted) throw cancelledError();
    if (!base.ok || credentialIssues.length > 0) {
      throw invalidRequestError([...(base.ok ? [] : [base.issue]), ...credentialIssues]);
    }

    let payload: Buffer | undefined;
    let request: unknown;
    if (op !== 'usage') {
      const checked = checkRequest(op as BodyOperationName, body);
      if (!checked.ok) throw invalidRequestError(checked.issues, body);
      request = checked.value;
      // The service refuses a request naming more new HS codes than the account may still add, whole:
      // said before it is sent (firm pages, counts, fetch jobs and watches included, not only the
      // Search page, which warns at its Run button).
      const overrun = options.usageLedger?.hsCodeOverrun(request);
      if (overrun) throw hsCodesOverrunError(overrun);
      // Serialised once; these exact bytes are signed and sent on every attempt.
      payload = Buffer.from(JSON.stringify(checked.value), 'utf8');
    }
    const url = new URL(OPERATIONS[op].path, base.url);

    for (let n = 1; ; n++) {
      const outcome = await attempt(op, url, payload, n, signal, { onBody, onStart });
      reach(outcome);
      account(op, request, outcome);
      if (outcome.ok) return outcome.value;
      const { error } = outcome;
      if (!outcome.retryable || n >= attempts) {
        error.attempts = n;
        throw error;
      }
      const delayMs = Math.max(outcome.minDelayMs, backoff(n));
      log.info('retrying', { op, attempt: n, delayMs, kind: error.kind, status: error.status });
      try {
        onRetry?.({ attempt: n, delayMs, error, maxAttempts: attempts });
      } catch {
        // A faulty progress callback must not change the outcome of the call.
      }
      await sleep(delayMs, signal);
    }
  }

  /**
   * Tells the ledger what the service counted: every 200 (an unreadable one too: it was served), and a
   * refusal over a quota (its figures did not foresee it). Never changes the call's outcome.
   */
  function account<K extends OperationName>(
    op: K,
    request: unknown,
    outcome: AttemptOutcome<Responses[K]>,
  ): void {
    const ledger = options.usageLedger;
    if (!ledger) return;
    try {
      if (outcome.ok) ledger.answered({ op, request, response: outcome.value });
      else if (outcome.error.kind === 'BadResponse' && outcome.error.status === 200)
        ledger.answered({ op, request, response: null });
      else if (outcome.error.kind === 'LimitExceeded' && outcome.error.metric !== undefined) ledger.refused();
    } catch (e) {
      log.warn('usage not accounted', { op, error: e instanceof Error ? e.message : String(e) });
    }
  }

  const readUsage = (opts: CallOptions = {}): Promise<UsageSummary> => {
    const ledger = options.usageLedger;
    const { fresh, ...rest } = opts;
    if (!ledger) return call('usage', undefined, rest);
    return ledger.read(() => call('usage', undefined, rest), fresh ? { fresh } : {});
  };

  return {
    shipmentSearch: (req, opts) => whileRegistered(() => call('shipmentSearch', req, opts)),
    shipmentCount: (req, opts) => whileRegistered(() => call('shipmentCount', req, opts)),
    firmSearch: (req, opts) => whileRegistered(() => call('firmSearch', req, opts)),
    firmCount: (req, opts) => whileRegistered(() => call('firmCount', req, opts)),
    usage: (opts) => whileRegistered(() => readUsage(opts)),
  };
}
