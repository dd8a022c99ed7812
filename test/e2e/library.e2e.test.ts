import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppShell } from './pages/app-shell';
import { LibraryPage } from './pages/library-page';
import { SearchWorkbench } from './pages/search-workbench';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import { startStack, type Stack } from './support/stack';

const RECORDS = 3_000;

describe('Library: every search kept, browsable offline; fetch-all jobs', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let search: SearchWorkbench;
  let library: LibraryPage;
  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    stack = await startStack({ records: RECORDS });
    browser = await launchBrowser();
    search = new SearchWorkbench(browser.page);
    library = new LibraryPage(browser.page);
    shell = await openConnected(browser, stack);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close().catch(() => undefined);
  });

  it('keeps a search in the library; opens it in the grid, sorts in SQL, quick-filters', async () => {
    await shell.navigate('search');
    await browser.page.getByTestId('search-size-100').click();
    await search.run();
    expect(await search.shownAndTotal()).toEqual({ shown: 100, total: RECORDS });

    await shell.navigate('library');
    await library.row('Shipments · all').waitFor();
    const id = await library.idOf('Shipments · all');
    expect(await browser.page.getByTestId(`library-rows-${id}`).getAttribute('data-stored')).toBe('100');
    expect(await browser.page.getByTestId(`library-rows-${id}`).getAttribute('data-total')).toBe(
      String(RECORDS),
    );
    await library.open('Shipments · all');
    expect(await library.waitForRows()).toBe(100);

    await library.sortBy('arrivalDate');
    await library.waitForRows();
    const asc = await library.columnValues('arrivalDate', 5);
    expect(asc).toEqual([...asc].sort());
    await library.sortBy('arrivalDate');
    await library.waitForRows();
    const desc = await library.columnValues('arrivalDate', 5);
    expect(desc).toEqual([...desc].sort().reverse());
    expect(desc[0]! >= asc[4]!).toBe(true);

    const name = (await library.columnValues('importerName', 1))[0]!;
    const word = name.split(/\s+/).find((w) => w.length >= 4) ?? name;
    const matching = await library.quickFilter(word);
    expect(matching).toBeGreaterThan(0);
    expect(matching).toBeLessThan(100);
    await browser.screenshot('library-open-dataset');
  });

  it('offers the saved copy before spending again', async () => {
    await shell.navigate('search');
    await search.runButton.click();
    const offer = browser.page.getByTestId('search-saved-offer');
    await offer.waitFor();
    expect(await browser.page.getByTestId('search-saved-offer-text').textContent()).toMatch(
      /^Saved just now/,
    );
    expect(await browser.page.getByTestId('search-saved-offer-refetch').textContent()).toContain(
      'costs 100 downloads',
    );
    await browser.screenshot('search-saved-offer');
    await browser.page.getByTestId('search-saved-offer-open').click();
    await browser.page.getByTestId('library-detail').waitFor();
    expect(await library.waitForRows()).toBe(100);
  });

  it('renames, tags, and deletes only after confirmation', async () => {
    await shell.navigate('library');
    const id = await library.idOf('Shipments · all');
    await library.open('Shipments · all');
    await library.rename('First hundred');
    await library.setTags('sample, q1');
    await library
      .tagsOf(id)
      .filter({ hasText: /^sample, q1$/ })
      .waitFor();

    await browser.page.getByTestId('library-tag-filter').fill('q1');
    await expect.poll(() => library.rows().count()).toBe(1);
    expect(await library.rowNames()).toEqual(['First hundred']);
    await browser.page.getByTestId('library-tag-filter').fill('');

    const box = await library.askDelete(id);
    await browser.screenshot('library-delete-confirm');
    await box.getByTestId(`library-delete-cancel-${id}`).click();
    expect(await library.row('First hundred').count()).toBe(1);
    await library.askDelete(id);
    await library.confirmDelete(id);
    expect(await library.row('First hundred').count()).toBe(0);
  });

  it('fetches all records as a job with a confirm dialog and progress', async () => {
    await shell.navigate('search');
    await search.runButton.click();
    // The deleted copy is gone, so nothing is offered: the search runs.
    await search.summary.waitFor();
    await browser.page.getByTestId('search-fetch-all').click();
    const dialog = browser.page.getByTestId('fetch-all-dialog');
    await browser.page.locator('[data-testid="fetch-all-dialog"][data-state="ready"]').waitFor();
    expect(await dialog.getByTestId('fetch-all-total').textContent()).toBe(
      `${RECORDS.toLocaleString('en-US')} records`,
    );
    expect(await dialog.getByTestId('fetch-all-downloads').textContent()).toMatch(
      /about 3,0\d\d — unlimited left/,
    );
    await browser.screenshot('fetch-all-confirm');
    await dialog.getByTestId('fetch-all-name').fill('All records');
    // Slow the service down so the progress bar is seen moving.
    stack.sim.setFaults({ latencyMs: 700 });
    await dialog.getByTestId('fetch-all-confirm').click();
    const running = browser.page.locator('[data-testid^="job-running-"]');
    await running.first().waitFor();
    await browser.page.locator('[data-testid^="job-detail-"]').first().waitFor();
    await browser.screenshot('job-running');
    const finished = browser.page.locator('[data-testid^="job-finished-"][data-outcome="succeeded"]');
    await finished.first().waitFor({ timeout: 30_000 });
    stack.sim.setFaults(undefined);
    await finished.first().locator('[data-testid^="job-open-"]').click();
    await browser.page.getByTestId('library-detail').waitFor();
    expect(await browser.page.getByTestId('library-detail-name').textContent()).toBe('All records');
    expect(await library.waitForRows()).toBe(RECORDS);
  }, 60_000);

  it('browses the library with the service stopped', async () => {
    await stack.sim.close();
    await shell.navigate('search');
    await shell.navigate('library');
    await library.row('All records').waitFor();
    await library.open('All records');
    expect(await library.waitForRows()).toBe(RECORDS);
    await library.sortBy('usdFob');
    await library.waitForRows();
    expect((await library.columnValues('arrivalDate', 3)).length).toBe(3);
    await browser.screenshot('library-offline');
    expect(browser.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
