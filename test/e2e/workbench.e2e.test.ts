import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAccount } from '../../src/main/sim';
import type { AppShell } from './pages/app-shell';
import { FirmsWorkbench } from './pages/firms-workbench';
import { SearchWorkbench } from './pages/search-workbench';
import { UsageWorkbench } from './pages/usage-workbench';
import { launchBrowser, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import { startStack, type Stack } from './support/stack';

const DOWNLOAD_LIMIT = 200;

describe('Query workbench: filter, presets, search, firms, usage', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let search: SearchWorkbench;

  beforeAll(async () => {
    // The account has a download limit so the cost line shows "X of Y left".
    const account = { ...generateAccount('workbench'), limits: { 'shipments/search': DOWNLOAD_LIMIT } };
    stack = await startStack({ records: 5_000, seed: 11, account });
    browser = await launchBrowser();
    search = new SearchWorkbench(browser.page);

    shell = await openConnected(browser, stack, account);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('builds a filter with field-level messages and a disabled run button while invalid', async () => {
    await shell.navigate('search');
    await search.pickCountry('importer_countries', 'germ', 'DE');
    expect(await search.tags('importer_countries')).toEqual(['DE Germany']);
    await search.pickHsByDescription('steel', '7208');
    expect((await search.tags('hs_codes'))[0]).toMatch(/^7208 Iron or non-alloy steel/);

    await search.typeHsCode('72a8');
    await search.fieldError('hs_codes').waitFor();
    expect(await search.fieldError('hs_codes').textContent()).toBe('HS codes: “72a8”: digits only');
    expect(await search.runButton.isDisabled()).toBe(true);
    expect(await search.runReason.textContent()).toContain('HS codes: “72a8”: digits only');
    await browser.screenshot('workbench-01-invalid-filter');
    await search.removeTag('hs_codes', 1);

    await search.setDates('2024-06-01', '2024-01-01');
    expect(await search.fieldError('end_date').textContent()).toBe('Date to: must not be before Date from');
    await search.setDates('2021-01-01', '2025-12-31');
    await search.fieldError('end_date').waitFor({ state: 'detached' });
    // The default size (1,000) is over this account's 200-record limit; a small one needs no confirmation.
    await search.setSize(10);
    expect(await search.runButton.isDisabled()).toBe(false);
  });

  it('saves a preset, clears the form and loads it back, and the preset file is on disk', async () => {
    await search.savePreset('German steel');
    await search.clearFilter();
    expect(await search.tags('importer_countries')).toEqual([]);
    await search.loadPreset('German steel');
    expect(await search.tags('importer_countries')).toEqual(['DE Germany']);
    expect((await search.tags('hs_codes')).map((t) => t.slice(0, 4))).toEqual(['7208']);
    expect(await search.field('filter-start_date-input').inputValue()).toBe('2021-01-01');
    const onDisk = JSON.parse(await readFile(join(stack.dataDir, 'presets.json'), 'utf8')) as {
      presets: { name: string }[];
    };
    expect(onDisk.presets.map((p) => p.name)).toEqual(['German steel']);
    // A broader filter for the search itself: HS codes are rare in a small data set.
    await search.removeTag('hs_codes', 0);
    await search.savePreset('Germany 2021-2025');
    expect(await search.presetNames()).toEqual(['German steel', 'Germany 2021-2025']);
    await browser.screenshot('workbench-02-presets');
  });

  it('shows the cost before running, runs, shows total and truncation, sorts the grid', async () => {
    await search.setSize(50);
    await expect.poll(() => search.costText.textContent()).toMatch(/up to 50 records — \d+ of 200 left/);
    await search.run();
    const { shown, total } = await search.shownAndTotal();
    expect(shown).toBe(50);
    expect(total).toBeGreaterThan(50);
    expect(await search.summary.textContent()).toBe(
      `Showing 50 of ${total.toLocaleString('en-US')} matching records`,
    );
    expect(await browser.page.getByTestId('search-truncated').isVisible()).toBe(true);

    await search.grid.locator('.ag-row[row-index="0"]').waitFor();
    await search.sortBy('arrivalDate');
    await search.grid.locator('.ag-header-cell[col-id="arrivalDate"][aria-sort="ascending"]').waitFor();
    const asc = await search.columnValues('arrivalDate', 10);
    expect(asc).toEqual([...asc].sort());
    await search.sortBy('usdFob');
    await search.sortBy('usdFob');
    await search.grid.locator('.ag-header-cell[col-id="usdFob"][aria-sort="descending"]').waitFor();
    const fob = (await search.columnValues('usdFob', 10)).map((t) => Number(t.replace(/,/g, '')));
    expect(fob).toEqual([...fob].sort((a, b) => b - a));
    await browser.screenshot('workbench-03-results-sorted');
  });

  it('from a shipment party: counts its shipments, then opens them in Search by name', async () => {
    const panel = await search.openParties(0);
    const name = ((await panel.getByTestId('party-importer-name').textContent()) ?? '').trim();
    await panel.getByTestId('party-importer-count').click();
    const result = panel.getByTestId('party-importer-count-result');
    await result.waitFor();
    expect(Number(await result.getAttribute('data-count'))).toBeGreaterThan(0);
    await browser.screenshot('workbench-04-party-count');
    await panel.getByTestId('party-importer-open').click();
    expect(await search.field('filter-importer_firm-input').inputValue()).toBe(name);
    expect(await search.field('filter-notice').textContent()).toContain('cannot search by firm code');
  });

  it('firm search pages, counts, and goes firm → shipments', async () => {
    const firms = new FirmsWorkbench(browser.page);
    await search.clearFilter();
    await search.loadPreset('Germany 2021-2025');
    await shell.navigate('firms');
    await firms.search();
    const info = await firms.pageInfo();
    expect(info.page).toBe(1);
    expect(info.pages).toBeGreaterThanOrEqual(1);
    if (info.pages > 1) {
      await browser.page.getByTestId('firms-next').click();
      await firms.waitForPage(2);
      await browser.page.getByTestId('firms-prev').click();
      await firms.waitForPage(1);
    }
    expect(await firms.count()).toBeGreaterThan(0);
    await browser.screenshot('workbench-05-firms');
    const name = await firms.firmName(0);
    await firms.openShipments('importer', 0);
    await search.root.waitFor();
    expect(await search.field('filter-importer_firm-input').inputValue()).toBe(name);
    await search.clearFilter();
  });

  it('usage changes after a search', async () => {
    const usage = new UsageWorkbench(browser.page);
    await shell.navigate('usage');
    const before = await usage.read(stack.account.name, 'shipments/search');
    expect(before.limit).toBe(DOWNLOAD_LIMIT);
    // Main asks the service at most once a minute: within it, Refresh says when it can read again,
    // and the time shown stays that of the read the figures come from.
    const readAt = await usage.readAt.textContent();
    expect(readAt).toMatch(/^Read from the service at /);
    expect(await usage.refreshButton.getAttribute('aria-disabled')).toBe('true');
    expect(await usage.refreshButton.getAttribute('aria-description')).toMatch(
      /the next read is possible at \d/,
    );
    // Clicked all the same (it stays focusable, so its tooltip can say why): nothing is read.
    await usage.refreshButton.click({ force: true });
    await browser.page.waitForTimeout(500);
    expect(await usage.readAt.textContent()).toBe(readAt);
    await usage.refreshButton.hover();
    await browser.page.getByRole('tooltip').waitFor();
    await browser.screenshot('workbench-06-usage-refresh-waits');
    await shell.navigate('search');
    await search.loadPreset('Germany 2021-2025');
    await search.setSize(20);
    // The same question was asked before: decline the library's saved copy so the service is asked again.
    await search.runFresh();
    await shell.navigate('usage');
    const after = await usage.read(stack.account.name, 'shipments/search');
    expect(after.current).toBeGreaterThan(before.current);
    await browser.screenshot('workbench-06-usage');
    expect(await browser.page.content()).not.toContain(stack.account.apiSecret);
    expect(stack.log.lines.join('\n')).not.toContain(stack.account.apiSecret);
  });

  it('warns before a search would pass the account limit and needs confirmation; the refusal shows its kind', async () => {
    await shell.navigate('search');
    await search.setSize(1000);
    await expect
      .poll(() => browser.page.getByTestId('search-cost').getAttribute('data-limit-state'))
      .toBe('exceeds');
    expect(await search.costText.textContent()).toMatch(/this would pass the limit by/);
    expect(await search.runButton.isDisabled()).toBe(true);
    expect(await search.runReason.textContent()).toContain('would pass the account limit');
    await browser.page.getByTestId('search-confirm-over-limit').check();
    expect(await search.runButton.isDisabled()).toBe(false);
    await browser.screenshot('workbench-07-over-limit-warning');
    await search.runButton.click();
    const err = browser.page.getByTestId('search-error');
    await err.waitFor();
    expect(await err.getAttribute('data-error-kind')).toBe('LimitExceeded');
    // The download allowance does not come back by waiting: the message says what does help, and no
    // "wait" line contradicts it.
    expect(await err.textContent()).toContain('ask for fewer records');
    expect(await err.textContent()).toContain('Waiting will not help');
    expect(await browser.page.getByTestId('search-retry-after').count()).toBe(0);
    await browser.screenshot('workbench-08-limit-exceeded');
  });

  it('a slow search shows progress and can be cancelled; its late answer is kept in the library, not shown', async () => {
    await search.setSize(20);
    await search.runFresh();
    const before = await search.shownAndTotal();
    stack.sim.setFaults({ latencyMs: 2_500 });
    try {
      await search.setSize(10);
      await search.runButton.click();
      // The saved size-20 copy answers a size-10 question: decline it so the slow service is asked.
      // The library's lookup is local and quick; a second covers it under load.
      const refetch = browser.page.getByTestId('search-saved-offer-refetch');
      await refetch.waitFor({ timeout: 1_000 }).catch(() => undefined);
      if (await refetch.isVisible()) await refetch.click();
      await browser.page.getByTestId('search-progress').waitFor();
      await browser.page.getByTestId('search-cancel').click();
      await browser.page.getByTestId('search-cancelled').waitFor();
      await browser.page.waitForTimeout(3_500);
      expect(await search.shownAndTotal()).toEqual(before);
      // The request had gone out and may be charged: its answer is saved, and the page says so.
      const cancelled = browser.page.getByTestId('search-cancelled');
      expect(await cancelled.getAttribute('data-outcome')).toBe('spent');
      expect(await cancelled.textContent()).toContain(
        '10 records were downloaded and counted against the account, and saved to the Library',
      );
      expect(await browser.page.getByTestId('search-truncated').textContent()).toBe(
        '(Records to download: 20)',
      );
    } finally {
      stack.sim.setFaults(undefined);
    }
  });

  it('a slow firm search can be cancelled with Escape; its late page is kept and shown on demand', async () => {
    const firms = new FirmsWorkbench(browser.page);
    await shell.navigate('search');
    await search.clearFilter();
    await search.loadPreset('Germany 2021-2025');
    // Dates no earlier firm search asked for: a page this session already fetched is shown without a request.
    await search.setDates('2022-02-01', '2024-11-30');
    await shell.navigate('firms');
    await firms.show();
    stack.sim.setFaults({ latencyMs: 2_500 });
    try {
      await browser.page.getByTestId('firms-run').click();
      await browser.page.getByTestId('firms-cancel').waitFor();
      await browser.screenshot('workbench-08b-firms-searching');
      await browser.page.keyboard.press('Escape');
      const cancelled = browser.page.getByTestId('firms-cancelled');
      await cancelled.waitFor();
      expect(await browser.page.getByTestId('firms-progress').count()).toBe(0);
      expect(await cancelled.textContent()).toContain('the page will be kept in the Library when it arrives');
      await expect.poll(() => cancelled.getAttribute('data-outcome'), { timeout: 10_000 }).toBe('spent');
      await browser.screenshot('workbench-08c-firms-cancelled');
      await browser.page.getByTestId('firms-cancelled-show').click();
      await firms.waitForPage(1);
    } finally {
      stack.sim.setFaults(undefined);
    }
  });

  it('presets: rename, duplicate, reorder, export and import (unknown fields dropped, bad presets skipped)', async () => {
    await search.presetAction('German steel', 'rename');
    const input = browser.page.getByTestId(/^preset-\d+-rename-input$/);
    await input.fill('Steel into Germany');
    await browser.page.getByTestId(/^preset-\d+-rename-save$/).click();
    await search.preset('Steel into Germany').waitFor();
    await search.presetAction('Steel into Germany', 'duplicate');
    await search.preset('Steel into Germany copy').waitFor();
    expect(await search.presetNames()).toEqual([
      'Steel into Germany',
      'Steel into Germany copy',
      'Germany 2021-2025',
    ]);
    await search.presetAction('Germany 2021-2025', 'up');
    await expect
      .poll(() => search.presetNames())
      .toEqual(['Steel into Germany', 'Germany 2021-2025', 'Steel into Germany copy']);

    const downloadP = browser.page.waitForEvent('download');
    await browser.page.getByTestId('presets-export').click();
    const download = await downloadP;
    const exported = JSON.parse(await readFile((await download.path()) as string, 'utf8')) as {
      format: string;
      version: number;
      presets: { name: string }[];
    };
    expect(exported.format).toBe('portolan-presets');
    expect(exported.presets.map((p) => p.name)).toEqual([
      'Steel into Germany',
      'Germany 2021-2025',
      'Steel into Germany copy',
    ]);

    const file = {
      format: 'portolan-presets',
      version: 1,
      presets: [
        {
          name: 'Imported coffee',
          apiSecret: 'IMPORTED-SECRET',
          filter: { hs_codes: ['0901'], colour: 'red' },
        },
        { name: 'Broken', filter: { product_detail: 'ab' } },
      ],
    };
    await browser.page.getByTestId('presets-import-file').setInputFiles({
      name: 'p.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(file)),
    });
    const report = browser.page.getByTestId('presets-import-report');
    await report.waitFor();
    expect(await report.textContent()).toContain('Imported 1 preset.');
    expect(await report.textContent()).toContain(
      'Skipped “Broken”: Product description: at least 3 characters',
    );
    const stored = await readFile(join(stack.dataDir, 'presets.json'), 'utf8');
    expect(stored).not.toContain('IMPORTED-SECRET');
    expect(stored).not.toContain('colour');
    await browser.screenshot('workbench-09-presets-import');
  });

  it('restores the last filter after a restart of the page', async () => {
    await search.clearFilter();
    await search.pickCountry('exporter_countries', 'japan', 'JP');
    await search.field('filter-product_detail-input').fill('bearings');
    await expect
      .poll(
        async () =>
          (JSON.parse(await readFile(join(stack.dataDir, 'presets.json'), 'utf8')) as { last?: unknown })
            .last,
      )
      .toEqual({ exporter_countries: ['JP'], product_detail: 'bearings' });
    await browser.page.reload();
    await search.root.waitFor();
    await expect.poll(() => search.tags('exporter_countries')).toEqual(['JP Japan']);
    expect(await search.field('filter-product_detail-input').inputValue()).toBe('bearings');
    expect(await browser.page.content()).not.toContain(stack.account.apiSecret);
    expect(stack.log.lines.join('\n')).not.toContain(stack.account.apiSecret);
    // The refused over-limit search logs a 429 resource error in the console; nothing else may.
    expect(browser.errors.filter((e) => !/429/.test(e))).toEqual([]);
  });
});
