import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppShell } from './pages/app-shell';
import { LibraryPage } from './pages/library-page';
import { SearchWorkbench } from './pages/search-workbench';
import { canFreezeLibrary, freezeLibrary, thawLibrary } from '../helpers/frozen-library';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import { describeOverlaps, overlaps, visibleControls } from './support/layout';
import { ARTIFACTS_DIR, PROJECT_ROOT } from './support/paths';
import { serviceUsage, startStack, type Stack } from './support/stack';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * A search whose answer the library cannot store, in Chromium over the browser host: the data folder
 * and the library file are made unwritable under the running host (frozen-library.ts), so DuckDB's own
 * commit fails. The page says so, shows the kept records on request, and "Save again" stores them once
 * the folder is writable again, without another request to the service.
 */
describe.skipIf(!canFreezeLibrary)('a search whose answer the library cannot store', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let frozen = false;
  screenshotOnFailure(() => browser);
  const search = () => new SearchWorkbench(browser.page);

  /** No two controls overlap at either size and scheme; Save again and the first rows are in view. */
  async function layoutEveryWay(name: string, firstRows: boolean): Promise<string[]> {
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        await browser.page.mouse.move(1, 1);
        const shot = `${name}-${size.width}x${size.height}-${colorScheme}`;
        await browser.page.waitForTimeout(150);
        await browser.page.screenshot({ path: join(ARTIFACTS_DIR, `layout-${shot}.png`) });
        const found = overlaps(await visibleControls(browser.page));
        if (found.length) problems.push(`${shot}:\n${describeOverlaps(found)}`);
        const button = await search().saveAgainButton.boundingBox();
        if (!button || button.y + button.height > size.height)
          problems.push(`${shot}: Save again needs scrolling`);
        if (firstRows) {
          const row = await search().grid.locator('.ag-row[row-index="0"]').boundingBox();
          if (!row || row.y + row.height > size.height)
            problems.push(`${shot}: the first row needs scrolling`);
        }
      }
    }
    await browser.page.emulateMedia({ colorScheme: 'light' });
    await browser.page.setViewportSize(SIZES[0]);
    return problems;
  }

  beforeAll(async () => {
    stack = await startStack({ records: 600 });
    browser = await launchBrowser();
    await browser.page.setViewportSize(SIZES[0]);
    shell = await openConnected(browser, stack);
  });

  afterAll(async () => {
    if (frozen) thawLibrary(stack.dataDir);
    await browser?.close();
    await stack?.close();
  });

  it('says so, shows the kept records, and Save again stores them once the folder is writable', async () => {
    await shell.navigate('search');
    await search().setSize(100);
    await search().runFresh();

    freezeLibrary(stack.dataDir);
    frozen = true;
    await search().setSize(250);
    await search().run();
    const alert = search().saveFailed;
    await alert.waitFor();
    const id = (await alert.getAttribute('data-dataset-id')) ?? '';
    expect(await browser.page.getByTestId('search-save-failed-text').textContent()).toMatch(
      /^Its 250 records were downloaded and counted against the account, but Portolan could not save them\. Portolan may not write to its data folder/,
    );
    const usedAfterSearch = (await serviceUsage(stack))['shipments/search']?.current ?? 0;
    // One primary action: Save again is the filled button while the notice shows, the run button plain.
    const filled = browser.page.locator('button[data-variant="filled"]:visible');
    expect(await filled.evaluateAll((bs) => bs.map((b) => b.getAttribute('data-testid')))).toEqual([
      'search-save-again',
    ]);
    const problems = await layoutEveryWay('search-save-failed', false);

    // Saving keeps failing: the records from memory, with Export.
    await search().saveAgainButton.click();
    await expect.poll(() => search().saveFailedError.textContent()).toMatch(/^It still could not be saved/);
    await search().showKeptRecords();
    expect(await search().grid.getAttribute('data-row-count')).toBe('250');
    expect(await browser.page.getByTestId('export-open').isVisible()).toBe(true);
    problems.push(...(await layoutEveryWay('search-save-failed-shown', true)));

    // The cause is gone: Save again, from the keyboard.
    thawLibrary(stack.dataDir);
    frozen = false;
    await search().saveAgainButton.focus();
    await browser.page.keyboard.press('Enter');
    await alert.waitFor({ state: 'detached' });
    expect(await browser.page.getByTestId('search-notice').textContent()).toBe(
      'Saved to the Library: the 250 records are now read from it, and nothing was downloaded again.',
    );
    await search().grid.locator('.ag-row[row-index="0"]').first().waitFor();
    await browser.screenshot('search-save-failed-saved');
    // Only the usage read itself was added: nothing was searched again.
    expect((await serviceUsage(stack))['shipments/search']?.current ?? 0).toBe(usedAfterSearch);

    await shell.navigate('library');
    await new LibraryPage(browser.page).root.waitFor();
    await browser.page.getByTestId(`library-row-${id}`).waitFor();
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });
});

/**
 * Another program holds the library file from the start, so the host cannot open it: the answer's
 * records come with it and are shown from memory with Export, and Save again stores them once the
 * other program lets go.
 */
describe('a search while another program holds the library', () => {
  let stack: Stack;
  let browser: Browser;
  let holder: ChildProcess;
  let exited: Promise<unknown>;
  screenshotOnFailure(() => browser);
  const search = () => new SearchWorkbench(browser.page);

  beforeAll(async () => {
    stack = await startStack({ records: 300 });
    holder = fork(
      join(PROJECT_ROOT, 'test/helpers/hold-library.mjs'),
      [join(stack.dataDir, 'library.duckdb')],
      { stdio: 'ignore' },
    );
    exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise((resolve, reject) => {
      holder.once('message', resolve);
      holder.once('error', reject);
    });
    browser = await launchBrowser();
    await browser.page.setViewportSize(SIZES[1]);
  });

  afterAll(async () => {
    if (holder && holder.exitCode === null) holder.kill('SIGKILL');
    await exited;
    await browser?.close();
    await stack?.close();
  });

  it('shows the records from memory beside Save again, and stores them once the library is free', async () => {
    const shell = await openConnected(browser, stack);
    await shell.navigate('search');
    await search().setSize(120);
    await search().run();
    const alert = browser.page.locator('[data-testid="search-save-failed"][data-shown="yes"]');
    await alert.waitFor();
    const id = (await alert.getAttribute('data-dataset-id')) ?? '';
    expect(await browser.page.getByTestId('search-save-failed-text').textContent()).toContain(
      `Another program has Portolan's library open (node, process ${holder.pid})`,
    );
    await search().grid.locator('.ag-row[row-index="0"]').first().waitFor();
    expect(await search().grid.getAttribute('data-row-count')).toBe('120');
    expect(await browser.page.getByTestId('export-open').isVisible()).toBe(true);
    // The pointer rests where it shows no tooltip, as a reader's would.
    await browser.page.mouse.move(1, 1);
    await browser.page.waitForTimeout(300);
    const row = await search().grid.locator('.ag-row[row-index="0"]').boundingBox();
    expect(row && row.y + row.height <= SIZES[1].height).toBe(true);
    expect(await search().runButton.isEnabled()).toBe(true);
    expect(describeOverlaps(overlaps(await visibleControls(browser.page)))).toBe('');
    await browser.screenshot('search-library-locked-1024x700');

    holder.send('let go');
    await exited;
    await search().saveAgainButton.click();
    await alert.waitFor({ state: 'detached' });
    await search().grid.locator('.ag-row[row-index="0"]').first().waitFor();
    await shell.navigate('library');
    await browser.page.getByTestId(`library-row-${id}`).waitFor();
  });
});
