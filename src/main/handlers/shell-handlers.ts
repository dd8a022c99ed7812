import { AppError } from '@shared/ipc/errors';
import { DEFAULT_EXTERNAL_HOSTS, httpsHostOf, isAllowedExternalUrl } from './external-url';
import type { HandlerContext } from './handler-context';
import type { HandlerSlice } from './types';

/** The https hosts links may open: the defaults, the host's extras, and each profile's own service host. */
export async function allowedExternalHosts(ctx: HandlerContext): Promise<Set<string>> {
  const hosts = new Set(
    [...DEFAULT_EXTERNAL_HOSTS, ...(ctx.deps.externalHosts ?? [])].map((h) => h.toLowerCase()),
  );
  for (const p of await ctx.profiles.list()) {
    const h = httpsHostOf(p.baseUrl);
    if (h) hosts.add(h);
  }
  return hosts;
}

export function createShellHandlers(ctx: HandlerContext): HandlerSlice<'shell.openExternal'> {
  return {
    'shell.openExternal': async ({ url }) => {
      const open = ctx.deps.openExternal;
      if (!open)
        throw new AppError('Forbidden', 'This version of Portolan cannot open links in your browser.');
      if (!isAllowedExternalUrl(url, await allowedExternalHosts(ctx))) {
        throw new AppError(
          'Forbidden',
          `Portolan only opens links to known sites; ${new URL(url).hostname} is not one of them.`,
        );
      }
      await open(url);
    },
  };
}
