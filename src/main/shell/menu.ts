import type { MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '@shared/app/app-contract';
import { commandsOfMenu, type CommandEntry } from '@shared/app/command-table';
import { PAGES } from '@shared/pages';

/** The renderer's pages, in menu order; Ctrl/Cmd+1 … go to them. */
export const NAVIGATION_TARGETS = PAGES.map((p) => ({ target: p.id, label: p.menuLabel }));

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Forwards a command to the renderer as an 'app.command' event. */
  send: (command: AppCommand) => void;
  showLog: () => void;
  /** Dev builds get reload and developer tools. */
  dev: boolean;
}

/** The application menu as data, so the shortcuts can be tested without Electron. */
export function buildMenuTemplate({
  platform,
  appName,
  send,
  showLog,
  dev,
}: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  // The items and their shortcuts come from the command table the command palette also lists.
  const item = (c: CommandEntry): MenuItemConstructorOptions => ({
    label: c.label,
    ...(c.accelerator ? { accelerator: c.accelerator } : {}),
    // Shown, not claimed: the page takes these keys itself, only where they mean something.
    ...(c.pageKeys ? { registerAccelerator: false } : {}),
    click: () => send(c.command),
  });
  const go = commandsOfMenu('go');
  const navigate = go.filter((c) => c.command.command === 'navigate').map(item);
  const actions = go.filter((c) => c.command.command !== 'navigate').map(item);
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        {
          label: 'Settings…',
          accelerator: 'Cmd+,',
          click: () => send({ command: 'navigate', target: 'settings' }),
        },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    {
      label: '&File',
      submenu: [
        ...commandsOfMenu('file').map(item),
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: '&Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: '&Go',
      submenu: [...navigate, { type: 'separator' }, ...actions],
    },
    { label: 'F&irms', submenu: commandsOfMenu('review').map(item) },
    {
      label: '&View',
      submenu: [
        ...commandsOfMenu('view').map(item),
        { type: 'separator' },
        ...(dev
          ? ([
              { role: 'reload' },
              { role: 'toggleDevTools' },
              { type: 'separator' },
            ] as MenuItemConstructorOptions[])
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: '&Help',
      submenu: [...commandsOfMenu('help').map(item), { label: 'Show Log', click: () => showLog() }],
    },
  );
  return template;
}
