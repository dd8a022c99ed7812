import { z } from 'zod';
import { defineCall } from '../define-call';

/** The app itself: its version and host, and the menu's commands. */

export interface AppInfo {
  version: string;
  host: 'electron' | 'browser';
  platform: string;
}

/** Menu commands the shell forwards to the renderer (navigation, focus search, …). */
export interface AppCommand {
  command: 'navigate' | 'run-search' | 'focus-filter';
  target?: string;
}

export const appCalls = {
  'app.info': defineCall<AppInfo>()(z.undefined()),
};

export interface AppEvents {
  'app.command': AppCommand;
}
