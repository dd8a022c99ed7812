import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach } from 'vitest';
import { launchChromium } from './chromium';
import { ARTIFACTS_DIR } from './paths';

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far; a clean run has none. */
  errors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, in a fresh profile dir (launchChromium), its page's errors kept. */
export async function launchBrowser(opts: { colorScheme?: 'light' | 'dark' } = {}): Promise<Browser> {
  const { context, page, close } = await launchChromium({
    viewport: { width: 1280, height: 860 },
    colorScheme: opts.colorScheme ?? 'light',
    profilePrefix: 'portolan-chromium-',
  });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return {
    context,
    page,
    errors,
    async screenshot(name) {
      const path = join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close,
  };
}

/** Registers, for every test of the calling file, a full-page screenshot when the test fails. */
export function screenshotOnFailure(current: () => Browser | undefined): void {
  beforeEach((ctx) => {
    ctx.onTestFailed(async () => {
      const slug = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
      await current()
        ?.screenshot(`FAILED-${slug}`)
        .catch(() => undefined);
    });
  });
}
