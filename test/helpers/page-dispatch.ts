import type { BridgeResult } from '@shared/ipc/errors';
import { createDispatcher } from '../../src/main/handlers/dispatcher';
import type { Handlers } from '../../src/main/handlers/types';
import { createLogger, createMemorySink } from '../../src/main/log';

/**
 * The real dispatcher (schema checks, error conversion) over the handlers of one or two capabilities,
 * as a page test's window calls them: the caller `sender`, trusted, its log kept in memory. Only the
 * other capabilities' channels are absent.
 */
export function dispatchOver(
  slice: object,
  sender: string,
): (channel: string, input: unknown) => Promise<BridgeResult<unknown>> {
  const dispatch = createDispatcher<string>({
    handlers: slice as unknown as Handlers,
    isTrustedSender: () => true,
    logger: createLogger({ sink: createMemorySink() }),
  });
  return (channel, input) => dispatch(channel, input, sender);
}
