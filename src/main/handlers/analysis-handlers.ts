import { join } from 'node:path';
import { createAnalysis, tableToXlsx, type Analysis } from '../analysis';
import type { Library } from '../library';
import type { HandlerSlice } from './types';

export type AnalysisChannel =
  | 'analysis.datasets'
  | 'analysis.summary'
  | 'analysis.firmProfile'
  | 'analysis.diff'
  | 'analysis.unitValues'
  | 'analysis.exportXlsx';

export interface AnalysisHandlerDeps {
  /** The app's one library instance (its DuckDB file may be opened only once per process). */
  library: () => Promise<Library>;
  resourcesDir: string;
}

/** Summaries, firm profiles and snapshot diffs over the offline library; inputs arrive checked by the channel schemas. */
export function createAnalysisHandlers(deps: AnalysisHandlerDeps): HandlerSlice<AnalysisChannel> {
  let analysis: { library: Library; analysis: Analysis } | null = null;
  async function get(): Promise<Analysis> {
    const library = await deps.library();
    if (analysis?.library !== library) {
      analysis = {
        library,
        analysis: createAnalysis(library, {
          hsCodesCsvPath: join(deps.resourcesDir, 'data', 'hs-codes.csv'),
        }),
      };
    }
    return analysis.analysis;
  }
  return {
    'analysis.datasets': async () => (await get()).datasets(),
    'analysis.summary': async ({ datasetId, kind, measure, limit, firms }) =>
      (await get()).summary(datasetId, kind, { measure, limit, firms }),
    'analysis.firmProfile': async ({ datasetId, urlCode, firmId, limit }) =>
      (await get()).firmProfile(datasetId, firmId ? { firmId } : (urlCode ?? ''), { limit }),
    'analysis.diff': async ({ baseId, compareId, role, limit, firms }) =>
      (await get()).diff(baseId, compareId, role, { limit, firms }),
    'analysis.unitValues': async ({ datasetId, role, hs, limit }) =>
      (await get()).unitValues(datasetId, role, { limit, ...(hs ? { hs } : {}) }),
    'analysis.exportXlsx': (input) => tableToXlsx(input),
  };
}
