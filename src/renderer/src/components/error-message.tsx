import { Alert, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { BridgeError, ErrorKind } from '@shared/ipc/errors';
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

/** A failed bridge call as a person reads it: what went wrong, and the message main wrote. */
export function ErrorMessage({ error, testId }: { error: BridgeError; testId: string }) {
  const heading = HEADINGS[error.kind];
  const status = statusSuffix(error);
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
        <MessageText text={error.message} />
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
