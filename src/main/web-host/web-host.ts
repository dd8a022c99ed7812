import {
  createHandlers,
  createDispatcher,
  type HandlerDeps,
  type Handlers,
  type HostFiles,
} from '../handlers';
import { nullLogger, type Logger } from '../log';
import { createEventHub, type EventHub } from './event-hub';
import { startWebServer, type WebSender } from './web-server';

/**
 * What the web host needs to build the handlers itself. It supplies `events` (its SSE hub) and
 * `appInfo.host = 'browser'`, and no dialogs: files come in as uploads and exports go to its own folder.
 */
export type WebHostDeps = Omit<HandlerDeps, 'events' | 'appInfo' | 'chooseSavePath' | 'chooseOpenPath'> & {
  version: string;
};

export interface WebHostOptions {
  rendererDir: string;
  port?: number;
  logger?: Logger;
  /** Either deps to build real handlers from … */
  deps?: WebHostDeps;
  /** … or handlers already built around `hub` (the caller then owns their disposal), with their uploads. */
  handlers?: Handlers & { hostFiles?: HostFiles };
  hub?: EventHub;
  /** For tests only. */
  token?: string;
}

export interface WebHost {
  /** Launch URL including `#token=…`. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /** The sink the handlers emit into; every open /events stream receives what is emitted here. */
  readonly events: EventHub;
  close(): Promise<void>;
}

/** The browser test host: the main-process handlers, unchanged, behind the same bridge contract on 127.0.0.1. */
export async function createWebHost(opts: WebHostOptions): Promise<WebHost> {
  const logger = (opts.logger ?? nullLogger).child('web-host');
  const hub = opts.hub ?? createEventHub();
  let handlers: Handlers;
  let files: HostFiles | undefined;
  let dispose: () => Promise<void> = async () => undefined;
  if (opts.handlers) {
    handlers = opts.handlers;
    files = opts.handlers.hostFiles;
  } else if (opts.deps) {
    const { version, ...rest } = opts.deps;
    const handle = createHandlers({
      ...rest,
      logger: opts.deps.logger,
      events: hub,
      appInfo: { version, host: 'browser' },
    });
    handlers = handle;
    files = handle.hostFiles;
    dispose = () => handle.dispose();
  } else {
    throw new Error('createWebHost needs deps or handlers');
  }
  // Requests reach the dispatcher only after the token, Host and Origin checks of the server.
  const dispatch = createDispatcher<WebSender>({
    handlers,
    logger,
    isTrustedSender: (s) => s.kind === 'web',
  });
  let server;
  try {
    server = await startWebServer({
      rendererDir: opts.rendererDir,
      port: opts.port,
      logger,
      hub,
      token: opts.token,
      ...(files ? { files } : {}),
      dispatch: (channel, input, sender) => dispatch(channel, input, sender, { signal: sender.signal }),
    });
  } catch (e) {
    await dispose();
    throw e;
  }
  const started = server;
  return {
    url: started.url,
    origin: started.origin,
    port: started.port,
    token: started.token,
    events: hub,
    async close() {
      await started.close();
      await dispose();
    },
  };
}
