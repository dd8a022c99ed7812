import { resolve } from 'node:path';
import type { BridgeResult } from '@shared/ipc/errors';
import { createLogger, createMemorySink } from '../../src/main/log';
import { createAnalysisService } from '../../src/main/services/analysis-service';
import { createDispatcher } from '../../src/main/services/dispatcher';
import type { Services } from '../../src/main/services/types';
import { openFixture, save, simRecords, withGaps, type Rec } from './fixtures';

export interface PageBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  ids: { before: string; after: string };
  before: Rec[];
  after: Rec[];
  close(): Promise<void>;
}

/**
 * The real analysis calls behind the real dispatcher (schema checks, error conversion), in process,
 * for the renderer's page test; only the other capabilities' channels are absent.
 */
export async function startPageBackend(): Promise<PageBackend> {
  const fx = await openFixture();
  const records = withGaps(simRecords(900, 9));
  const before = records.slice(0, 600);
  const after = records.slice(300);
  const beforeId = await save(fx.library, before, 'Before');
  const afterId = await save(fx.library, after, 'After');
  const slice = createAnalysisService({
    library: async () => fx.library,
    resourcesDir: resolve(import.meta.dirname, '../../resources'),
  });
  const dispatch = createDispatcher<string>({
    services: slice as unknown as Services,
    isTrustedSender: () => true,
    logger: createLogger({ sink: createMemorySink() }),
  });
  return {
    invoke: (channel, input) => dispatch(channel, input, 'page-test'),
    ids: { before: beforeId, after: afterId },
    before,
    after,
    close: fx.cleanup,
  };
}
