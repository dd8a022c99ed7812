import { ImportDialog } from '../pages/import-dialog';
import { LibraryPage } from '../pages/library-page';
import { useAppInBrowser, type AppInBrowser } from './app-in-browser';
import { openOnDemo } from './connected';

/** What the Library's import tests act on: the stack, the app in the browser, its Library page and import dialog. */
export interface ImportOnDemo extends AppInBrowser {
  readonly library: LibraryPage;
  readonly dialog: ImportDialog;
}

/**
 * What the tests of files imported into the Library share: a stack whose service holds no records, the
 * app in the browser on the demo workspace (useAppInBrowser), its Library page and import dialog.
 */
export function useImportOnDemo(): ImportOnDemo {
  const app = useAppInBrowser({ stack: { records: 0 }, open: openOnDemo });
  return Object.defineProperties(app, {
    library: { get: () => new LibraryPage(app.browser.page) },
    dialog: { get: () => new ImportDialog(app.browser.page) },
  }) as ImportOnDemo;
}
