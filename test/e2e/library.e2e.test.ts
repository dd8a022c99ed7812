import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPMENT_FIELDS, type ShipmentRecord } from '@shared/spec';
import type { AppShell } from './pages/app-shell';
import { LibraryPage } from './pages/library-page';
import { SearchWorkbench } from './pages/search-workbench';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import {
  allowClipboard,
  excelBlock,
  expectBlockSummed,
  shown,
  SHIPMENT_COLUMN_GROUPS,
} from './support/grid-block';
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
    await allowClipboard(browser, stack);
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

  it('selects a block in the open dataset: the status bar sums it, Ctrl+C copies it for Excel; Enter or double-click opens the whole record', async () => {
    expect(await library.quickFilter('')).toBe(100);
    const grid = library.table;
    const records = new Map<string, ShipmentRecord>();
    for (const r of stack.sim.dataset.records()) records.set(r.hashId, r);

    // Which records rows 1…4 are, from the record view; their values from the simulator's own data.
    const hashes: string[] = [];
    for (let row = 1; row <= 4; row++) hashes.push(await library.hashOfRow(row));
    const block = hashes.map((h) => {
      const rec = records.get(h);
      if (!rec) throw new Error(`row ${h} is not in the service's data`);
      return [rec.netWeight, String(rec.quantity), rec.quantityUnit];
    });
    const cols = ['netWeight', 'quantity', 'quantityUnit'];
    const order = await grid.displayedColumns();
    expect(order.slice(order.indexOf('netWeight'), order.indexOf('netWeight') + 3)).toEqual(cols);

    await grid.selectBlock([1, 'netWeight'], [4, 'quantityUnit']);
    expect((await expectBlockSummed(grid, block, 12)).length).toBeGreaterThan(3);
    expect((await grid.selectedCells()).length).toBe(12);
    expect(await grid.copy()).toBe(excelBlock(block));
    await browser.screenshot('library-grid-selection');
    await browser.page.keyboard.press('Escape');
    await expect.poll(() => grid.selection()).toBeNull();

    // The record view: every field, grouped as the columns are; Escape gives the focus back to the row.
    await grid.cell(2, 'importerName').dblclick();
    const view = await grid.recordView();
    await view.waitFor();
    const groups = await grid.recordGroups();
    // The record's groups and every field of the spec (a dataset may carry columns of its own besides).
    expect(groups.map((g) => g.name).slice(0, 6)).toEqual([...SHIPMENT_COLUMN_GROUPS]);
    const fields = groups.flatMap((g) => Object.keys(g.fields));
    expect(fields).toEqual(expect.arrayContaining([...SHIPMENT_FIELDS]));
    expect(new Set(fields).size).toBe(fields.length);
    const all = Object.assign({}, ...groups.map((g) => g.fields)) as Record<string, string>;
    const rec = records.get(hashes[1]!)!;
    expect(all.hashId).toBe(rec.hashId);
    expect(all.usdCif).toBe(shown(Number(rec.usdCif), 2));
    expect(await browser.page.getByTestId('library-grid-record-position').textContent()).toBe('3 of 100');
    await expect.poll(() => view.evaluate((e) => e.getAnimations().length)).toBe(0);
    await browser.screenshot('library-grid-record-view');
    await browser.page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    await expect.poll(() => grid.focusedCell()).toBe('2:importerName');
    // Enter on the focused cell opens its row again.
    await browser.page.keyboard.press('Enter');
    await view.waitFor();
    expect(await browser.page.getByTestId('library-grid-record-position').textContent()).toBe('3 of 100');
    await browser.page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
  });

  it('reads the columns the grid shows; a column shown later fills its cells, sorted and filtered alike', async () => {
    // The dataset opened above, its quick filter cleared by the test before.
    expect(await library.waitForRows()).toBe(100);
    const grid = library.table;
    const records = new Map<string, ShipmentRecord>();
    for (const r of stack.sim.dataset.records()) records.set(r.hashId, r);
    // Sorted by a shown column, then a hidden one (the record id) shown: each row's value is its
    // record's (read from the record view, which reads the whole row), read again from the library.
    await library.sortBy('usdCif');
    await library.waitForRows();
    expect(await grid.displayedColumns()).not.toContain('hashId');
    const hashes: string[] = [];
    for (let row = 0; row < 3; row++) hashes.push(await library.hashOfRow(row));
    for (const h of hashes) expect(records.has(h)).toBe(true);
    await library.setColumnVisible('hashId', true);
    expect(await grid.displayedColumns()).toContain('hashId');
    await expect.poll(() => library.columnValues('hashId', 3)).toEqual(hashes);
    await browser.screenshot('library-grid-column-shown');
    // Hidden again: the grid keeps working on the columns it shows.
    await library.setColumnVisible('hashId', false);
    expect(await grid.displayedColumns()).not.toContain('hashId');
    await library.sortBy('usdCif');
    expect(await library.waitForRows()).toBe(100);
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
      'up to 100 downloads',
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
      /^about 3,0\d\d — no limit \(account /,
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
