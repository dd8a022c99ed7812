import { afterAll, beforeAll } from 'vitest';
import type { AppShell } from '../pages/app-shell';
import { ImportDialog } from '../pages/import-dialog';
import { LibraryPage } from '../pages/library-page';
import { launchBrowser, screenshotOnFailure, type Browser } from './browser';
import { openOnDemo } from './connected';
import { startStack, type Stack } from './stack';

/** What the Library's import tests act on: the stack, the app in the browser, its Library page and import dialog. */
export interface ImportOnDemo {
  readonly stack: Stack;
  readonly browser: Browser;
  readonly shell: AppShell;
  readonly library: LibraryPage;
  readonly dialog: ImportDialog;
}

/**
 * What the tests of files imported into the Library share: a stack whose service holds no records, the
 * app in the browser on the demo workspace, its Library page and import dialog. Started before the
 * calling describe's tests (within 2 minutes), a screenshot taken of each that fails, closed after them.
 */
export function useImportOnDemo(): ImportOnDemo {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  let shell: AppShell | undefined;
  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    stack = await startStack({ records: 0 });
    browser = await launchBrowser();
    shell = await openOnDemo(browser, stack);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close().catch(() => undefined);
  });

  const started = (): { stack: Stack; browser: Browser; shell: AppShell } => {
    if (!stack || !browser || !shell) throw new Error('useImportOnDemo: read before its tests started');
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
    get library() {
      return new LibraryPage(started().browser.page);
    },
    get dialog() {
      return new ImportDialog(started().browser.page);
    },
  };
}
