import { AppError } from '@shared/ipc/errors';
import { DUPLICATE_NAME_MESSAGE, credentialOrigin } from '@shared/profiles/profile-rules';
import { ProfileNameTakenError, type Profile } from '../profiles';
import type { HandlerContext } from './handler-context';
import type { HandlerSlice } from './types';
import { createClientFor } from './profile-session';

type ProfileChannels =
  | 'profiles.list'
  | 'profiles.create'
  | 'profiles.update'
  | 'profiles.delete'
  | 'profiles.setActive'
  | 'profiles.setCredentials'
  | 'profiles.testConnection';

const notFound = () =>
  new AppError(
    'NotFound',
    'That connection profile no longer exists. Reload the profile list and try again.',
  );

/** The store's name clash as a field-level error the profile form shows under Name. */
async function withUniqueName<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (e) {
    if (!(e instanceof ProfileNameTakenError)) throw e;
    throw new AppError(
      'Conflict',
      `There is already a profile named "${e.profileName}". Choose another name.`,
      {
        issues: [{ path: 'name', message: DUPLICATE_NAME_MESSAGE }],
      },
    );
  }
}

export function createProfilesHandlers(ctx: HandlerContext): HandlerSlice<ProfileChannels> {
  const { profiles } = ctx;
  const log = ctx.deps.logger.child('profiles');

  async function mustGet(id: string): Promise<Profile> {
    const p = await profiles.get(id);
    if (!p) throw notFound();
    return p;
  }

  return {
    'profiles.list': () => ctx.state(),

    'profiles.create': async (input) => {
      const { apiKey, apiSecret } = input;
      if ((apiKey === undefined) !== (apiSecret === undefined)) {
        const missing = apiKey === undefined ? 'apiKey' : 'apiSecret';
        throw new AppError('InvalidInput', 'Give both the API key and the API secret, or neither.', {
          issues: [{ path: missing, message: 'required together with the other credential' }],
        });
      }
      const created = await withUniqueName(() =>
        profiles.create({ name: input.name, baseUrl: input.baseUrl, accountName: input.accountName }),
      );
      if (apiKey !== undefined && apiSecret !== undefined) {
        // Masked from the moment main holds it, before a keychain error could echo it.
        ctx.protectCredentials(created.id, { apiKey, apiSecret });
        try {
          await ctx.storeCredentials(created, { apiKey, apiSecret });
        } catch (e) {
          ctx.forgetCredentials(created.id);
          // No half-made profile: without the keychain the credentials have nowhere safe to go.
          await profiles.remove(created.id);
          throw e;
        }
      }
      log.info('profile created', { profileId: created.id, withCredentials: apiKey !== undefined });
      return ctx.toView(created);
    },

    'profiles.update': async ({ id, ...patch }) => {
      const before = await mustGet(id);
      const updated = await withUniqueName(() => profiles.update(id, patch));
      if (!updated) throw notFound();
      if (credentialOrigin(updated.baseUrl) !== credentialOrigin(before.baseUrl)) {
        // Saved for the old server, not this one: they go, and the analyst enters them again for the
        // new address. Were the keychain to refuse, they would still never be used here (credentialsFor
        // checks their origin), only left behind.
        ctx.forgetCredentials(id);
        await ctx
          .secretsFor(updated)
          .deleteCredentials(id)
          .catch((error: unknown) =>
            log.warn('credentials of a moved profile not removed', { profileId: id, error }),
          );
        log.info('profile moved to another origin; its credentials were removed', { profileId: id });
      }
      return ctx.toView(updated);
    },

    'profiles.delete': async ({ id }) => {
      const p = await mustGet(id);
      // The secret goes first: a profile whose deletion failed can be deleted again, an orphaned secret cannot be found.
      await ctx.secretsFor(p).deleteCredentials(id);
      await profiles.remove(id);
      ctx.forgetCredentials(id);
      log.info('profile deleted', { profileId: id });
      return ctx.state();
    },

    'profiles.setActive': async ({ id }) => {
      if (!(await profiles.setActiveId(id))) throw notFound();
      return ctx.state();
    },

    'profiles.setCredentials': async ({ id, apiKey, apiSecret }) => {
      const p = await mustGet(id);
      if (p.demo) {
        throw new AppError(
          'Conflict',
          'The demo workspace uses generated credentials; create your own profile for your account.',
        );
      }
      // The new pair replaces the old one on the scrub list: the old secret is no longer the app's to hide.
      ctx.protectCredentials(id, { apiKey, apiSecret });
      try {
        await ctx.storeCredentials(p, { apiKey, apiSecret });
      } catch (e) {
        // The keychain still holds the old pair (or none), which credentialsFor registers again on use.
        ctx.forgetCredentials(id);
        throw e;
      }
      log.info('credentials stored', { profileId: id });
      return ctx.toView(p);
    },

    'profiles.testConnection': async ({ id }, { signal }) => {
      const p = await mustGet(id);
      const client = await createClientFor(ctx, p);
      // A test must reach the service, however fresh the figures main holds.
      return client.usage({ ...(signal ? { signal } : {}), fresh: true });
    },
  };
}
