import type { BridgeError } from '@shared/ipc/errors';

/** A failed bridge call as a person reads it: what kind of problem, and the message main wrote. */
export function ErrorMessage({ error, testId }: { error: BridgeError; testId: string }) {
  return (
    <div className="message message--error" role="alert" data-testid={testId} data-error-kind={error.kind}>
      <strong className="message__kind">{error.kind}</strong>
      {error.status ? <span className="message__status"> (HTTP {error.status})</span> : null}
      <span className="message__text"> {error.message}</span>
    </div>
  );
}
