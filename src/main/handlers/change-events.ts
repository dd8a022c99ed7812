import type { CallChannel } from '@shared/ipc/channels';
import type { LibraryChanged } from '@shared/library/library-contract';
import type { UsageChanged, UsageReading } from '@shared/query/query-contract';
import type { HandlerContext } from './handler-context';
import type { CallContext, Handlers } from './types';

/** Calls that may spend the quota of the profile they name (or of the active one), whatever their outcome. */
const SPENDING = new Set<CallChannel>([
  'shipments.search',
  'shipments.count',
  'firms.search',
  'firms.count',
  'jobs.estimate',
]);

type Announce = (input: unknown, value: unknown) => Promise<void>;

/** A profile's usage moved: with main's figures when it holds them, so the window need not ask again. */
export function usageChange(ctx: HandlerContext, profileId: string): UsageChanged {
  const reading = ctx.usage.reading(profileId);
  return reading ? { profileId, ...reading } : { profileId };
}

/**
 * Main announces what changed, so the window never guesses: `usage.changed` after every call that may
 * spend a profile's quota (and with the figures after a call that read them), `library.changed` after
 * every call that saves, edits or deletes a dataset. Jobs announce their own end (see jobs-handlers).
 * Both hosts carry the events through the sink they gave the handlers.
 */
export function withChangeEvents(ctx: HandlerContext, handlers: Handlers): Handlers {
  const events = ctx.deps.events;
  const profileOf = async (input: unknown): Promise<string | null> => {
    const named =
      typeof input === 'object' && input !== null && 'profileId' in input
        ? (input as { profileId?: unknown }).profileId
        : undefined;
    return typeof named === 'string' ? named : ctx.profiles.getActiveId();
  };
  const library = (change: LibraryChanged['change'], datasetId: unknown): void => {
    if (typeof datasetId === 'string' && datasetId) events.emit('library.changed', { change, datasetId });
  };
  const idOf = (v: unknown): unknown =>
    typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : null;

  const onSuccess: Partial<Record<CallChannel, Announce>> = {
    'usage.get': async (input, value) => {
      const profileId = await profileOf(input);
      if (profileId) events.emit('usage.changed', { profileId, ...(value as UsageReading) });
    },
    // A test reads the service afresh: main's figures for the profile are that read.
    'profiles.testConnection': async (input) => {
      events.emit('usage.changed', usageChange(ctx, (input as { id: string }).id));
    },
    // 'shipments.search' answers before its dataset is stored: the library handlers announce it once it is.
    'firms.search': async (_input, value) => library('saved', (value as { datasetId?: unknown }).datasetId),
    'library.rename': async (_input, value) => library('updated', idOf(value)),
    'library.setTags': async (_input, value) => library('updated', idOf(value)),
    'library.setNotes': async (_input, value) => library('updated', idOf(value)),
    'library.delete': async (input) => library('removed', idOf(input)),
    'library.import': async (_input, value) =>
      library('saved', idOf((value as { dataset?: unknown }).dataset)),
  };

  const wrapped: Record<string, unknown> = { ...handlers };
  for (const channel of Object.keys(handlers) as CallChannel[]) {
    const announce = onSuccess[channel];
    const spends = SPENDING.has(channel);
    if (!announce && !spends) continue;
    const fn = handlers[channel] as (input: unknown, c: CallContext) => Promise<unknown>;
    wrapped[channel] = async (input: unknown, c: CallContext) => {
      try {
        const value = await fn(input, c);
        // An announcement that fails (the profile file unreadable) must not fail the call it follows.
        await announce?.(input, value).catch(() => undefined);
        return value;
      } finally {
        if (spends) {
          const profileId = await profileOf(input).catch(() => null);
          if (profileId) events.emit('usage.changed', usageChange(ctx, profileId));
        }
      }
    };
  }
  return wrapped as Handlers;
}
