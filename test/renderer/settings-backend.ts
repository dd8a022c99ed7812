import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BridgeResult } from '@shared/ipc/errors';
import { createLogger, createMemorySink } from '../../src/main/log';
import { createMemorySecretStore } from '../../src/main/secrets';
import { createDispatcher, createHandlers } from '../../src/main/handlers';

export interface SettingsBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  /** Every channel the window called, in order: proves what was (not) sent. */
  sent: string[];
  close(): Promise<void>;
}

/**
 * The real profile handlers behind the real dispatcher, in process, for the settings form tests.
 * Secrets go to a memory store: the keychain is not what these tests are about.
 */
export async function startSettingsBackend(): Promise<SettingsBackend> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portolan-settings-form-'));
  const logger = createLogger({ sink: createMemorySink() });
  const handlers = createHandlers({
    dataDir,
    resourcesDir: join(dataDir, 'resources'),
    logger,
    events: { emit: () => undefined },
    secrets: createMemorySecretStore(),
    appInfo: { version: '0.0.0-test', host: 'browser' },
  });
  const dispatch = createDispatcher<'app'>({ handlers, logger, isTrustedSender: () => true });
  const sent: string[] = [];
  return {
    sent,
    invoke: (channel, input) => {
      sent.push(channel);
      return dispatch(channel, input, 'app');
    },
    async close() {
      await handlers.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
