import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { EventChannel } from '@shared/ipc/channels';
import type { BridgeResult } from '@shared/ipc/errors';
import { createDispatcher, createHandlers, type HandlersHandle } from '../../src/main/handlers';
import { nullLogger, type Logger } from '../../src/main/log';
import { createMemorySecretStore } from '../../src/main/secrets';

/**
 * What the tests of the Library's import flow from main's side share: the real handlers (and so the
 * real import worker) over a data folder in a fresh folder `prefix…`, called as the app's own window
 * calls them, with every event main sends kept; started once for the calling file's tests and disposed,
 * the folder removed, after them. `logger` is where the handlers log (nowhere by default).
 */
export function useImportHandlers(prefix: string, opts: { logger?: Logger } = {}) {
  let dir: string | undefined;
  let handlers: HandlersHandle | undefined;
  let dispatch: ReturnType<typeof createDispatcher<'app'>> | undefined;
  const events: { event: EventChannel; payload: unknown }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    handlers = createHandlers({
      dataDir: join(dir, 'data'),
      resourcesDir: join(dir, 'resources'),
      logger: opts.logger ?? nullLogger,
      events: { emit: (event, payload) => void events.push({ event, payload }) },
      secrets: createMemorySecretStore(),
      appInfo: { version: '0.0.0-test', host: 'electron' },
    });
    dispatch = createDispatcher<'app'>({ handlers, logger: nullLogger, isTrustedSender: (s) => s === 'app' });
  });

  afterAll(async () => {
    await handlers?.dispose();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useImportHandlers: called before its tests started');
    return value;
  };
  const call = <T>(channel: string, input: unknown) =>
    started(dispatch)(channel, input, 'app') as Promise<BridgeResult<T>>;

  return {
    /** The events main has sent the window, oldest first. */
    events,
    /** The folder the files to import are written to (the data folder is inside it). */
    get dir(): string {
      return started(dir);
    },
    get handlers(): HandlersHandle {
      return started(handlers);
    },
    call,
    /** `call`, expecting success: the value, or a throw naming the error's kind. */
    async ok<T>(channel: string, input: unknown): Promise<T> {
      const r = await call<T>(channel, input);
      if (!r.ok) throw new Error(`${channel}: ${r.error.kind}: ${r.error.message}`);
      return r.value;
    },
  };
}
