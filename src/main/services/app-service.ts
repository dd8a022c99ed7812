import type { ServiceContext } from './service-context';
import type { ServiceSlice } from './types';

export function createAppService(ctx: ServiceContext): ServiceSlice<'app.info'> {
  return {
    'app.info': async () => ({ ...ctx.deps.appInfo, platform: process.platform }),
  };
}
