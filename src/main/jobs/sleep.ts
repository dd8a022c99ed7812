import { setTimeout as delay } from 'node:timers/promises';

/** A wait that ends early, rejecting with node's AbortError, when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(Math.max(0, ms), undefined, signal ? { signal } : undefined);
}
