import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BridgeResult } from '@shared/ipc/errors';
import { createLogger, createMemorySink } from '../../src/main/log';
import { createKeytarSecretStore, createMemorySecretStore, type KeytarLike } from '../../src/main/secrets';
import { createDispatcher, createHandlers } from '../../src/main/handlers';

export interface SettingsBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  /** Every channel the window called, in order: proves what was (not) sent. */
  sent: string[];
  /** Unlocks the keyring of a backend started with a locked one. */
  unlock(): void;
  close(): Promise<void>;
}

/**
 * A keyring that refuses every call as the Secret Service refuses one on a locked collection (its
 * words, through the real keytar store) until it is unlocked; then it keeps items in memory.
 */
function lockedKeyring(): { keytar: KeytarLike; unlock(): void } {
  let locked = true;
  const items = new Map<string, string>();
  const open = (): void => {
    if (locked) throw new Error('Cannot create an item in a locked collection');
  };
  return {
    unlock: () => {
      locked = false;
    },
    keytar: {
      getPassword: async (service, account) => (open(), items.get(`${service}/${account}`) ?? null),
      setPassword: async (service, account, password) => {
        open();
        items.set(`${service}/${account}`, password);
      },
      deletePassword: async (service, account) => (open(), items.delete(`${service}/${account}`)),
    },
  };
}

/**
 * The real profile handlers behind the real dispatcher, in process, for the settings form tests.
 * Secrets go to a memory store (the keychain is not what these tests are about), or through the
 * keytar store to a keyring that is locked.
 */
export async function startSettingsBackend(opts: { keyring?: 'locked' } = {}): Promise<SettingsBackend> {
  const keyring = opts.keyring === 'locked' ? lockedKeyring() : null;
  const dataDir = await mkdtemp(join(tmpdir(), 'portolan-settings-form-'));
  const logger = createLogger({ sink: createMemorySink() });
  const handlers = createHandlers({
    dataDir,
    resourcesDir: join(dataDir, 'resources'),
    logger,
    events: { emit: () => undefined },
    secrets: keyring
      ? createKeytarSecretStore({ service: 'Portolan-test', keytar: keyring.keytar, platform: 'linux' })
      : createMemorySecretStore(),
    appInfo: { version: '0.0.0-test', host: 'browser' },
  });
  const dispatch = createDispatcher<'app'>({ handlers, logger, isTrustedSender: () => true });
  const sent: string[] = [];
  return {
    sent,
    unlock: () => keyring?.unlock(),
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
