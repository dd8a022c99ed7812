import type { HandlerContext } from './handler-context';
import type { HandlerSlice } from './types';

export function createDemoHandlers(ctx: HandlerContext): HandlerSlice<'demo.start'> {
  return {
    'demo.start': async () => {
      await ctx.demo.start();
      return ctx.state();
    },
  };
}
