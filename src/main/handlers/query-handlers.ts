import type { ShipmentSearchRequest } from '@shared/spec/operations';
import type { ShipmentSearchResponse } from '@shared/spec/responses';
import type { HandlerContext } from './handler-context';
import { openProfileSession } from './profile-session';
import type { CallContext, HandlerSlice } from './types';

type QueryChannels = 'usage.get' | 'shipments.count' | 'firms.search' | 'firms.count';

/** The service's calls, and the bare shipment search that `withLibrarySaving` turns into the bridge call. */
export interface QueryHandlers extends HandlerSlice<QueryChannels> {
  searchShipments(input: {
    profileId?: string;
    request: ShipmentSearchRequest;
    /** The answer's bytes before they are parsed (`CallOptions.onBody`). */
    onBody?: (bytes: Uint8Array) => void;
    /** The answer's start while the rest still arrives (`CallOptions.onStart`). */
    onStart?: (bytes: Uint8Array, whole: boolean) => boolean;
  }): Promise<ShipmentSearchResponse>;
}

const opts = (c: CallContext) => (c.signal ? { signal: c.signal } : {});

export function createQueryHandlers(ctx: HandlerContext): QueryHandlers {
  const clientFor = async (profileId: string | undefined) =>
    (await openProfileSession(ctx, profileId)).client();
  return {
    'usage.get': async ({ profileId }, c) => {
      const session = await openProfileSession(ctx, profileId);
      const usage = await (await session.client()).usage(opts(c));
      // With the time of the service read the figures start from: the window says how old they are.
      // No reading when an answer left them in doubt meanwhile: these were just read, and the next read
      // may go at once.
      const t = (ctx.deps.now ?? Date.now)();
      return ctx.usage.of(session.profile).reading() ?? { usage, readAt: t, nextReadAt: t };
    },
    // Searches do not take the caller's signal. The spec does not say whether the service charges a
    // request whose answer is never read, so a window that stops waiting (a reload, a closed window,
    // Cancel) must not abandon a sent search: it completes, and `withLibrarySaving` keeps the answer in
    // the library. The client's own timeout still bounds it.
    searchShipments: async ({ profileId, request, onBody, onStart }) =>
      (await clientFor(profileId)).shipmentSearch(request, {
        ...(onBody ? { onBody } : {}),
        ...(onStart ? { onStart } : {}),
      }),
    'shipments.count': async ({ profileId, request }, c) =>
      (await clientFor(profileId)).shipmentCount(request, opts(c)),
    'firms.search': async ({ profileId, request }) => (await clientFor(profileId)).firmSearch(request),
    'firms.count': async ({ profileId, request }, c) =>
      (await clientFor(profileId)).firmCount(request, opts(c)),
  };
}
