import type { EventChannel } from '@shared/ipc/channels';
import type { Events } from '@shared/ipc/contract';
import type { EventSink } from '../handlers';

export type HubListener = (event: EventChannel, payload: unknown) => void;

/** The web host's EventSink: handlers emit into it, every open /events stream listens. */
export interface EventHub extends EventSink {
  listen(listener: HubListener): () => void;
  readonly listenerCount: number;
}

export function createEventHub(): EventHub {
  const listeners = new Set<HubListener>();
  return {
    emit<E extends EventChannel>(event: E, payload: Events[E]): void {
      for (const l of [...listeners]) {
        try {
          l(event, payload);
        } catch {
          // One broken stream must not stop the others or the emitting service.
        }
      }
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get listenerCount() {
      return listeners.size;
    },
  };
}
