import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../src/main/api';
import {
  FIRM_PAGE_SIZE,
  generateAccount,
  startSimulator,
  type RunningSimulator,
  type SimAccount,
} from '../../src/main/sim';
import { AppShell } from './pages/app-shell';
import { FirmsWorkbench } from './pages/firms-workbench';
import { JobsPanel } from './pages/jobs-panel';
import { LibraryPage } from './pages/library-page';
import { SearchWorkbench } from './pages/search-workbench';
import { SettingsPage } from './pages/settings-page';
import { WelcomePage } from './pages/welcome-page';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { startHostProcess, type HostProcess } from './support/host-process';

const RECORDS = 60_000;
/** Over the 10,000 cap, so the job slices it into several date windows. */
const KEPT = { start: '2022-01-01', end: '2025-12-31', name: 'Survives a restart' };
const DROPPED = { start: '2021-01-01', end: '2022-12-31', name: 'Given up after a restart' };
/** Several pages of firms, the last one part-filled. */
const FIRMS = { start: '2025-06-01', end: '2025-06-30', name: 'Importers June 2025' };
/** Slow enough that a kill lands between windows, whatever the machine's speed. */
const SLOW_MS = 1_200;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('fetch jobs survive a restart of the app', () => {
  let sim: RunningSimulator;
  let account: SimAccount;
  let client: ServiceClient;
  let dataDir: string;
  let port: number;
  let host: HostProcess | undefined;
  let browser: Browser;
  let shell: AppShell;
  let search: SearchWorkbench;
  let library: LibraryPage;
  let jobs: JobsPanel;
  screenshotOnFailure(() => browser);

  // What the service holds, computed here from the simulator's own data.
  const keptHashIds = new Set<string>();
  let droppedTotal = 0;
  const firmsInRange = new Set<string>();

  let keptJobId = '';
  let keptFreshDownloads = 0;
  let keptDoneAtRestart = 0;

  const downloadsUsed = async (
    metric: 'shipments/search' | 'firms/search' = 'shipments/search',
  ): Promise<number> => (await client.usage())[account.name]?.[metric]?.current ?? Number.NaN;

  /** Starts (or restarts) the host on the same data dir and port, and opens the page at its new URL. */
  async function startHost(): Promise<void> {
    host = await startHostProcess({ dataDir, args: ['--port', String(port)] });
    // A fresh document: the token is in the fragment, and a fragment change alone would not reload.
    await browser.page.goto('about:blank');
    await shell.open(host.url);
  }

  async function crash(): Promise<void> {
    await host?.kill();
    host = undefined;
  }

  /** Searches the date range on the Search page (100 records shown) and opens the fetch-all dialog. */
  async function askFetchAll(start: string, end: string, expectedTotal: number): Promise<void> {
    await shell.navigate('search');
    await search.setDates(start, end);
    await browser.page.getByTestId('search-size-100').click();
    await search.runFresh();
    expect(await search.shownAndTotal()).toEqual({ shown: 100, total: expectedTotal });
    await browser.page.getByTestId('search-fetch-all').click();
  }

  beforeAll(async () => {
    account = { ...generateAccount('e2e-jobs'), limits: { 'shipments/search': 1_000_000 } };
    sim = await startSimulator({ port: 0, records: RECORDS, seed: 7, accounts: [account] });
    client = createServiceClient({
      baseUrl: sim.url,
      credentials: { apiKey: account.apiKey, apiSecret: account.apiSecret },
    });
    for (const r of sim.dataset.records()) {
      if (r.arrivalDate >= KEPT.start && r.arrivalDate <= KEPT.end) {
        keptHashIds.add(r.hashId);
      }
      // Firm search lists importers unless told otherwise.
      if (r.arrivalDate >= FIRMS.start && r.arrivalDate <= FIRMS.end) firmsInRange.add(r.importerUrlCode);
      if (r.arrivalDate >= DROPPED.start && r.arrivalDate <= DROPPED.end) droppedTotal++;
    }
    dataDir = await mkdtemp(join(tmpdir(), 'portolan-e2e-jobs-'));
    port = await freePort();
    browser = await launchBrowser();
    shell = new AppShell(browser.page);
    search = new SearchWorkbench(browser.page);
    library = new LibraryPage(browser.page);
    jobs = new JobsPanel(browser.page);
    await startHost();

    await new WelcomePage(browser.page).connectAccount();
    await new SettingsPage(browser.page).addActiveProfile('Sim', sim.url, account);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await sim?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('starts a fetch-all past the 10,000 cap from the confirm dialog and shows its progress', async () => {
    expect(keptHashIds.size).toBeGreaterThan(10_000);
    await askFetchAll(KEPT.start, KEPT.end, keptHashIds.size);
    const estimate = await jobs.estimate();
    expect(estimate.total).toBe(keptHashIds.size);
    // A fresh fetch downloads every record at least once (plus the probes that size the windows).
    expect(estimate.downloads).toBeGreaterThanOrEqual(keptHashIds.size);
    keptFreshDownloads = estimate.downloads as number;
    expect(await jobs.dialog.getByTestId('fetch-all-total').textContent()).toBe(
      `${keptHashIds.size.toLocaleString('en-US')} records`,
    );
    // Quota: what it costs, against what the account has left.
    const left = 1_000_000 - (await downloadsUsed());
    expect(await jobs.dialog.getByTestId('fetch-all-downloads').textContent()).toBe(
      `about ${keptFreshDownloads.toLocaleString('en-US')} — ${left.toLocaleString('en-US')} left (account ${account.name})`,
    );
    await browser.screenshot('jobs-01-confirm');

    sim.setFaults({ latencyMs: SLOW_MS });
    keptJobId = await jobs.confirm(KEPT.name);
    const p = await jobs.waitForProgress(keptJobId, (x) => (x.windowsDone ?? 0) >= 1);
    expect(p.total).toBe(keptHashIds.size);
    expect(p.done).toBeGreaterThan(0);
    expect(p.done).toBeLessThan(keptHashIds.size);
    expect(p.windowsKnown).toBeGreaterThan(p.windowsDone as number);
    expect(await jobs.detail(keptJobId).textContent()).toMatch(
      /of [\d,]+ records \(\d+%\) · date range \d+ of \d+/,
    );
    await browser.screenshot('jobs-02-running');
  });

  it('after a crash mid-job, lists the job as resumable and shows no half dataset', async () => {
    await crash();
    await startHost();
    await shell.navigate('library');
    const info = await jobs.resumableInfo(keptJobId);
    expect(info.status).toBe('interrupted');
    expect(info.label).toBe(KEPT.name);
    expect(info.total).toBe(keptHashIds.size);
    expect(info.done).toBeGreaterThan(0);
    expect(info.done).toBeLessThan(keptHashIds.size);
    expect(info.text).toContain(`of ${keptHashIds.size.toLocaleString('en-US')} records (interrupted)`);
    keptDoneAtRestart = info.done;
    await library.list.waitFor();
    expect(await library.row(KEPT.name).count()).toBe(0);
    await browser.screenshot('jobs-03-after-restart');
  });

  it('resumes, fetching only the missing windows, into a complete dataset without duplicates', async () => {
    sim.setFaults({ latencyMs: 100 });
    const before = await downloadsUsed();
    await jobs.resume(keptJobId);
    expect(await jobs.waitForFinish(keptJobId)).toBe('succeeded');
    const spent = (await downloadsUsed()) - before;
    const missing = keptHashIds.size - keptDoneAtRestart;
    expect(spent).toBeGreaterThanOrEqual(missing);
    expect(spent).toBeLessThan(keptFreshDownloads);
    // At most a few size-10 probes on top of the missing records: nothing committed was fetched again.
    expect(spent).toBeLessThanOrEqual(missing + 100);
    console.info(
      `resume: ${keptDoneAtRestart} of ${keptHashIds.size} records done at the crash; resume downloaded ${spent} (missing ${missing}); a fresh fetch: ${keptFreshDownloads}`,
    );

    await jobs.openInLibrary(keptJobId);
    expect(await browser.page.getByTestId('library-detail-name').textContent()).toBe(KEPT.name);
    expect(await library.waitForRows()).toBe(keptHashIds.size);
    await browser.screenshot('jobs-04-resumed-in-library');
    // A few records of the service, each found exactly once in the dataset.
    const all = [...keptHashIds];
    for (const h of [all[0]!, all[Math.floor(all.length / 2)]!, all[all.length - 1]!]) {
      expect(await library.quickFilter(h)).toBe(1);
    }
  });

  it('discards a second crashed job: it disappears and leaves no dataset', async () => {
    expect(droppedTotal).toBeGreaterThan(10_000);
    await askFetchAll(DROPPED.start, DROPPED.end, droppedTotal);
    expect((await jobs.estimate()).total).toBe(droppedTotal);
    sim.setFaults({ latencyMs: SLOW_MS });
    const jobId = await jobs.confirm(DROPPED.name);
    const p = await jobs.waitForProgress(jobId, (x) => (x.windowsDone ?? 0) >= 1);
    expect(p.done).toBeLessThan(droppedTotal);
    await crash();
    sim.setFaults(undefined);
    await startHost();
    await shell.navigate('library');
    expect((await jobs.resumableInfo(jobId)).status).toBe('interrupted');
    await jobs.discard(jobId);
    expect(await jobs.resumableIds()).not.toContain(jobId);
    expect(await library.row(DROPPED.name).count()).toBe(0);
    await browser.screenshot('jobs-05-discarded');
    // Gone for good: a reload asks main again.
    await browser.page.reload();
    await shell.navigate('library');
    await library.row(KEPT.name).waitFor();
    expect(await jobs.resumable(jobId).count()).toBe(0);
    expect(await library.row(DROPPED.name).count()).toBe(0);
  });

  it('fetches all pages of a firm search into one firms dataset', async () => {
    const firms = new FirmsWorkbench(browser.page);
    const pages = Math.ceil(firmsInRange.size / FIRM_PAGE_SIZE);
    expect(pages).toBeGreaterThan(1);
    await shell.navigate('firms');
    await firms.show();
    await search.setDates(FIRMS.start, FIRMS.end);
    await firms.search();
    expect(await firms.pageInfo()).toEqual({ page: 1, pages });
    await browser.page.getByTestId('firms-fetch-all').click();
    expect((await jobs.estimate()).total).toBe(pages);
    sim.setFaults({ latencyMs: 300 });
    const firmsBefore = await downloadsUsed('firms/search');
    const jobId = await jobs.confirm(FIRMS.name);
    const p = await jobs.waitForProgress(jobId, (x) => x.done >= 1);
    expect(p.total).toBe(pages);
    expect(await jobs.detail(jobId).textContent()).toMatch(/pages .* records stored/);
    await browser.screenshot('jobs-06-firms-progress');
    expect(await jobs.waitForFinish(jobId)).toBe('succeeded');
    sim.setFaults(undefined);
    // The preview took the page count from the search and paid for nothing: the job fetches every page.
    expect((await downloadsUsed('firms/search')) - firmsBefore).toBe(firmsInRange.size);
    await jobs.openInLibrary(jobId);
    expect(await browser.page.getByTestId('library-detail-name').textContent()).toBe(FIRMS.name);
    // Every page's firms, once: the sum over pages is the number of importers with shipments in range.
    expect(await library.waitForRows()).toBe(firmsInRange.size);
    await browser.screenshot('jobs-07-firms-in-library');
  });

  it('leaves the library file consistent, and the secret nowhere', async () => {
    const output = host?.output() ?? '';
    await host?.close();
    host = undefined;
    const instance = await DuckDBInstance.create(join(dataDir, 'library.duckdb'), {
      access_mode: 'READ_ONLY',
    });
    const conn = await instance.connect();
    try {
      const rows = async (sql: string): Promise<Record<string, unknown>[]> =>
        (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
      const kept = await rows(
        `SELECT count(*) AS n, count(DISTINCT "hashId") AS d FROM shipment_rows
          WHERE dataset_id = (SELECT id FROM datasets WHERE name = '${KEPT.name}')`,
      );
      expect(kept.map((r) => [Number(r.n), Number(r.d)])).toEqual([[keptHashIds.size, keptHashIds.size]]);
      const stored = await rows(
        `SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = (SELECT id FROM datasets WHERE name = '${KEPT.name}')`,
      );
      expect(stored.every((r) => keptHashIds.has(String(r.h)))).toBe(true);
      // The discarded job: cancelled, its dataset and rows gone.
      const dropped = await rows(
        `SELECT j.status, (SELECT count(*) FROM datasets d WHERE d.id = j.dataset_id) AS datasets,
                (SELECT count(*) FROM shipment_rows s WHERE s.dataset_id = j.dataset_id) AS rows
           FROM jobs j WHERE j.label = '${DROPPED.name}'`,
      );
      expect(dropped.map((r) => [r.status, Number(r.datasets), Number(r.rows)])).toEqual([
        ['cancelled', 0, 0],
      ]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    const log = await readFile(join(dataDir, 'logs', 'web-host.log'), 'utf8');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(account.apiSecret);
    expect(output).not.toContain(account.apiSecret);
    // Everything the host wrote is the analyst's alone: folders 0700, files 0600 (its umask and start-up).
    for (const entry of await readdir(dataDir, { withFileTypes: true, recursive: true })) {
      const path = join(entry.parentPath, entry.name);
      const mode = (await stat(path)).mode & 0o777;
      expect(mode, path).toBe(entry.isDirectory() ? 0o700 : 0o600);
    }
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
  });
});
