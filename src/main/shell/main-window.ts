import { BrowserWindow, nativeTheme, screen } from 'electron';
import type { Logger } from '../log';
import { appEntryUrl, type AppLocation } from './app-location';
import { loadWindowState, MIN_SIZE, restoreBounds, saveWindowState } from './window-state';

export interface MainWindowOptions {
  location: AppLocation;
  preloadPath: string;
  windowStatePath: string;
  iconPath?: string;
  logger: Logger;
}

const background = () => (nativeTheme.shouldUseDarkColors ? '#1e1f22' : '#ffffff');

export async function createMainWindow(opts: MainWindowOptions): Promise<BrowserWindow> {
  const log = opts.logger.child('window');
  const saved = await loadWindowState(opts.windowStatePath);
  const { bounds, maximized } = restoreBounds(
    saved,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: 'Portolan',
    backgroundColor: background(),
    ...(opts.iconPath ? { icon: opts.iconPath } : {}),
    // Written out here, not built by a helper, so the electronegativity scan can check every flag.
    webPreferences: {
      preload: opts.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      // Middle-click would otherwise open links through a path will-navigate does not see.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  const onThemeChange = () => win.setBackgroundColor(background());
  nativeTheme.on('updated', onThemeChange);

  // The window never leaves the app and never hands a link to the OS: the app shows no external links,
  // so any attempt is a fault or an attack, and is only logged.
  const leave = (url: string) => {
    log.warn('navigation away from the app blocked', { url: url.slice(0, 200) });
  };
  win.webContents.on('will-navigate', (event, url) => {
    event.preventDefault();
    leave(url);
  });
  win.webContents.on('will-redirect', (event, url) => {
    event.preventDefault();
    leave(url);
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    leave(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());

  let timer: NodeJS.Timeout | undefined;
  const persist = () => {
    if (win.isDestroyed()) return;
    const state = {
      bounds: win.isMaximized() ? win.getNormalBounds() : win.getBounds(),
      maximized: win.isMaximized(),
    };
    saveWindowState(opts.windowStatePath, state).catch((e: unknown) =>
      log.warn('window state not saved', { error: e }),
    );
  };
  const persistSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(persist, 500);
  };
  win.on('resize', persistSoon);
  win.on('move', persistSoon);
  win.on('close', () => {
    clearTimeout(timer);
    persist();
  });
  win.on('closed', () => nativeTheme.removeListener('updated', onThemeChange));

  await win.loadURL(appEntryUrl(opts.location));
  return win;
}
