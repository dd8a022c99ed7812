import { AppError, waitSentence, type BridgeError, type ErrorKind } from '@shared/ipc/errors';
import { describeFieldIssues, metricLabel, type SpecIssue } from '@shared/spec';
import { redact } from '../log';

/** The kinds the service client produces; a subset of the bridge's ErrorKind. */
export type ServiceErrorKind = Extract<
  ErrorKind,
  | 'InvalidRequest'
  | 'AuthRejected'
  | 'LimitExceeded'
  | 'ServiceError'
  | 'NetworkError'
  | 'BadResponse'
  | 'Cancelled'
>;

/** Why no response arrived, for NetworkError. */
export type NetworkReason = 'timeout' | 'refused' | 'reset' | 'dns' | 'unreachable' | 'other';

export interface ServiceClientErrorDetails {
  status?: number;
  retryAfterSeconds?: number;
  issues?: SpecIssue[];
  /** NetworkError: what went wrong on the wire. */
  reason?: NetworkReason;
  /** BadResponse: where in the body the problem is (`response.shipments[3].hsCode`). */
  path?: string;
  /** Attempts made before giving up. */
  attempts?: number;
  /** LimitExceeded: the usage metric the service named in its 429 body (`shipments/search`, …). */
  metric?: string;
  /** LimitExceeded: true when waiting cannot help (a quota that does not reset soon, no Retry-After). */
  exhausted?: boolean;
  /**
   * BadResponse: the answer stopped before its end (the connection closed mid-body, or its JSON ends
   * short): a blip on the way, not a service that changed, so asking again is likely to get it whole.
   */
  cutOff?: boolean;
}

/**
 * Every failure of the service client: an `AppError` of one of the client's kinds, with the details only
 * the client knows (why the network failed, where a response broke the spec, which quota ran out).
 * `message` is written for a person and says what to do; it is redacted on construction, so neither the
 * secret nor a signature can leave through it.
 */
export class ServiceClientError extends AppError {
  declare readonly kind: ServiceErrorKind;
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  readonly issues?: SpecIssue[];
  readonly reason?: NetworkReason;
  readonly path?: string;
  readonly metric?: string;
  readonly exhausted?: boolean;
  readonly cutOff?: boolean;
  attempts?: number;

  constructor(kind: ServiceErrorKind, message: string, details: ServiceClientErrorDetails = {}) {
    // What crosses the bridge (AppError's details): the status, the wait and the field problems.
    super(kind, redact(message), {
      ...(details.status !== undefined ? { status: details.status } : {}),
      ...(details.retryAfterSeconds !== undefined ? { retryAfterSeconds: details.retryAfterSeconds } : {}),
      ...(details.issues !== undefined ? { issues: details.issues } : {}),
    });
    this.name = 'ServiceClientError';
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
    if (details.issues !== undefined) this.issues = details.issues;
    if (details.reason !== undefined) this.reason = details.reason;
    if (details.path !== undefined) this.path = details.path;
    if (details.attempts !== undefined) this.attempts = details.attempts;
    if (details.metric !== undefined) this.metric = details.metric;
    if (details.exhausted !== undefined) this.exhausted = details.exhausted;
    if (details.cutOff !== undefined) this.cutOff = details.cutOff;
  }
}

export function isServiceClientError(e: unknown): e is ServiceClientError {
  return e instanceof ServiceClientError;
}

// ---- Message builders: one place for the wording the user sees ----

/** `request`: what was refused, whose list entries at fault the message names. */
export function invalidRequestError(issues: SpecIssue[], request?: unknown): ServiceClientError {
  return new ServiceClientError(
    'InvalidRequest',
    `The request breaks the service's rules, so it was not sent: ${describeFieldIssues(issues, request)}. Correct these fields and try again.`,
    { issues },
  );
}

export function authRejectedError(): ServiceClientError {
  return new ServiceClientError(
    'AuthRejected',
    'The service rejected the API key or signature (401). Check the key and secret in Settings → Connection profiles.',
    { status: 401 },
  );
}

/** What a 429 body said, as far as it could be read (the simulator's `limit_exceeded` shape). */
export interface LimitRefusal {
  /** The usage metric the service named, e.g. `shipments/search` or `minutelyRequest`. */
  metric?: string;
  /** The account charged: the request's `account_name`, when it named one. */
  account?: string;
  /** The service's own words, e.g. "shipments/search: 2979 used of 3000; this request needs 10000 more". */
  detail?: string;
  /** Waiting cannot help: a download/count quota or HS-code allowance, not a request-rate window. */
  exhausted?: boolean;
}

/**
 * What to do when a metric's limit is reached, for the analyst: the remedy that fits the metric. The
 * request windows pass by themselves (the wait, when the service gives one, is added); the download,
 * count and HS-code allowances do not (docs/simulator.md: they never reset).
 */
const REMEDIES: Record<string, { remedy: string; resets: 'minute' | 'day' | 'never' }> = {
  'shipments/search': {
    remedy:
      'Too few shipment downloads are left for this request: ask for fewer records (a smaller Size or a narrower filter), or have the limit raised; the Usage page shows what is left.',
    resets: 'never',
  },
  'firms/search': {
    remedy:
      'Too few firm downloads are left for this page: narrow the filter so fewer firms match, or have the limit raised; the Usage page shows what is left.',
    resets: 'never',
  },
  'shipments/count': {
    remedy: 'The account may count no more shipments: have the limit raised.',
    resets: 'never',
  },
  'firms/count': { remedy: 'The account may count no more firms: have the limit raised.', resets: 'never' },
  searchedHsCodes: {
    remedy:
      'This request names HS codes the account has not searched before, and it may search no more new ones: search only HS codes it has searched already (the Usage page lists them), or have the limit raised.',
    resets: 'never',
  },
  dailyRequest: {
    remedy:
      'The account has made all the requests it may make today: try again tomorrow, when the daily count starts again.',
    resets: 'day',
  },
  minutelyRequest: {
    remedy: 'The account has made all the requests it may make in one minute.',
    resets: 'minute',
  },
};

/** A request that names more new HS codes than its account may still add, refused before it is sent. */
export function hsCodesOverrunError(o: {
  account: string;
  fresh: readonly string[];
  left: number;
  limit: number;
}): ServiceClientError {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const many = o.fresh.length !== 1;
  return new ServiceClientError(
    'LimitExceeded',
    `Not sent: HS code${many ? 's' : ''} ${o.fresh.join(', ')} ${many ? 'are' : 'is'} new to account ${o.account}, which may search ${fmt(o.limit)} distinct HS code${o.limit === 1 ? '' : 's'} and has ${o.left === 0 ? 'none' : fmt(o.left)} left, so the service would refuse this request. ` +
      `Remove ${fmt(o.fresh.length - o.left)} of the new codes, or use HS codes already searched (the Usage page lists them), or have the limit raised. Nothing was sent or counted.`,
    { metric: 'searchedHsCodes', exhausted: true },
  );
}

export function limitExceededError(
  retryAfterSeconds: number | undefined,
  refusal: LimitRefusal = {},
): ServiceClientError {
  const { metric, account, detail, exhausted } = refusal;
  const known = metric ? REMEDIES[metric] : undefined;
  // A refusal that names no metric is not about downloads in particular: a wait means a request window.
  const what = `${metric ? metricLabel(metric) : exhausted ? 'Usage' : 'Request'} limit reached${account ? ` for account ${account}` : ''} (429)`;
  // The service's own words name metrics and fields as the service does: kept only for a metric the app
  // has no words of its own for.
  const said = detail && !known ? ` The service said: ${bodyExcerpt(detail)}.` : '';
  const wait = retryAfterSeconds === undefined ? '' : ` ${waitSentence(retryAfterSeconds)}`;
  let when: string;
  if (known?.resets === 'never') {
    when = ` ${known.remedy}${exhausted || !wait ? ' Waiting will not help: this limit does not reset by itself.' : wait}`;
  } else if (known?.resets === 'minute') {
    when = ` ${known.remedy}${wait || ' Wait a minute and try again.'}`;
  } else if (known?.resets === 'day') {
    when = ` ${known.remedy}${wait}`;
  } else if (exhausted) {
    when =
      " Waiting will not help: this limit does not reset by itself. The Usage page shows which of the account's limits is used up; have it raised.";
  } else {
    when = wait || ' Wait a while and try again; the Usage page shows what is left of your limits.';
  }
  return new ServiceClientError('LimitExceeded', `${what}.${said}${when}`, {
    status: 429,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    ...(metric !== undefined ? { metric } : {}),
    ...(exhausted ? { exhausted } : {}),
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A short, single-line, redacted excerpt of a response body for a message. */
export function bodyExcerpt(body: string, max = 200): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return redact(flat.length > max ? `${flat.slice(0, max)}…` : flat);
}

/**
 * What a refusal's body says, for a person: an error body in JSON gives its message (`message`,
 * `detail`, `error_description`, or an `error` that is words rather than a code), never the JSON
 * itself with its keys and braces; a body that is not JSON is excerpted as it is.
 */
export function bodySaying(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return bodyExcerpt(body);
  }
  const record = (v: unknown): Record<string, unknown> | null =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  const top = record(parsed);
  if (!top) return typeof parsed === 'string' ? bodyExcerpt(parsed) : '';
  // `{"error": {"message": …}}` is as common as a flat body.
  for (const obj of [top, record(top.error)]) {
    if (!obj) continue;
    for (const key of ['message', 'detail', 'error_description', 'error']) {
      const v = obj[key];
      // A code (`service_unavailable`, `E-12`) is the service's name for the case, not words for the analyst.
      if (typeof v === 'string' && v.trim() && !/^[A-Za-z0-9]+([_.-][A-Za-z0-9]+)+$/.test(v.trim()))
        return bodyExcerpt(v);
    }
  }
  return '';
}

export function serviceError(status: number, body: string, attempts: number): ServiceClientError {
  // The analyst reads what happened and what to do first; the status is for whoever they ask for help.
  const code = `status ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ''}${attempts > 1 ? `, after ${attempts} attempts` : ''}`;
  // 404/405: every operation the client sends is in the spec, so the address does not lead to the service.
  const text =
    status >= 500
      ? `The service is having trouble and did not answer (${code}). Try again in a few minutes.`
      : status === 404 || status === 405
        ? `There is no such operation at this address (${code}): check the service address in Settings → Connection profiles (it should be the address the service documents, without /api/v1/).`
        : `The service refused the request (${code}); check the filter values.`;
  const said = bodySaying(body);
  return new ServiceClientError(
    'ServiceError',
    `${text}${said ? ` It said: “${said.replace(/[.\s]+$/, '')}”.` : ''}`,
    { status, attempts },
  );
}

export function networkError(
  reason: NetworkReason,
  host: string,
  detail: { timeoutMs?: number; answeredBefore?: boolean } = {},
): ServiceClientError {
  let what: string;
  // A service that answered at this address earlier and now refuses is down or restarting: its
  // address is right, so sending the analyst to Settings would mislead them.
  if (detail.answeredBefore && (reason === 'refused' || reason === 'other')) {
    return new ServiceClientError(
      'NetworkError',
      `The service at ${host} stopped answering (${reason === 'refused' ? 'connection refused' : 'no connection'}). It answered earlier at this address, so it is probably down or restarting. Portolan keeps checking, and the status bar says when it answers again; then try again.`,
      { reason },
    );
  }
  switch (reason) {
    case 'timeout':
      what = `The service at ${host} did not answer within ${formatMs(detail.timeoutMs ?? 0)} (timed out). Try again, or narrow the query so the answer is smaller.`;
      break;
    case 'refused':
      what = `Could not connect to the service at ${host} (connection refused). Check the service address in Settings → Connection profiles.`;
      break;
    case 'dns':
      what = `The service's host name ${host} could not be resolved. Check the service address in Settings → Connection profiles and your network.`;
      break;
    case 'reset':
      what = `The connection to the service at ${host} was closed before it answered. Try again.`;
      break;
    case 'unreachable':
      what = `The service at ${host} cannot be reached from this network. Check your network connection.`;
      break;
    case 'other':
      what = `Could not reach the service at ${host}. Check the service address in Settings → Connection profiles and your network.`;
  }
  return new ServiceClientError('NetworkError', what, { reason });
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** What a served answer that could not be read had cost: the downloads of a search are counted when served. */
export type PaidDownloads = 'shipments' | 'firms';

export function badResponseError(
  path: string,
  problem: string,
  status?: number,
  paid?: PaidDownloads,
  cutOff = false,
): ServiceClientError {
  // "response" alone is the whole answer: naming it says nothing; a deeper path says where it broke.
  const what = `${path && path !== 'response' ? `${path}: ` : ''}${problem}`;
  // A search the service served is counted against the account whether or not its answer could be
  // read: the analyst must know that the money is spent and that searching again spends it again.
  const message = paid
    ? `The service answered, but its answer could not be read (${what}), so nothing was shown or saved. ` +
      `The service counts the ${paid} it serves: those it sent will have been counted against the account's ${paid === 'shipments' ? 'shipment' : 'firm'} downloads, ` +
      'and searching again downloads and counts them again. If it keeps happening, the service may have changed; the Usage page shows what is left.'
    : `The service sent an answer Portolan cannot read (${what}). Try again; if it keeps happening, the service may have changed.`;
  return new ServiceClientError('BadResponse', message, {
    path,
    ...(status !== undefined ? { status } : {}),
    ...(cutOff ? { cutOff } : {}),
  });
}

export function cancelledError(): ServiceClientError {
  return new ServiceClientError('Cancelled', 'The request was cancelled.');
}

/**
 * Maps anything thrown to the bridge's error shape. Unknown errors become `Internal` with a redacted
 * message, so nothing unexpected (a stack, a secret in some library's message) crosses the bridge raw.
 */
export function toBridgeError(e: unknown): BridgeError {
  // Every error of the app, the service client's included, is an AppError that carries its bridge kind.
  if (e instanceof AppError) {
    const out: BridgeError = { kind: e.kind, message: redact(e.message) };
    if (e.details.issues !== undefined)
      out.issues = e.details.issues.map((i) => ({ path: i.path, message: redact(i.message) }));
    if (e.details.status !== undefined) out.status = e.details.status;
    if (e.details.retryAfterSeconds !== undefined) out.retryAfterSeconds = e.details.retryAfterSeconds;
    if (e.details.detail !== undefined) out.detail = redact(e.details.detail);
    return out;
  }
  if (isAbortError(e)) return { kind: 'Cancelled', message: 'The request was cancelled.' };
  const detail = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
  return {
    kind: 'Internal',
    message: redact(`Something went wrong inside Portolan${detail ? `: ${detail.slice(0, 300)}` : ''}.`),
  };
}

export function isAbortError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
}
