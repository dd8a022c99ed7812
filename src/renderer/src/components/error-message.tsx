import { Alert, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { waitSentence, type BridgeError, type ErrorKind } from '@shared/ipc/errors';
import { MessageText } from './message-text';

/**
 * Each kind of failure in the analyst's words: a heading for an error banner, or null where the
 * message already says it all. The kind itself is never shown; it stays on `data-error-kind` for
 * tests and support.
 */
const HEADINGS: Record<ErrorKind, string | null> = {
  InvalidRequest: 'Not sent',
  AuthRejected: 'Sign-in refused',
  LimitExceeded: 'Limit reached',
  ServiceError: 'The service reported a problem',
  NetworkError: 'No connection to the service',
  BadResponse: 'Unexpected answer from the service',
  Cancelled: null,
  InvalidInput: null,
  Forbidden: 'Not allowed',
  KeychainUnavailable: 'Keychain unavailable',
  NoCredentials: 'No API key and secret',
  NotFound: 'Not found',
  Conflict: null,
  StorageLocked: 'Library in use',
  DiskFull: 'Disk full',
  Internal: 'Something went wrong',
};

/** A heading for a failure of this kind, in plain words (null when the message says it all). */
export function errorHeading(kind: ErrorKind): string | null {
  return HEADINGS[kind];
}

/**
 * The HTTP status to add after the message, or null when the message names it already ("…status 503
 * Service Unavailable…", "…limit reached (429)…"): said once, not twice. A success status (an answer
 * that arrived but could not be read) tells the analyst nothing, so it is not added.
 */
export function statusSuffix(error: Pick<BridgeError, 'message' | 'status'>): string | null {
  if (!error.status || (error.status >= 200 && error.status <= 299)) return null;
  return new RegExp(`\\b${error.status}\\b`).test(error.message) ? null : ` (HTTP ${error.status})`;
}

/**
 * A limit's message as it reads now: the wait it ended with when it came ("Try again in 45 s.") counted
 * down to `msLeft`, then said to be over; the message as main wrote it when it gave no wait.
 */
export function messageWithWaitLeft(
  error: Pick<BridgeError, 'message' | 'retryAfterSeconds'>,
  msLeft: number,
): string {
  if (error.retryAfterSeconds === undefined) return error.message;
  const sentence = waitSentence(error.retryAfterSeconds);
  if (!error.message.endsWith(sentence)) return error.message;
  const now = msLeft > 0 ? waitSentence(Math.ceil(msLeft / 1000)) : 'The wait is over: you can try again.';
  return error.message.slice(0, -sentence.length) + now;
}

/**
 * A failed bridge call as a person reads it: what went wrong, and the message main wrote.
 * `waitLeftMs`: where the message stays on screen while a limit's wait runs out (a dialog's Try again
 * counts it down beside it), the time left of the wait, so that the message does not go on saying the
 * wait it had when it came.
 */
export function ErrorMessage({
  error,
  testId,
  waitLeftMs,
}: {
  error: BridgeError;
  testId: string;
  waitLeftMs?: number;
}) {
  const heading = HEADINGS[error.kind];
  const status = statusSuffix(error);
  const text = waitLeftMs === undefined ? error.message : messageWithWaitLeft(error, waitLeftMs);
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={16} />}
      data-testid={testId}
      data-error-kind={error.kind}
      py="xs"
      my="xs"
    >
      {heading && <strong className="message__kind">{heading}: </strong>}
      <span className="message__text">
        <MessageText text={text} />
      </span>
      {status ? <span className="message__status">{status}</span> : null}
      {error.detail ? <SystemDetail text={error.detail} /> : null}
    </Alert>
  );
}

/**
 * The system's own text of a file failure the message has said in words ("EBUSY: resource busy or
 * locked, …"): small, under the words, for whoever helps the analyst, never in place of them.
 */
export function SystemDetail({ text }: { text: string }) {
  return (
    <Text fz="xs" c="dimmed" mt={4} className="message__detail" data-testid="system-detail">
      The system said: {text}
    </Text>
  );
}
