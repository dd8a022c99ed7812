import { AppError } from '@shared/ipc/errors';
import { snapshotChanges } from '../analysis';
import { RequestPolicy, ServiceDidNotAnswer } from '../jobs';
import type { Library } from '../library';
import {
  createWatchService,
  snapshotWarnings,
  type ShipmentSource,
  type WatchContext,
  type WatchService,
} from '../watch';
import { usageChange } from './change-events';
import type { HandlerContext } from './handler-context';
import { openProfileSession, type ProfileSession } from './profile-session';
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
  | 'watch.changes'
  | 'watch.cancelRefresh';

/**
 * Watched queries. A watch is refreshed with the profile it was made with (not whichever is active), so
 * its snapshots are one account's view of the service; a new watch takes the active profile.
 */
export function createWatchHandlers(ctx: HandlerContext): HandlerSlice<WatchChannel> {
  // One service per library: a demo workspace or a recovered library is another file, with other watches.
  let service: { library: Library; watch: WatchService } | null = null;
  const watches = async (): Promise<WatchService> => {
    const library = await ctx.library();
    if (service?.library !== library) {
      const cap = ctx.deps.watchSearchCap;
      service = { library, watch: createWatchService(library, cap !== undefined ? { cap } : {}) };
    }
    return service.watch;
  };
  /** The profile and account each preview was priced with: its refresh runs with the same. */
  const previewProfiles = new Map<string, { profileId: string | undefined; account: string | null }>();

  /** The refreshes under way, by preview: Cancel stops one. */
  const refreshing = new Map<string, AbortController>();

  /**
   * A refresh's searches, each within the fetch jobs' request policy: a service that stops answering
   * is waited for (the connection monitor's probes, no request) and one whose gateway says it is
   * unavailable is asked again once per pause, up to the jobs' longest wait; the window is told when a
   * wait begins and ends. The wait ends at once on the refresh's signal (Cancel, the page gone).
   */
  async function waitingSource(session: ProfileSession, previewId: string): Promise<ShipmentSource> {
    const client = await session.client();
    const { id, baseUrl } = session.profile;
    const policy = new RequestPolicy({
      untilServiceAnswers: (signal) => ctx.connection.whenAnswers(id, baseUrl, signal),
      task: 'refresh',
      ...(ctx.deps.maxServiceWaitMs !== undefined ? { maxServiceWaitMs: ctx.deps.maxServiceWaitMs } : {}),
    });
    let told: number | null = null;
    const tell = (since: number | null): void => {
      if (since === told) return;
      told = since;
      ctx.deps.events.emit('watch.progress', { previewId, waitingForServiceSince: since });
    };
    return {
      shipmentSearch: async (req, o) => {
        const signal = o?.signal;
        const res = await policy.call(
          (attempts) => client.shipmentSearch(req, { ...(signal ? { signal } : {}), ...attempts }),
          signal,
          (wait) => {
            if (wait === null || 'serviceSince' in wait) tell(wait?.serviceSince ?? null);
          },
        );
        tell(null);
        return res;
      },
    };
  }

  async function connect(
    profileId: string | undefined,
    account: string | null = null,
    refresh?: { previewId: string },
  ) {
    const session = await openProfileSession(ctx, profileId, account ? { account_name: account } : {});
    const watchCtx: WatchContext = {
      source: refresh ? await waitingSource(session, refresh.previewId) : await session.client(),
      profileId: session.profile.id,
      profileName: session.profile.name,
      account: session.provenance.account,
      serviceUrl: session.profile.baseUrl,
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
      const watchCtx = await connect(priced?.profileId, priced?.account ?? null, { previewId });
      const cancel = new AbortController();
      refreshing.set(previewId, cancel);
      const signal = c.signal ? AbortSignal.any([c.signal, cancel.signal]) : cancel.signal;
      try {
        const out = await svc.refresh(previewId, watchCtx, signal);
        previewProfiles.delete(previewId);
        ctx.deps.events.emit('library.changed', { change: 'saved', datasetId: out.watch.datasetId });
        return out;
      } catch (e) {
        // Nothing is stored before every window is fetched: stopped anywhere before, the refresh left none.
        if (e instanceof ServiceDidNotAnswer)
          throw new AppError(
            'NetworkError',
            `${e.message} Nothing of it was stored; refresh again once the service answers.`,
          );
        throw e;
      } finally {
        if (refreshing.get(previewId) === cancel) refreshing.delete(previewId);
        spent(watchCtx.profileId);
      }
    },
    'watch.cancelRefresh': async ({ previewId }) => {
      refreshing.get(previewId)?.abort();
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
