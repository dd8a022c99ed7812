import type { ShipmentFilter } from '@shared/spec/filter';
import { createJobManager, type JobClient, type JobOwner } from '../jobs';
import type { HandlerContext } from './handler-context';
import { usageChange } from './change-events';
import { openProfileSession, type ProfileSession } from './profile-session';
import type { HandlerSlice } from './types';

export type JobsChannel =
  | 'jobs.estimate'
  | 'jobs.start'
  | 'jobs.cancel'
  | 'jobs.pause'
  | 'jobs.list'
  | 'jobs.resume'
  | 'jobs.discard';

function stripPaging(request: ShipmentFilter & { size?: number; page?: number }): ShipmentFilter {
  const { size: _size, page: _page, ...filter } = request;
  return filter;
}

/** Whose job it is: the session's profile and the account it charges. */
function ownerOf({ profile, provenance }: ProfileSession): JobOwner {
  return { profileId: profile.id, profileName: profile.name, account: provenance.account };
}

/**
 * The session's client for a job: besides its requests, a wait for its service to answer again, told
 * by the connection monitor's probes (no request), so a job outlives a restart or a network blip.
 */
async function jobClient(ctx: HandlerContext, session: ProfileSession): Promise<JobClient> {
  const client = await session.client();
  const { id, baseUrl } = session.profile;
  return { ...client, untilAnswers: (signal) => ctx.connection.whenAnswers(id, baseUrl, signal) };
}

/** The fetch jobs' calls: the profile and its signed client are resolved here, the rest is the job manager's. */
export function createJobsHandlers(ctx: HandlerContext): HandlerSlice<JobsChannel> {
  const jobs = createJobManager({
    library: () => ctx.library(),
    onProgress: (p) => ctx.deps.events.emit('jobs.progress', p),
    onFinished: (f, profileId) => {
      ctx.deps.events.emit('jobs.finished', f);
      // A fetch spends downloads and requests until it stops, and a finished one is a new dataset.
      if (f.datasetId) ctx.deps.events.emit('library.changed', { change: 'saved', datasetId: f.datasetId });
      void (profileId ? Promise.resolve(profileId) : ctx.profiles.getActiveId()).then(
        (id) => id && ctx.deps.events.emit('usage.changed', usageChange(ctx, id)),
        () => undefined,
      );
    },
    logger: ctx.deps.logger,
    ...(ctx.deps.maxServiceWaitMs !== undefined ? { maxServiceWaitMs: ctx.deps.maxServiceWaitMs } : {}),
  });

  async function connect(profileId: string | undefined, request: { account_name?: string }) {
    const session = await openProfileSession(ctx, profileId, request);
    return { owner: ownerOf(session), client: await jobClient(ctx, session) };
  }

  return {
    'jobs.estimate': async ({ profileId, kind, request, knownTotal }, c) => {
      const { owner, client } = await connect(profileId, request);
      return jobs.estimate(owner, client, kind, stripPaging(request), c.signal, knownTotal);
    },
    'jobs.start': async ({ profileId, kind, request, name }) => {
      const { owner, client } = await connect(profileId, request);
      return jobs.start(owner, client, kind, stripPaging(request), name);
    },
    'jobs.cancel': ({ jobId }) => jobs.cancel(jobId),
    'jobs.pause': ({ jobId }) => jobs.pause(jobId),
    'jobs.list': () => jobs.list(),
    'jobs.resume': ({ jobId }) =>
      jobs.resume(jobId, async (profileId) => {
        // A resumed job is charged to its profile's default account, as before the restart.
        const session = await openProfileSession(ctx, profileId ?? undefined);
        return { owner: ownerOf(session), client: await jobClient(ctx, session) };
      }),
    'jobs.discard': ({ jobId }) => jobs.discard(jobId),
  };
}
