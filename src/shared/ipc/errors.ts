import type { SpecIssue } from '../spec/issues';

/**
 * Every kind of failure that can cross the bridge. The renderer switches on `kind`; `message` is
 * already written for a person.
 */
export const ERROR_KINDS = [
  // From the service client
  'InvalidRequest', // client-side constraint violation; nothing was sent
  'AuthRejected', // 401
  'LimitExceeded', // 429
  'ServiceError', // any other non-2xx status
  'NetworkError', // no response at all (refused, reset, DNS, timeout)
  'BadResponse', // a response that is not what the spec describes
  'Cancelled',
  // From the app itself
  'InvalidInput', // a bridge call whose input failed the channel's schema
  'Forbidden', // a call from a sender that is not the app's own top frame
  'KeychainUnavailable',
  'NoCredentials',
  'NotFound',
  'Conflict',
  'StorageLocked', // the library file is held by another program; retry once it lets go
  'DiskFull', // the disk holding the library or the file being written has no space left
  'Internal',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface BridgeError {
  kind: ErrorKind;
  message: string;
  /** Field-level problems, for InvalidRequest and InvalidInput. */
  issues?: SpecIssue[];
  /** HTTP status, for ServiceError / AuthRejected / LimitExceeded. */
  status?: number;
  /** Seconds the service asked us to wait, for LimitExceeded. */
  retryAfterSeconds?: number;
  /**
   * The system's own text of a file failure ("EBUSY: resource busy or locked, …"), shown small under
   * the message that says it in words: for support, never in place of them.
   */
  detail?: string;
}

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

/**
 * Whether a call failed because the service did not answer (no connection) or answered that it is
 * having trouble: a failure that passes by itself, so asking again later may succeed.
 */
export function serviceDidNotAnswer(error: Pick<BridgeError, 'kind'> | null | undefined): boolean {
  return error?.kind === 'NetworkError' || error?.kind === 'ServiceError';
}

/**
 * When a call the service refused for a limit may be asked again (epoch ms): `at`, the time of the
 * refusal, plus the wait the service gave. Null for any other failure, and for a refusal that gave no
 * wait (a used-up quota does not come back by waiting).
 */
export function limitEndsAt(
  error: Pick<BridgeError, 'kind' | 'retryAfterSeconds'> | null | undefined,
  at: number,
): number | null {
  return error?.kind === 'LimitExceeded' && error.retryAfterSeconds !== undefined
    ? at + error.retryAfterSeconds * 1000
    : null;
}

/** A wait as a limit's message says it: "45 s", "3 min", "1.5 h". */
function describeWait(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}

/** "Try again in 45 s": a held Try again says the wait as the limit's message beside it does. */
export function tryAgainIn(seconds: number): string {
  return `Try again in ${describeWait(seconds)}`;
}

/**
 * The sentence a limit's message ends with when the service gave a wait. One function for main, which
 * writes it once, and the window, which counts it down where the message stays on screen.
 */
export function waitSentence(seconds: number): string {
  return `${tryAgainIn(seconds)}.`;
}

/** An error that already carries a bridge kind; handlers throw these and the wrapper forwards them. */
export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly details: Omit<BridgeError, 'kind' | 'message'>;
  constructor(kind: ErrorKind, message: string, details: Omit<BridgeError, 'kind' | 'message'> = {}) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.details = details;
  }
}
