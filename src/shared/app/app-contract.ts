import { z } from 'zod';
import { defineCall } from '../define-call';
import type { PageId } from '../pages';

/** The app itself: its version and host, and the menu's commands. */

export interface AppInfo {
  version: string;
  host: 'electron' | 'browser';
  platform: string;
}

/**
 * What the application menu (and its shortcuts) asks the window to do; the shell forwards it as an
 * `app.command` event. One variant per command, so the window's switch over them is exhaustive.
 */
export type AppCommand =
  /** Go to a page (Ctrl/Cmd+1 …, Settings…). */
  | { command: 'navigate'; target: PageId }
  /** Run Search (Ctrl/Cmd+Enter): run the search of the page shown, as its Run button would. */
  | { command: 'run-search' }
  /** Edit Filter (Ctrl/Cmd+L): show the filter and put the focus in its first field. */
  | { command: 'focus-filter' }
  /** Command Palette… (Ctrl/Cmd+K): find a page, a preset, a dataset or a command by name. */
  | { command: 'command-palette' };

export const appCalls = {
  'app.info': defineCall<AppInfo>()(z.undefined()),
};

export interface AppEvents {
  'app.command': AppCommand;
}
