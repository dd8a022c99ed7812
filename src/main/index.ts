/// <reference types="vite/client" />
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeTheme,
  net,
  protocol,
  session,
  shell,
  type WebContents,
} from 'electron';
import { createFileSink, createLogger, type Logger } from './log';
import { createKeytarSecretStore } from './secrets';
import { createDispatcher, createHandlers, type HandlersHandle } from './handlers';
import { APP_SCHEME, resolveAppLocation } from './shell/app-location';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './shell/app-protocol';
import {
  createEventSender,
  registerFileDrop,
  registerIpcHandlers,
  type InvokeEventLike,
} from './shell/ipc-handle';
import { createMainWindow } from './shell/main-window';
import { createOpenDialog, createSaveDialog } from './shell/file-dialogs';
import { buildMenuTemplate } from './shell/menu';
import { contentSecurityPolicy, hardenSession } from './shell/security';
import { isTrustedFrame } from './shell/trusted-sender';

// The dev server's address exists only in a development build: a production build does not even read
// the variable (import.meta.env.DEV is false there, and the bundler drops the branch).
const location = resolveAppLocation({
  devBuild: import.meta.env.DEV,
  packaged: app.isPackaged,
  devServerUrl: import.meta.env.DEV ? process.env['ELECTRON_RENDERER_URL'] : undefined,
  rendererDir: join(__dirname, '../renderer'),
});
const devUrl = location.kind === 'dev' ? location.url : undefined;

let mainWindow: BrowserWindow | null = null;
let handlers: HandlersHandle | null = null;

/** Every web contents, whatever created it, gets the same locks as the main window. */
function lockDown(contents: WebContents): void {
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

async function start(): Promise<void> {
  const dataDir = app.getPath('userData');
  const sink = createFileSink(join(dataDir, 'logs', 'portolan.log'), { maxBytes: 5 * 1024 * 1024, keep: 3 });
  const logger: Logger = createLogger({ sink, level: devUrl ? 'debug' : 'info' });
  logger.info('starting', { version: app.getVersion(), platform: process.platform });
  process.on('uncaughtException', (e) => logger.error('uncaught exception', { error: e }));
  process.on('unhandledRejection', (e) => logger.error('unhandled rejection', { error: e }));

  nativeTheme.themeSource = 'system';
  const csp = contentSecurityPolicy(devUrl ? { url: devUrl } : null);
  hardenSession(session.defaultSession, csp, (permission) =>
    logger.warn('permission request denied', { permission }),
  );
  if (location.kind === 'app') {
    protocol.handle(
      APP_SCHEME,
      createAppProtocolHandler({
        rootDir: location.rootDir,
        csp,
        fetchFile: (path) => net.fetch(pathToFileURL(path).href),
      }),
    );
  }

  const events = createEventSender(() => mainWindow);
  const resourcesDir = app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources');
  const created = createHandlers({
    dataDir,
    resourcesDir,
    logger,
    events,
    secrets: createKeytarSecretStore({ service: 'Portolan' }),
    appInfo: { version: app.getVersion(), host: 'electron' },
    chooseSavePath: createSaveDialog(dialog, () => mainWindow),
    chooseOpenPath: createOpenDialog(dialog, () => mainWindow),
  });
  handlers = created;

  const isTrustedSender = (event: InvokeEventLike) =>
    isTrustedFrame(event.senderFrame, mainWindow?.webContents.mainFrame, location);
  const dispatch = createDispatcher<InvokeEventLike>({ handlers, logger, isTrustedSender });
  registerIpcHandlers(ipcMain, dispatch);
  registerFileDrop(ipcMain, { isTrustedSender, adopt: (path) => created.droppedFiles.adoptImport(path) });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        platform: process.platform,
        appName: app.name,
        dev: devUrl !== undefined,
        send: (command) => events.emit('app.command', command),
        showLog: () => void shell.openPath(join(dataDir, 'logs')),
      }),
    ),
  );

  const openWindow = async () => {
    mainWindow = await createMainWindow({
      location,
      preloadPath: join(__dirname, '../preload/index.cjs'),
      windowStatePath: join(dataDir, 'window-state.json'),
      iconPath: join(resourcesDir, 'icon.png'),
      logger,
    });
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
  };
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void openWindow();
  });
  app.on('before-quit', () => {
    void handlers?.dispose();
    void sink.close();
  });
  // `npm start` passes --demo so a newcomer lands in the demo workspace; a failure leaves the welcome screen.
  if (process.argv.includes('--demo')) {
    await created['demo.start'](undefined, {}).catch((e: unknown) =>
      logger.warn('demo workspace not started', { error: e }),
    );
  }
  await openWindow();
}

// Every file and folder Portolan creates (library, logs, exports, scratch) is the analyst's alone.
process.umask(0o077);
// Before anything else: sandbox every renderer, the app's own scheme (the page never loads from file://),
// and only one Portolan per user.
app.enableSandbox();
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('web-contents-created', (_event, contents) => lockDown(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      console.error('Portolan failed to start', e instanceof Error ? e.message : e);
      app.quit();
    });
}
