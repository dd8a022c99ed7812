import { createServiceClient } from '../api';
import type { Profile } from '../profiles';
import type { ServiceContext } from './service-context';
import type { CallContext, ServiceSlice } from './types';

type QueryChannels = 'usage.get' | 'shipments.search' | 'shipments.count' | 'firms.search' | 'firms.count';

/** A signed client for one profile; the secret is read from its store for this client only. */
export async function createClientFor(ctx: ServiceContext, profile: Profile) {
  const credentials = await ctx.credentialsFor(profile);
  return createServiceClient({
    baseUrl: profile.baseUrl,
    credentials,
    logger: ctx.deps.logger,
    ...ctx.deps.clientOptions,
  });
}

const opts = (c: CallContext) => (c.signal ? { signal: c.signal } : {});

export function createQueryService(ctx: ServiceContext): ServiceSlice<QueryChannels> {
  const clientFor = async (profileId: string | undefined) => createClientFor(ctx, await ctx.resolveProfile(profileId));
  return {
    'usage.get': async ({ profileId }, c) => (await clientFor(profileId)).usage(opts(c)),
    'shipments.search': async ({ profileId, request }, c) => (await clientFor(profileId)).shipmentSearch(request, opts(c)),
    'shipments.count': async ({ profileId, request }, c) => (await clientFor(profileId)).shipmentCount(request, opts(c)),
    'firms.search': async ({ profileId, request }, c) => (await clientFor(profileId)).firmSearch(request, opts(c)),
    'firms.count': async ({ profileId, request }, c) => (await clientFor(profileId)).firmCount(request, opts(c)),
  };
}
