import type { BridgeError, ErrorKind } from '@shared/ipc/errors';

/**
 * A heading an analyst can read for each kind; null where the message already says it all. The kind
 * itself stays on `data-error-kind` for tests and support.
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
  NoCredentials: 'No credentials',
  NotFound: 'Not found',
  Conflict: null,
  StorageLocked: 'Library in use',
  DiskFull: 'Disk full',
  Internal: 'Something went wrong',
};

/** A failed bridge call as a person reads it: what went wrong, and the message main wrote. */
export function ErrorMessage({ error, testId }: { error: BridgeError; testId: string }) {
  const heading = HEADINGS[error.kind];
  return (
    <div className="message message--error" role="alert" data-testid={testId} data-error-kind={error.kind}>
      {heading && <strong className="message__kind">{heading}: </strong>}
      <span className="message__text">{error.message}</span>
      {error.status ? <span className="message__status"> (HTTP {error.status})</span> : null}
    </div>
  );
}
