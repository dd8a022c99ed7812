import type { CallChannel, EventChannel } from '@shared/ipc/channels';
import type { CallOutput, Events, ParsedInput } from '@shared/ipc/contract';

/** Per-call context: the caller's cancellation signal, when the transport has one. */
export interface CallContext {
  signal?: AbortSignal;
}

/** The Electron-free implementation of one bridge call: input already parsed by the channel's schema. */
export type ServiceFn<C extends CallChannel> = (input: ParsedInput<C>, ctx: CallContext) => Promise<CallOutput<C>>;

/** Every bridge call implemented; composed from per-capability modules (`<capability>-service.ts`). */
export type Services = { [C in CallChannel]: ServiceFn<C> };

/** A slice of Services that one capability module provides. */
export type ServiceSlice<C extends CallChannel> = { [K in C]: ServiceFn<K> };

/** Where services publish events; the shell sends them to the window, the web host to its SSE stream. */
export interface EventSink {
  emit<E extends EventChannel>(event: E, payload: Events[E]): void;
}
