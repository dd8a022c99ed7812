import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResolvedFirmsPage } from './pages/firms-page';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import { PROJECT_ROOT } from './support/paths';
import { startStack, type Stack } from './support/stack';

/**
 * The library held by another program (a second Portolan, a script reading library.duckdb), in
 * Chromium over the browser host: the Firms page says why its firms are not counted, in the analyst's
 * words, and counts them by itself once the other program lets go.
 */
describe('a library held by another program', () => {
  let stack: Stack;
  let browser: Browser;
  let holder: ChildProcess;
  let exited: Promise<unknown>;
  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    stack = await startStack({ records: 200 });
    // Held before the window first asks for the library (the host opens it on first use).
    holder = fork(
      join(PROJECT_ROOT, 'test/helpers/hold-library.mjs'),
      [join(stack.dataDir, 'library.duckdb')],
      {
        stdio: 'ignore',
      },
    );
    exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise((resolve, reject) => {
      holder.once('message', resolve);
      holder.once('error', reject);
    });
    browser = await launchBrowser();
    await browser.page.setViewportSize({ width: 1440, height: 900 });
  });

  afterAll(async () => {
    if (holder && holder.exitCode === null) holder.kill('SIGKILL');
    await exited;
    await browser?.close();
    await stack?.close();
  });

  it('Firms says why the firms are not counted, once, and counts them when the library is free again', async () => {
    const shell = await openConnected(browser, stack);
    await shell.navigate('firms');
    const firms = new ResolvedFirmsPage(browser.page);
    const count = browser.page.getByTestId('firms-total');
    await expect
      .poll(() => count.textContent())
      .toBe('Firms not counted: another program has the library open. Trying again every few seconds…');
    const error = browser.page.getByTestId('firms-list-error');
    expect(await error.getAttribute('data-error-kind')).toBe('StorageLocked');
    expect(await error.textContent()).toContain('Library in use');
    expect(await error.textContent()).toContain(`process ${holder.pid}`);
    // Said once on the page: the process is named by the message above the list only.
    expect(await browser.page.getByText(`process ${holder.pid}`).count()).toBe(1);
    // No row is drawn for a list that could not be read (not an empty row with a tick box).
    expect(await browser.page.getByTestId('firm-list').locator('.ag-row').count()).toBe(0);
    await browser.screenshot('library-locked-01-firms');

    // Retry while still held: the same answer, not "Counting firms…" for ever.
    await browser.page.getByTestId('firms-list-retry').click();
    await expect.poll(() => count.textContent()).toContain('Firms not counted');

    holder.send('let go');
    await exited;
    // No click: the page asks again by itself and the library, free now, answers.
    await firms.waitForTotal(0);
    expect(await count.textContent()).toBe('0 firms');
    await error.waitFor({ state: 'detached' });
    await browser.screenshot('library-locked-02-free-again');
  });
});
