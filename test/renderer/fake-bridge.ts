import { act } from '@testing-library/react';
import { buildApi, type DroppedFiles, type FileTransfer, type PortolanApi } from '@shared/ipc/build-api';
import { CALL_CHANNELS, type CallChannel, type EventChannel } from '@shared/ipc/channels';
import type { CallInput, CallOutput, Events } from '@shared/ipc/contract';
import type { BridgeResult } from '@shared/ipc/errors';
import type { UsageReading } from '@shared/query/query-contract';
import type { UsageSummary } from '@shared/spec';
import { nothingSaved, refuseBadInput } from './fake-main';

/** How a test answers one channel: typed by the channel's real input and output. */
export type Handler<C extends CallChannel> = (
  input: CallInput<C>,
) => BridgeResult<CallOutput<C>> | Promise<BridgeResult<CallOutput<C>>>;

/** Answers keyed by channel; a channel without one gets `fallback`, or what an empty workspace answers. */
export type Handlers = { [C in CallChannel]?: Handler<C> };

export interface FakeBridgeOptions {
  /** Channels without a handler: a real backend (the real dispatcher), instead of an empty workspace. */
  fallback?: (channel: CallChannel, input: unknown) => Promise<BridgeResult<unknown>>;
  /** The browser host's file upload, for pages that pick files themselves. */
  fileTransfer?: FileTransfer;
  /** The Electron preload's dropped files (main adopts a dropped file's path as an import handle). */
  droppedFiles?: DroppedFiles;
  /** False for a real backend behind `fallback`: its own dispatcher checks inputs. */
  checkInputs?: boolean;
  /** Where events come from besides `emit` (a real backend's event sink). */
  subscribe?: (event: EventChannel, listener: (payload: unknown) => void) => () => void;
}

export interface FakeBridge {
  /** What `setApi` takes: the same object shape as the preload's `window.portolan`. */
  readonly api: PortolanApi;
  /** Every call the window made, in order. */
  readonly log: { channel: CallChannel; input: unknown }[];
  callsTo<C extends CallChannel>(channel: C): CallInput<C>[];
  /** Adds or replaces answers. */
  answer(handlers: Handlers): void;
  /** Sends an event as main would, inside React's act(). */
  emit<E extends EventChannel>(event: E, payload: Events[E]): void;
  listeners(event: EventChannel): number;
}

/**
 * The one fake main process of the renderer tests. Every call is first checked against its channel's
 * real input schema (as main's dispatcher does), so a page that sends a bad call fails its test; then
 * the test's handler answers, or the fallback (a real backend), or an empty workspace.
 */
export function fakeBridge(initial: Handlers = {}, opts: FakeBridgeOptions = {}): FakeBridge {
  const handlers: Handlers = { ...initial };
  const log: { channel: CallChannel; input: unknown }[] = [];
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();

  async function invoke(channel: CallChannel, input: unknown): Promise<BridgeResult<unknown>> {
    log.push({ channel, input });
    const refused = opts.checkInputs === false ? null : refuseBadInput(channel, input);
    if (refused) return refused;
    const handler = handlers[channel] as ((i: unknown) => Promise<BridgeResult<unknown>>) | undefined;
    if (handler) return handler(input);
    if (opts.fallback) return opts.fallback(channel, input);
    return nothingSaved(channel);
  }

  const api = buildApi(CALL_CHANNELS, {
    invoke,
    ...(opts.fileTransfer ? { fileTransfer: opts.fileTransfer } : {}),
    ...(opts.droppedFiles ? { droppedFiles: opts.droppedFiles } : {}),
    subscribe(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      const off = opts.subscribe?.(event, (payload) => act(() => listener(payload)));
      return () => {
        set.delete(listener);
        off?.();
      };
    },
  });

  return {
    api,
    log,
    callsTo: <C extends CallChannel>(channel: C) =>
      log.filter((c) => c.channel === channel).map((c) => c.input as CallInput<C>),
    answer: (more) => Object.assign(handlers, more),
    emit(event, payload) {
      act(() => {
        for (const l of [...(listeners.get(event) ?? [])]) l(payload);
      });
    },
    listeners: (event) => listeners.get(event)?.size ?? 0,
  };
}

/** A successful answer. */
export const ok = <T>(value: T): BridgeResult<T> => ({ ok: true, value });

/** Usage figures as main answers them: read from the service at `readAt`, again a minute later. */
export const reading = (usage: UsageSummary, readAt = Date.now()): UsageReading => ({
  usage,
  readAt,
  nextReadAt: readAt + 60_000,
});
