import { AppError } from '@shared/ipc/errors';
import { snapshotChanges } from '../analysis';
import type { Library } from '../library';
import { createWatchService, snapshotWarnings, type WatchContext, type WatchService } from '../watch';
import { usageChange } from './change-events';
import type { HandlerContext } from './handler-context';
import { openProfileSession } from './profile-session';
import type { HandlerSlice } from './types';

export type WatchChannel =
  | 'watch.list'
  | 'watch.get'
  | 'watch.preview'
  | 'watch.adopt'
  | 'watch.refresh'
  | 'watch.rename'
  | 'watch.setOverlap'
  | 'watch.delete'
  | 'watch.changes';

/**
 * Watched queries. A watch is refreshed with the profile it was made with (not whichever is active), so
 * its snapshots are one account's view of the service; a new watch takes the active profile.
 */
export function createWatchHandlers(ctx: HandlerContext): HandlerSlice<WatchChannel> {
  // One service per library: a demo workspace or a recovered library is another file, with other watches.
  let service: { library: Library; watch: WatchService } | null = null;
  const watches = async (): Promise<WatchService> => {
    const library = await ctx.library();
    if (service?.library !== library) service = { library, watch: createWatchService(library) };
    return service.watch;
  };
  /** The profile and account each preview was priced with: its refresh runs with the same. */
  const previewProfiles = new Map<string, { profileId: string | undefined; account: string | null }>();

  async function connect(profileId: string | undefined, account: string | null = null) {
    const session = await openProfileSession(ctx, profileId, account ? { account_name: account } : {});
    const watchCtx: WatchContext = {
      source: await session.client(),
      profileId: session.profile.id,
      profileName: session.profile.name,
      account: session.provenance.account,
    };
    return watchCtx;
  }
  const spent = (profileId: string | null): void => {
    if (profileId) ctx.deps.events.emit('usage.changed', usageChange(ctx, profileId));
  };

  return {
    'watch.list': async () => (await watches()).list(),
    'watch.get': async ({ id }) => (await watches()).detail(id),
    'watch.preview': async (target, c) => {
      const svc = await watches();
      const w = 'watchId' in target ? await svc.detail(target.watchId) : null;
      const named = 'request' in target ? target.request.account_name : w?.request.account_name;
      const account = typeof named === 'string' ? named : null;
      const watchCtx = await connect(w?.profileId ?? undefined, account);
      try {
        const preview = await svc.preview(target, watchCtx, c.signal);
        previewProfiles.set(preview.previewId, { profileId: watchCtx.profileId ?? undefined, account });
        return preview;
      } finally {
        spent(watchCtx.profileId);
      }
    },
    'watch.adopt': async ({ datasetId, name }) => {
      const d = await (await watches()).adopt(datasetId, name);
      ctx.deps.events.emit('library.changed', { change: 'updated', datasetId: d.datasetId });
      return d;
    },
    'watch.refresh': async ({ previewId }, c) => {
      const svc = await watches();
      const priced = previewProfiles.get(previewId);
      const watchCtx = await connect(priced?.profileId, priced?.account ?? null);
      try {
        const out = await svc.refresh(previewId, watchCtx, c.signal);
        previewProfiles.delete(previewId);
        ctx.deps.events.emit('library.changed', { change: 'saved', datasetId: out.watch.datasetId });
        return out;
      } finally {
        spent(watchCtx.profileId);
      }
    },
    'watch.rename': async ({ id, name }) => {
      const d = await (await watches()).rename(id, name);
      ctx.deps.events.emit('library.changed', { change: 'updated', datasetId: d.datasetId });
      return d;
    },
    'watch.setOverlap': async ({ id, days }) => (await watches()).setOverlap(id, days),
    'watch.changes': async ({ id, from, to, by, firms, limit }) => {
      const library = await ctx.library();
      const w = await (await watches()).detail(id);
      if (from >= to)
        throw new AppError(
          'InvalidInput',
          'Compare an earlier snapshot with a later one: pick the earlier one first.',
        );
      const a = w.snapshots.find((s) => s.no === from);
      const b = w.snapshots.find((s) => s.no === to);
      if (!a || !b) throw new AppError('NotFound', `"${w.name}" has no snapshot ${!a ? from : to}.`);
      if (firms === 'resolved' && (by === 'importers' || by === 'exporters')) await library.firms.resolve();
      const warnings = snapshotWarnings(a, b);
      const changes = await snapshotChanges(library.reader, w.datasetId, from, to, by, { firms, limit });
      return { ...changes, watchId: id, fromTakenAt: a.takenAt, toTakenAt: b.takenAt, warnings };
    },
    'watch.delete': async ({ id }) => {
      const svc = await watches();
      const d = await svc.detail(id);
      await svc.remove(id);
      ctx.deps.events.emit('library.changed', { change: 'removed', datasetId: d.datasetId });
    },
  };
}
