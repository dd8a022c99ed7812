import { createServiceClient, type ServiceClient } from '../api';
import type { Profile } from '../profiles';
import type { HandlerContext } from './handler-context';
import type { CallContext, HandlerSlice } from './types';

type QueryChannels = 'usage.get' | 'shipments.search' | 'shipments.count' | 'firms.search' | 'firms.count';

/**
 * A signed client for one profile; the secret is read from its store for this client only. The
 * profile's default account is sent as `account_name` whenever a request names none, so searches,
 * counts and jobs are charged to the account the analyst chose rather than the service's default.
 */
export async function createClientFor(ctx: HandlerContext, profile: Profile): Promise<ServiceClient> {
  const credentials = await ctx.credentialsFor(profile);
  const client = createServiceClient({
    baseUrl: profile.baseUrl,
    credentials,
    logger: ctx.deps.logger,
    ...ctx.deps.clientOptions,
  });
  const account = profile.accountName.trim();
  if (!account) return client;
  const withAccount = <R extends { account_name?: string }>(req: R): R =>
    req.account_name ? req : { ...req, account_name: account };
  return {
    ...client,
    shipmentSearch: (req, o) => client.shipmentSearch(withAccount(req), o),
    shipmentCount: (req, o) => client.shipmentCount(withAccount(req), o),
    firmSearch: (req, o) => client.firmSearch(withAccount(req), o),
    firmCount: (req, o) => client.firmCount(withAccount(req), o),
  };
}

const opts = (c: CallContext) => (c.signal ? { signal: c.signal } : {});

export function createQueryHandlers(ctx: HandlerContext): HandlerSlice<QueryChannels> {
  const clientFor = async (profileId: string | undefined) =>
    createClientFor(ctx, await ctx.resolveProfile(profileId));
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
