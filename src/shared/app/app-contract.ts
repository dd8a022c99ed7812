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
  | { command: 'command-palette' }
  /** File → Import a File… (Ctrl/Cmd+O): the Library's Import, from any page. */
  | { command: 'import-file' }
  /** File → New Profile…: Settings with a new connection profile's form open. */
  | { command: 'new-profile' }
  /** View → Refresh Usage: the Usage page, with the figures read again (at most once a minute, as its Refresh). */
  | { command: 'refresh-usage' }
  /** Help → Keyboard Shortcuts (Ctrl/Cmd+/): every shortcut of the command table, listed. */
  | { command: 'shortcuts' }
  /** Firms → Review queue: a verdict on the pair shown, or a move through the queue (A, R, ↓, ↑, Ctrl/Cmd+Z). */
  | { command: 'review'; action: ReviewAction };

/** What the review queue's keys do: same firm, different firms, next or previous pair, undo the last verdict. */
export type ReviewAction = 'same' | 'different' | 'next' | 'previous' | 'undo';

export const appCalls = {
  'app.info': defineCall<AppInfo>()(z.undefined()),
};

export interface AppEvents {
  'app.command': AppCommand;
}
