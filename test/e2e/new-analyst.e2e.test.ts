import { open as openFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppShell } from './pages/app-shell';
import { ExportDialog } from './pages/export-dialog';
import { LibraryPage } from './pages/library-page';
import { SearchWorkbench } from './pages/search-workbench';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { startStack, type Stack } from './support/stack';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

/**
 * A new analyst's first session, in Chromium over the browser host, found by the names on screen
 * alone (roles and visible labels, no documentation): the demo, a search, a preset, an export to
 * Excel, a dataset opened from the Library without asking the service, and Escape on every dialog
 * met on the way, the focus back where it was. Screenshots of each step at both window sizes, light
 * and dark.
 */
describe('a new analyst, without documentation', () => {
  let stack: Stack;
  let browser: Browser;
  screenshotOnFailure(() => browser);

  /** Requests the app sent to the service (the client in main logs every attempt). */
  const requestsSent = () => stack.log.lines.filter((l) => l.includes('"msg":"request"')).length;
  /** The element that has the focus, named by its test id or its text. */
  const focused = () =>
    browser.page.evaluate<string | null>(
      "document.activeElement && (document.activeElement.getAttribute('data-testid') || (document.activeElement.textContent || '').trim())",
    );

  /** Screenshots of the page as it is now, at both sizes, in light and dark; back to 1440×900 light. */
  async function shoot(name: string): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      await browser.page.emulateMedia({ colorScheme: scheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        await browser.page.waitForTimeout(150);
        await browser.screenshot(`new-analyst-${name}-${size.width}x${size.height}-${scheme}`);
      }
    }
    await browser.page.emulateMedia({ colorScheme: 'light' });
    await browser.page.setViewportSize(SIZES[0]);
  }

  beforeAll(async () => {
    stack = await startStack({ records: 0 });
    browser = await launchBrowser();
    await browser.page.setViewportSize(SIZES[0]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('finds the demo, runs a search, saves a preset, exports to Excel and opens the dataset offline', async () => {
    const page = browser.page;
    const shell = new AppShell(page);
    await shell.open(stack.host.url);
    await shoot('01-welcome');
    await page.getByRole('button', { name: /Try with demo data/ }).click();
    const search = new SearchWorkbench(page);
    await search.root.waitFor({ timeout: 60_000 });

    // Before any search, the page says what to do; the Run button is named as it says.
    await page.getByTestId('search-empty').waitFor();
    await shoot('02-search-before');
    const run = page.getByRole('button', { name: 'Search shipments' });
    expect(await run.isVisible()).toBe(true);

    await page.getByLabel('Product description').fill('steel');
    await page.getByRole('button', { name: '100', exact: true }).click();
    await run.click();
    await search.summary.waitFor({ timeout: 60_000 });
    await search.grid.locator('.ag-row[row-index="0"]').first().waitFor();
    expect(await page.getByTestId('search-empty').count()).toBe(0);
    await shoot('03-search-result');

    // Fetch all, and the jobs tray: Escape closes each, the focus goes back to the button that opened it.
    const fetchAll = page.getByRole('button', { name: /^Fetch all/ });
    await fetchAll.click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('search-fetch-all');
    const jobs = page.getByRole('button', { name: /^Jobs/ });
    await jobs.click();
    await page.getByTestId('jobs-panel').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('jobs-panel').waitFor({ state: 'detached' });
    await expect.poll(focused).toBe(await jobs.getAttribute('data-testid'));

    // A preset: the name field and Save, in the side list.
    await page.getByPlaceholder('Name for this filter').fill('Steel, first look');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await search.preset('Steel, first look').waitFor();

    // Export to Excel: Escape first closes the dialog and gives the focus back to Export….
    const exportButton = page.getByRole('button', { name: 'Export…' });
    await exportButton.click();
    const dialog = new ExportDialog(page);
    await dialog.dialog.waitFor();
    await shoot('04-export-dialog');
    await page.keyboard.press('Escape');
    await dialog.dialog.waitFor({ state: 'detached' });
    expect(await focused()).toBe('export-open');

    await exportButton.click();
    await dialog.chooseFormat('xlsx');
    await dialog.chooseFile();
    await dialog.start();
    await dialog.waitForStep('done');
    expect((await dialog.outcome()).outcome).toBe('succeeded');
    const saved = await dialog.download();
    const head = Buffer.alloc(2);
    const fh = await openFile(saved);
    await fh.read(head, 0, 2, 0);
    await fh.close();
    expect(head.toString('latin1')).toBe('PK'); // an .xlsx is a zip
    await page.keyboard.press('Escape');
    await dialog.dialog.waitFor({ state: 'detached' });
    expect(await focused()).toBe('export-open');

    // The command palette: Escape closes it, the focus returns to where it was.
    await page.getByLabel('Product description').focus();
    await page.keyboard.press('Control+K');
    await page.getByTestId('command-palette-search').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('command-palette-search').waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('filter-product_detail-input');

    // The Library: the search is there, and opens without a request to the service.
    const before = requestsSent();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Library/ })
      .click();
    const library = new LibraryPage(page);
    await library.root.waitFor();
    const names = await library.rowNames();
    expect(names.length).toBeGreaterThan(0);
    await library.open(names[0] as string);
    expect(await library.waitForRows()).toBeGreaterThan(0);
    await shoot('05-library-open');
    expect(requestsSent()).toBe(before);

    // The delete confirmation: Escape keeps the dataset, and the focus goes back to its menu.
    const id = await library.idOf(names[0] as string);
    await library.askDelete(id);
    await page.keyboard.press('Escape');
    await page.getByTestId(`library-delete-confirm-box-${id}`).waitFor({ state: 'detached' });
    await expect.poll(focused).toBe(`library-menu-${id}`);
    expect(await library.rowNames()).toEqual(names);
    expect(browser.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
