import { createAnalysisHandlers } from './analysis-handlers';
import { createAppHandlers } from './app-handlers';
import { withChangeEvents } from './change-events';
import { createDemoHandlers } from './demo-handlers';
import { createExportHandlersFor } from './export-handlers';
import { createJobsHandlers } from './jobs-handlers';
import { createLibraryHandlers, withLibrarySaving } from './library-handlers';
import { createPresetsHandlers } from './presets-handlers';
import { createProfilesHandlers } from './profiles-handlers';
import { createQueryHandlers } from './query-handlers';
import { createResolutionHandlers } from './resolution-handlers';
import { createWatchHandlers } from './watch-handlers';
import { createHandlerContext } from './handler-context';
import { createDroppedFiles } from './dropped-files';
import { createHostFiles } from './host-files';
import type { HandlerDeps, HandlersHandle } from './types';

/**
 * Every bridge call, merged from one slice per capability. To add a capability, add one line here:
 * `...createXHandlers(ctx),` (the Handlers type fails to compile until every channel is covered).
 */
export function createHandlers(deps: HandlerDeps): HandlersHandle {
  const ctx = createHandlerContext(deps);
  const exports = createExportHandlersFor(ctx);
  const handlers = withChangeEvents(ctx, {
    ...createAppHandlers(ctx),
    ...createProfilesHandlers(ctx),
    ...createDemoHandlers(ctx),
    ...withLibrarySaving(ctx, createQueryHandlers(ctx)),
    ...createPresetsHandlers({ dataDir: deps.dataDir }),
    ...createAnalysisHandlers({ library: () => ctx.library(), resourcesDir: deps.resourcesDir }),
    ...createLibraryHandlers(ctx),
    ...createResolutionHandlers({ library: () => ctx.library(), events: deps.events }),
    ...createJobsHandlers(ctx),
    ...createWatchHandlers(ctx),
    ...exports.calls,
  });
  return {
    ...handlers,
    hostFiles: createHostFiles(deps.dataDir, ctx.files),
    droppedFiles: createDroppedFiles(ctx.files),
    // Running exports are cancelled first (no half-written files stay behind), then the library closes.
    dispose: async () => {
      await exports.dispose();
      await ctx.dispose();
    },
  };
}
