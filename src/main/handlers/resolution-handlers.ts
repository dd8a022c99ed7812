import { AppError } from '@shared/ipc/errors';
import type { ResolutionStatus } from '@shared/resolution/resolution-contract';
import type { Library } from '../library';
import type { EventSink, HandlerSlice } from './types';

export type ResolutionChannel =
  | 'resolution.status'
  | 'resolution.run'
  | 'resolution.firms'
  | 'resolution.firm'
  | 'resolution.review'
  | 'resolution.decide'
  | 'resolution.merge'
  | 'resolution.split'
  | 'resolution.decisions'
  | 'resolution.undo'
  | 'resolution.exportAliases'
  | 'resolution.importAliases';

export interface ResolutionHandlerDeps {
  library: () => Promise<Library>;
  events: EventSink;
}

/**
 * Firm resolution over the offline library: the firms of a dataset or of the whole library, the review
 * queue, the analyst's decisions and their alias list. Inputs arrive checked by the channel schemas. A
 * call that may have resolved again announces the new status, so every open view can follow.
 */
export function createResolutionHandlers(deps: ResolutionHandlerDeps): HandlerSlice<ResolutionChannel> {
  const book = async () => (await deps.library()).firms;
  /** Runs `fn` and announces the status when a resolution ran meanwhile. */
  async function announcing<T>(fn: () => Promise<T>, statusOf: (v: T) => ResolutionStatus): Promise<T> {
    const before = (await (await book()).status()).resolvedAt;
    const value = await fn();
    const status = statusOf(value);
    if (status.resolvedAt !== before) deps.events.emit('resolution.changed', status);
    return value;
  }
  const same = (s: ResolutionStatus) => s;
  return {
    'resolution.status': async () => (await book()).status(),
    'resolution.run': async (input) =>
      announcing(async () => (await book()).resolve({ force: input?.force ?? false }), same),
    'resolution.firms': async (input) =>
      announcing(
        async () => (await book()).list(input),
        (v) => v.status,
      ),
    'resolution.firm': async ({ firmId, scope }) => (await book()).firm(firmId, scope),
    'resolution.review': async ({ scope, offset, limit }) => (await book()).review(scope, { offset, limit }),
    'resolution.decide': async ({ verdict, a, b }) =>
      announcing(async () => (await book()).decide(verdict, a, b), same),
    'resolution.merge': async ({ firmIds }) => announcing(async () => (await book()).merge(firmIds), same),
    'resolution.split': async ({ firmId, partyIds }) =>
      announcing(async () => (await book()).split(firmId, partyIds), same),
    'resolution.decisions': async () => (await book()).decisions(),
    'resolution.undo': async ({ decisionId }) =>
      announcing(async () => (await book()).undo(decisionId), same),
    'resolution.exportAliases': async () =>
      `${JSON.stringify(await (await book()).exportAliases(), null, 2)}\n`,
    'resolution.importAliases': async ({ text }) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new AppError('InvalidInput', 'That file is not a Portolan alias list (it is not JSON).');
      }
      return announcing(
        async () => (await book()).importAliases(parsed),
        (v) => v.status,
      );
    },
  };
}
