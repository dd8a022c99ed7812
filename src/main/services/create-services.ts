import { createAnalysisService } from './analysis-service';
import { createAppService } from './app-service';
import { createDemoService } from './demo-service';
import { createExportServices } from './export-service';
import { createJobsService } from './jobs-service';
import { createLibraryService, withLibrarySaving } from './library-service';
import { createPresetsServices } from './presets-service';
import { createProfilesService } from './profiles-service';
import { createQueryService } from './query-service';
import { createServiceContext } from './service-context';
import { createShellService } from './shell-service';
import type { ServiceDeps, ServicesHandle } from './types';

/**
 * Every bridge call, merged from one slice per capability. To add a capability, add one line here:
 * `...createXService(ctx),` (the Services type fails to compile until every channel is covered).
 */
export function createServices(deps: ServiceDeps): ServicesHandle {
  const ctx = createServiceContext(deps);
  const exports = createExportServices(ctx);
  return {
    ...createAppService(ctx),
    ...createProfilesService(ctx),
    ...createDemoService(ctx),
    ...withLibrarySaving(ctx, createQueryService(ctx)),
    ...createShellService(ctx),
    ...createPresetsServices({ dataDir: deps.dataDir }),
    ...createAnalysisService({ library: () => ctx.library(), resourcesDir: deps.resourcesDir }),
    ...createLibraryService(ctx),
    ...createJobsService(ctx),
    ...exports.calls,
    // Running exports are cancelled first (no half-written files stay behind), then the library closes.
    dispose: async () => {
      await exports.dispose();
      await ctx.dispose();
    },
  };
}
