import type { ServiceContext } from './service-context';
import type { ServiceSlice } from './types';

export function createDemoService(ctx: ServiceContext): ServiceSlice<'demo.start'> {
  return {
    'demo.start': async () => {
      await ctx.demo.start();
      return ctx.state();
    },
  };
}
