import type { HandlerContext } from './handler-context';
import type { HandlerSlice } from './types';

export function createAppHandlers(ctx: HandlerContext): HandlerSlice<'app.info'> {
  return {
    'app.info': async () => ({ ...ctx.deps.appInfo, platform: process.platform }),
  };
}
