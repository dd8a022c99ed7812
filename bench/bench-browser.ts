import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium, headless, in a profile of its own, as the browser-host benchmarks drive it
 * (launched here rather than through test/e2e/support/browser, which depends on the test runner).
 */
export async function launchBenchBrowser(viewport: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profileDir = await mkdtemp(join(tmpdir(), 'portolan-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}
