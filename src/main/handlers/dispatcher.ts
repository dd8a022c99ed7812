import { CALL_CHANNELS, type CallChannel } from '@shared/ipc/channels';
import { calls } from '@shared/ipc/contract';
import { AppError, type BridgeError, type BridgeResult } from '@shared/ipc/errors';
import { viewPartLabel } from '@shared/library/view-labels';
import { describeFieldIssues, toSpecIssues } from '@shared/spec';
import { isAbortError, toBridgeError } from '../api';
import { libraryNotWritableError, storageError } from '../library';
import type { Logger } from '../log';
import type { CallContext, Handlers } from './types';

export interface DispatcherOptions<S> {
  handlers: Handlers;
  /** The host's decision about who is calling (Electron: the app's own top frame; web host: its own page). */
  isTrustedSender: (sender: S) => boolean;
  logger: Logger;
}

export type Dispatch<S> = (
  channel: string,
  input: unknown,
  sender: S,
  ctx?: CallContext,
) => Promise<BridgeResult<unknown>>;

const KNOWN = new Set<string>(CALL_CHANNELS);
export const isCallChannel = (c: unknown): c is CallChannel => typeof c === 'string' && KNOWN.has(c);

/**
 * Any throw as a bridge error: an AppError (the service client's errors are AppErrors too) keeps its kind,
 * its redacted message and details; a cancellation is Cancelled; anything else says nothing of internals.
 */
export function toBridgeResultError(e: unknown): BridgeError {
  if (e instanceof AppError || isAbortError(e)) return toBridgeError(e);
  // A full disk or a library held by another program, wherever it surfaced: said as such, not as a fault.
  const storage = storageError(e) ?? libraryNotWritableError(e);
  if (storage) return toBridgeError(storage);
  return {
    kind: 'Internal',
    message: 'Something went wrong inside Portolan. The details are in the log file (Help → Show Log).',
  };
}

/**
 * The one entry point for bridge calls in every host: sender check, schema check, the call, and the
 * conversion of whatever happens into `{ ok, value | error }`. It never throws.
 */
export function createDispatcher<S>({
  handlers,
  isTrustedSender,
  logger,
}: DispatcherOptions<S>): Dispatch<S> {
  const log = logger.child('dispatch');
  return async (channel, input, sender, ctx = {}) => {
    const started = Date.now();
    try {
      if (!isCallChannel(channel)) {
        log.warn('call to an unknown channel refused', { channel: String(channel).slice(0, 100) });
        return { ok: false, error: { kind: 'NotFound', message: 'Unknown call.' } };
      }
      let trusted = false;
      try {
        trusted = isTrustedSender(sender) === true;
      } catch (e) {
        log.warn('sender check failed', { channel, error: e });
      }
      if (!trusted) {
        log.warn('call from an untrusted sender refused', { channel });
        return {
          ok: false,
          error: { kind: 'Forbidden', message: 'This call is only accepted from the Portolan window.' },
        };
      }
      const parsed = calls[channel].input.safeParse(input);
      if (!parsed.success) {
        const issues = toSpecIssues(parsed.error);
        log.info('call refused: invalid input', { channel, issues });
        return {
          ok: false,
          error: {
            kind: 'InvalidInput',
            // In the words of the form (Date to, HS codes) and the grid (Quick filter, a column's header)
            // the analyst typed them in, wherever the call came from.
            message: `The input is not valid: ${describeFieldIssues(issues, input, viewPartLabel)}.`,
            issues,
          },
        };
      }
      const fn = handlers[channel] as ((i: unknown, c: CallContext) => Promise<unknown>) | undefined;
      if (typeof fn !== 'function') throw new Error(`no service implements ${channel}`);
      const value = await fn(parsed.data, ctx);
      log.debug('call done', { channel, ms: Date.now() - started });
      return { ok: true, value };
    } catch (e) {
      const error = toBridgeResultError(e);
      const fields = {
        channel: String(channel).slice(0, 100),
        kind: error.kind,
        ms: Date.now() - started,
        error: e,
      };
      if (error.kind === 'Internal') log.error('call failed', fields);
      else log.info('call failed', fields);
      return { ok: false, error };
    }
  };
}
