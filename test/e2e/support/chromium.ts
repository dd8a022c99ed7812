import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium, headless, in a fresh profile dir, with the flags that keep it off the network.
 * Free of the test runner, so the browser-host benchmarks launch it as the e2e tests do.
 */
export async function launchChromium(opts: {
  viewport: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** Names the profile dir under the system's temp dir. */
  profilePrefix: string;
}): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profileDir = await mkdtemp(join(tmpdir(), opts.profilePrefix));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: opts.viewport,
    ...(opts.colorScheme ? { colorScheme: opts.colorScheme } : {}),
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
