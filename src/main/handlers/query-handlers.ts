import type { HandlerContext } from './handler-context';
import { openProfileSession } from './profile-session';
import type { CallContext, HandlerSlice } from './types';

type QueryChannels = 'usage.get' | 'shipments.search' | 'shipments.count' | 'firms.search' | 'firms.count';

const opts = (c: CallContext) => (c.signal ? { signal: c.signal } : {});

export function createQueryHandlers(ctx: HandlerContext): HandlerSlice<QueryChannels> {
  const clientFor = async (profileId: string | undefined) =>
    (await openProfileSession(ctx, profileId)).client();
  return {
    'usage.get': async ({ profileId }, c) => (await clientFor(profileId)).usage(opts(c)),
    // Searches do not take the caller's signal. The spec does not say whether the service charges a
    // request whose answer is never read, so a window that stops waiting (a reload, a closed window,
    // Cancel) must not abandon a sent search: it completes, and `withLibrarySaving` keeps the answer in
    // the library. The client's own timeout still bounds it.
    'shipments.search': async ({ profileId, request }) =>
      (await clientFor(profileId)).shipmentSearch(request),
    'shipments.count': async ({ profileId, request }, c) =>
      (await clientFor(profileId)).shipmentCount(request, opts(c)),
    'firms.search': async ({ profileId, request }) => (await clientFor(profileId)).firmSearch(request),
    'firms.count': async ({ profileId, request }, c) =>
      (await clientFor(profileId)).firmCount(request, opts(c)),
  };
}
