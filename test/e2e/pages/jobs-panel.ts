import type { Locator, Page } from 'playwright-core';

export interface JobProgressSeen {
  done: number;
  total: number | null;
  windowsDone: number | null;
  windowsKnown: number | null;
}

export interface FetchAllEstimate {
  total: number;
  downloads: number | null;
  requests: number | null;
}

const num = (v: string | null): number | null => (v === null || v === '' ? null : Number(v));

/**
 * The "Fetch all" confirm dialog and the jobs tray (running, finished and resumable jobs), as a user
 * works them on the Search, Firms and Library pages.
 */
export class JobsPanel {
  constructor(readonly page: Page) {}

  /**
   * Opens the jobs tray from the status bar, as the analyst does to see jobs they did not just start
   * (a job left unfinished by a restart); starting a fetch opens it by itself.
   */
  async openTray(): Promise<void> {
    const tray = this.page.getByTestId('jobs-panel');
    if (await tray.isVisible()) return;
    await this.page.getByTestId('jobs-tray-button').click();
    await tray.waitFor();
  }

  get dialog(): Locator {
    return this.page.getByTestId('fetch-all-dialog');
  }

  /** Waits for the dialog's estimate (one small request) and returns its figures. */
  async estimate(): Promise<FetchAllEstimate> {
    await this.page
      .locator('[data-testid="fetch-all-dialog"][data-state="ready"]')
      .waitFor({ timeout: 30_000 });
    const e = this.dialog.getByTestId('fetch-all-estimate');
    return {
      total: Number(await e.getAttribute('data-total')),
      downloads: num(await e.getAttribute('data-downloads')),
      requests: num(await e.getAttribute('data-requests')),
    };
  }

  /** Names the dataset, starts the job, and returns its id once the tray shows it running. */
  async confirm(name: string): Promise<string> {
    const before = new Set(await this.runningIds());
    await this.dialog.getByTestId('fetch-all-name').fill(name);
    await this.dialog.getByTestId('fetch-all-confirm').click();
    await this.dialog.waitFor({ state: 'detached', timeout: 30_000 });
    let id: string | undefined;
    await this.until(async () => {
      id = (await this.runningIds()).find((x) => !before.has(x));
      return id !== undefined;
    }, 30_000);
    return id as string;
  }

  running(jobId: string): Locator {
    return this.page.getByTestId(`job-running-${jobId}`);
  }

  async runningIds(): Promise<string[]> {
    const ids = await this.page
      .locator('[data-testid^="job-running-"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
    return ids.map((t) => t.replace('job-running-', ''));
  }

  /** The figures the running job's row shows now. */
  async progress(jobId: string): Promise<JobProgressSeen> {
    // One read of all four: separate reads could straddle a progress event and mix two of them.
    const a = await this.running(jobId).evaluate((el) =>
      ['data-job-done', 'data-job-total', 'data-windows-done', 'data-windows-known'].map((n) =>
        el.getAttribute(n),
      ),
    );
    return {
      done: Number(a[0]),
      total: num(a[1] ?? null),
      windowsDone: num(a[2] ?? null),
      windowsKnown: num(a[3] ?? null),
    };
  }

  detail(jobId: string): Locator {
    return this.page.getByTestId(`job-detail-${jobId}`);
  }

  /** Polls the running job's row until `ok` holds for its figures; returns them. */
  async waitForProgress(
    jobId: string,
    ok: (p: JobProgressSeen) => boolean,
    timeoutMs = 60_000,
  ): Promise<JobProgressSeen> {
    let seen: JobProgressSeen | undefined;
    await this.until(async () => {
      if ((await this.running(jobId).count()) === 0)
        throw new Error(`job ${jobId} is no longer running (last seen ${JSON.stringify(seen)})`);
      seen = await this.progress(jobId);
      return ok(seen);
    }, timeoutMs);
    return seen as JobProgressSeen;
  }

  finished(jobId: string): Locator {
    return this.page.getByTestId(`job-finished-${jobId}`);
  }

  /** Waits for the job's finished entry and returns its outcome. */
  async waitForFinish(jobId: string, timeoutMs = 60_000): Promise<string> {
    await this.openTray();
    await this.finished(jobId).waitFor({ timeout: timeoutMs });
    return (await this.finished(jobId).getAttribute('data-outcome')) ?? '';
  }

  async openInLibrary(jobId: string): Promise<void> {
    await this.page.getByTestId(`job-open-${jobId}`).click();
    await this.page.getByTestId('library-detail').waitFor();
  }

  resumable(jobId: string): Locator {
    return this.page.getByTestId(`job-resumable-${jobId}`);
  }

  async resumableIds(): Promise<string[]> {
    await this.openTray();
    const ids = await this.page
      .locator('[data-testid^="job-resumable-"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
    return ids.map((t) => t.replace('job-resumable-', ''));
  }

  /** What the tray says of a job left over from before a restart. */
  async resumableInfo(
    jobId: string,
  ): Promise<{ status: string; label: string; done: number; total: number | null; text: string }> {
    await this.openTray();
    const row = this.resumable(jobId);
    await row.waitFor({ timeout: 30_000 });
    return {
      status: (await row.getAttribute('data-status')) ?? '',
      label: (await row.getAttribute('data-job-label')) ?? '',
      done: Number(await row.getAttribute('data-job-done')),
      total: num(await row.getAttribute('data-job-total')),
      text: ((await row.textContent()) ?? '').trim(),
    };
  }

  async resume(jobId: string): Promise<void> {
    await this.openTray();
    await this.page.getByTestId(`job-resume-${jobId}`).click();
    await this.resumable(jobId).waitFor({ state: 'detached', timeout: 30_000 });
  }

  /** Discards a stopped job, answering "Discard" to the question a job holding records asks first. */
  async discard(jobId: string): Promise<void> {
    await this.page.getByTestId(`job-discard-${jobId}`).click();
    // A job with nothing stored is discarded without asking.
    const asked = await this.page
      .getByTestId('job-discard-question')
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (asked) await this.page.getByTestId('job-discard-yes').click();
    await this.resumable(jobId).waitFor({ state: 'detached', timeout: 30_000 });
  }

  get error(): Locator {
    return this.page.getByTestId('jobs-error');
  }

  /** Polls from the test side (the app's CSP forbids evaluated strings). */
  private async until(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > end) throw new Error('the jobs panel did not get there in time');
      await this.page.waitForTimeout(40);
    }
  }
}
