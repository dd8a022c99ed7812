/**
 * Starts the browser test host by hand: the real main-process handlers (real keychain, a data dir)
 * behind HTTP on 127.0.0.1, serving the built renderer. Prints the launch URL with its token.
 *
 *   npm run web -- [--data-dir DIR] [--port N] [--demo]
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createHandlers } from '../src/main/handlers/create-handlers';
import { createLogger, createFileSink } from '../src/main/log';
import { createKeytarSecretStore } from '../src/main/secrets';
import { createEventHub, createWebHost } from '../src/main/web-host';

const root = resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  // As the desktop app: every file and folder the host creates is the analyst's alone.
  process.umask(0o077);
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      demo: { type: 'boolean', default: false },
      'renderer-dir': { type: 'string' },
    },
  });
  const dataDir = resolve(values['data-dir'] ?? join(root, '.portolan-dev'));
  const rendererDir = resolve(values['renderer-dir'] ?? join(root, 'out', 'renderer'));
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0–65535, not ${values.port}`);
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(
      `${rendererDir}/index.html is missing: run \`npx electron-vite build\` first (npm run web does).`,
    );
  }
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  const sink = createFileSink(join(dataDir, 'logs', 'web-host.log'));
  const logger = createLogger({ sink });
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

  const hub = createEventHub();
  const handlers = createHandlers({
    dataDir,
    resourcesDir: join(root, 'resources'),
    logger,
    events: hub,
    // A separate keychain service name keeps these dev profiles apart from the desktop app's.
    secrets: createKeytarSecretStore({ service: 'Portolan (browser host)' }),
    appInfo: { version, host: 'browser' },
  });
  const host = await createWebHost({ rendererDir, port, logger, handlers, hub });
  if (values.demo) {
    try {
      await handlers['demo.start'](undefined, {});
    } catch (e) {
      console.error(`The demo workspace did not start: ${(e as Error).message}`);
    }
  }

  console.log(`Portolan browser host (data in ${dataDir})`);
  console.log(`Open: ${host.url}`);
  console.log('Press Ctrl+C to stop.');

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await host.close();
    await handlers.dispose();
    await sink.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
