import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/main/sim';
import type { AppShell } from './pages/app-shell';
import { JobsPanel } from './pages/jobs-panel';
import { SearchWorkbench } from './pages/search-workbench';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import { startStack, type Stack } from './support/stack';

const RECORDS = 3_000;

/**
 * Jobs and notices (issue 16 point 11): the jobs tray in the status bar, toasts that fade, and the
 * service's and the host's connection shown as they are — within 5 s — and cleared on recovery.
 */
describe('jobs tray, toasts and connection state', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let search: SearchWorkbench;
  let jobs: JobsPanel;
  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    stack = await startStack({ records: RECORDS });
    browser = await launchBrowser();
    search = new SearchWorkbench(browser.page);
    jobs = new JobsPanel(browser.page);
    shell = await openConnected(browser, stack);
    await shell.navigate('search');
    await search.setSize(100);
    await search.run();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close().catch(() => undefined);
  });

  const page = () => browser.page;
  const trayButton = () => page().getByTestId('jobs-tray-button');

  it('a fetch runs in the tray: the status bar counts it, Escape closes the tray, a toast tells its end', async () => {
    expect(await trayButton().textContent()).toBe('Jobs');
    await page().getByTestId('search-fetch-all').click();
    await jobs.estimate();
    // A slow service: the job runs long enough to be watched from the status bar.
    stack.sim.setFaults({ latencyMs: 6_000 });
    const jobId = await jobs.confirm('Everything');
    // The tray opened by itself; Escape closes it and the job runs on, counted in the status bar.
    await page().keyboard.press('Escape');
    await page().getByTestId('jobs-panel').waitFor({ state: 'detached' });
    await page().locator('[data-testid="jobs-tray-button"][data-running="1"]').waitFor();
    expect(await trayButton().textContent()).toBe('1 job running');
    await browser.screenshot('notices-01-job-counted');
    stack.sim.setFaults(undefined);
    // Its end is a toast (the tray is closed), with a way to the dataset; toasts fade by themselves.
    const toast = page().getByTestId(`toast-job-${jobId}`);
    await toast.waitFor({ timeout: 60_000 });
    await browser.screenshot('notices-02-job-toast');
    await page().locator('[data-testid="jobs-tray-button"][data-running="0"]').waitFor();
    await toast.waitFor({ state: 'detached', timeout: 20_000 });
    // The tray keeps the finished entry; opened from the status bar, closed by Escape, focus back.
    // Opened from the status bar's button; waits for the tray before reading it (a second click while
    // it opens would land on its backdrop).
    await jobs.openTray();
    expect(await jobs.waitForFinish(jobId)).toBe('succeeded');
    await page().keyboard.press('Escape');
    await page().getByTestId('jobs-panel').waitFor({ state: 'detached' });
    await expect
      .poll(() =>
        page()
          .locator('body')
          // Run on the body element: this file is compiled without the DOM's global names.
          .evaluate((b) => b.ownerDocument.activeElement?.getAttribute('data-testid') ?? null),
      )
      .toBe('jobs-tray-button');
  }, 120_000);

  it('a service that stops answering is said in the status bar, and cleared when it answers again', async () => {
    const connection = page().getByTestId('status-connection');
    const port = stack.sim.port;
    // The Usage page read just before: main keeps those figures for a minute.
    await shell.navigate('usage');
    await page().getByTestId('usage-read-at').waitFor();
    await shell.navigate('search');
    await stack.sim.close();
    // A search not asked before (an asked one would be offered from the library, sending nothing).
    await search.setDates('2024-01-01', '2024-06-30');
    await search.runButton.click();
    await page()
      .locator('[data-testid="status-connection"][data-status="failed"]')
      .waitFor({ timeout: 30_000 });
    expect(await connection.textContent()).toBe('no connection to the service');
    await browser.screenshot('notices-03-service-down');
    // The Usage page's figures come from what main keeps (read at most once a minute): they open
    // without reaching the service, and say nothing of it being back.
    await shell.navigate('usage');
    await page().getByTestId('usage-read-at').waitFor();
    await page().waitForTimeout(1_000);
    expect(await connection.getAttribute('data-status')).toBe('failed');
    expect(await connection.textContent()).toBe('no connection to the service');
    await shell.navigate('search');
    // The same simulator comes back on its address: main's probe finds it, no search needed.
    stack.sim = await startSimulator({ port, records: RECORDS, seed: 7, accounts: [stack.account] });
    const back = Date.now();
    await page()
      .locator('[data-testid="status-connection"][data-status="connected"]')
      .waitFor({ timeout: 15_000 });
    expect(Date.now() - back).toBeLessThan(5_000 + 2_000);
    expect(await connection.textContent()).toBe('connected');
  }, 60_000);

  it('a host that stops is said within 5 s, instead of a connection it cannot know', async () => {
    await stack.host.close();
    const gone = Date.now();
    await page().getByTestId('status-host').waitFor({ timeout: 10_000 });
    expect(Date.now() - gone).toBeLessThan(5_000);
    expect(await page().getByTestId('status-host').textContent()).toContain('Portolan host not reachable');
    expect(await page().getByTestId('status-connection').count()).toBe(0);
    await browser.screenshot('notices-04-host-down');
  }, 30_000);
});
