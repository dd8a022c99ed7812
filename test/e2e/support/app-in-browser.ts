import { afterAll, beforeAll } from 'vitest';
import type { AppShell } from '../pages/app-shell';
import { launchBrowser, screenshotOnFailure, type Browser } from './browser';
import { openConnected } from './connected';
import { startStack, type Stack } from './stack';

/** What an end-to-end test acts on: the stack, the app in the browser, its shell. */
export interface AppInBrowser {
  readonly stack: Stack;
  readonly browser: Browser;
  readonly shell: AppShell;
}

/**
 * A stack started with `stack`'s options (`prepare` then sets up its service, before the app first
 * asks it) and the app in the browser, opened on it by `open`: started before the calling file's or
 * describe's tests (within 2 minutes), a screenshot taken of each that fails, closed after them.
 */
export function useAppInBrowser(opts: {
  stack?: Parameters<typeof startStack>[0];
  prepare?: (stack: Stack) => void;
  open: (browser: Browser, stack: Stack) => Promise<AppShell>;
}): AppInBrowser {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  let shell: AppShell | undefined;

  beforeAll(async () => {
    stack = await startStack(opts.stack);
    opts.prepare?.(stack);
    browser = await launchBrowser();
    shell = await opts.open(browser, stack);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close().catch(() => undefined);
  });
  screenshotOnFailure(() => browser);

  const started = (): AppInBrowser => {
    if (!stack || !browser || !shell) throw new Error('useAppInBrowser: read before its tests started');
    return { stack, browser, shell };
  };
  return {
    get stack() {
      return started().stack;
    },
    get browser() {
      return started().browser;
    },
    get shell() {
      return started().shell;
    },
  };
}

/** useAppInBrowser with the stack's account as the active profile (openConnected). */
export const useConnectedApp = (opts: Omit<Parameters<typeof useAppInBrowser>[0], 'open'> = {}) =>
  useAppInBrowser({ ...opts, open: openConnected });
