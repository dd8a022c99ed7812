import { createServiceClient, type ServiceClient } from '../api';
import type { Provenance } from '../library';
import type { Profile } from '../profiles';
import type { HandlerContext } from './handler-context';

/**
 * One call's connection: the profile resolved once (the one named, or the active one at the start of
 * the call), the provenance its results are saved under, and its signed client, built on demand (a
 * call that only reads the library never touches the keychain).
 */
export interface ProfileSession {
  profile: Profile;
  provenance: Provenance;
  client(): Promise<ServiceClient>;
}

export async function openProfileSession(
  ctx: HandlerContext,
  profileId: string | undefined,
  request: { account_name?: string | undefined } = {},
): Promise<ProfileSession> {
  const profile = await ctx.resolveProfile(profileId);
  let client: Promise<ServiceClient> | null = null;
  return {
    profile,
    provenance: provenanceOf(profile, request),
    client: () => (client ??= createClientFor(ctx, profile)),
  };
}

/** Who a result is saved under: the profile, and the account charged (the request's, else the profile's default). */
export function provenanceOf(profile: Profile, request: { account_name?: string | undefined }): Provenance {
  const account = request.account_name?.trim() || profile.accountName || null;
  return { profileId: profile.id, profileName: profile.name, account };
}

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
    // Every attempt tells whether the service answers, whoever made it (a page, a job, a test).
    onReach: (reach, error) => ctx.connection.report(profile.id, profile.baseUrl, reach, error?.message),
    answeredBefore: () => ctx.connection.answeredBefore(profile.id, profile.baseUrl),
    // After the credentials: a demo brought back has a new address, and so a new ledger.
    usageLedger: ctx.usage.of(profile),
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
