import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '@shared/csp';
import { createAppProtocolHandler } from '../../src/main/shell/app-protocol';
import { WelcomePage } from './pages/welcome-page';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { PROJECT_ROOT, RENDERER_DIR } from './support/paths';
import { startStack, type Stack } from './support/stack';

const metaCsp = (html: string): string | undefined =>
  /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];

/** The build as it ships: the page's policy, how the Electron shell serves it, what main reads. */
describe('the built app', () => {
  let stack: Stack;
  let browser: Browser;
  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    stack = await startStack({ records: 0 });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('index.html carries the very policy both hosts send as a header', async () => {
    const html = await readFile(join(RENDERER_DIR, 'index.html'), 'utf8');
    expect(metaCsp(html)).toBe(contentSecurityPolicy());

    // The Electron shell: app://portolan/ serves the build with the header (files read from disk here,
    // where Electron's net.fetch reads them in the app).
    const handler = createAppProtocolHandler({
      rootDir: RENDERER_DIR,
      csp: contentSecurityPolicy(),
      fetchFile: async (path) => new Response(await readFile(path)),
    });
    const page = await handler({ url: 'app://portolan/index.html', method: 'GET' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(metaCsp(await page.text()));

    // The browser host, as Chromium receives it.
    const response = await browser.page.goto(stack.host.url);
    expect(response?.status()).toBe(200);
    const header = (await response?.allHeaders())?.['content-security-policy'];
    expect(header).toBe(contentSecurityPolicy());
    const inPage = await browser.page
      .locator('meta[http-equiv="Content-Security-Policy"]')
      .getAttribute('content');
    expect(inPage).toBe(header);
    await new WelcomePage(browser.page).root.waitFor();
    // Loading the app broke no rule of its policy.
    expect(browser.errors).toEqual([]);
  });

  it('the page refuses an injected inline script', async () => {
    // In the page's own words (a string: this file is compiled without the DOM's types).
    const outcome = (await browser.page.evaluate(`(async () => {
      const violated = new Promise((resolve) =>
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true }),
      );
      const s = document.createElement('script');
      s.textContent = 'window.__injected = true;';
      document.body.appendChild(s);
      const directive = await violated;
      return { directive, ran: window.__injected === true };
    })()`)) as { directive: string; ran: boolean };
    expect(outcome).toEqual({ directive: 'script-src-elem', ran: false });
    expect(browser.errors.some((e) => /Content Security Policy/.test(e))).toBe(true);
  });

  it("main's production bundle never reads the dev server's address", async () => {
    const main = await readFile(join(PROJECT_ROOT, 'out', 'main', 'index.js'), 'utf8');
    expect(main).not.toContain('ELECTRON_RENDERER_URL');
    expect(main).toContain('registerSchemesAsPrivileged');
  });
});
