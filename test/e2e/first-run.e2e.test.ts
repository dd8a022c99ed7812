import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsPage } from './pages/settings-page';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openOnDemo } from './support/connected';
import { startStack, type Stack } from './support/stack';

describe('first run with the demo workspace', () => {
  let stack: Stack;
  let browser: Browser;
  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    stack = await startStack({ records: 0 });
    // Dark, so the screenshots cover the second theme too.
    browser = await launchBrowser({ colorScheme: 'dark' });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('"Try with demo data" lands on Search with the demo profile active', async () => {
    const shell = await openOnDemo(browser, stack);
    expect(await shell.currentPage()).toBe('search');
    expect(await shell.statusProfile.textContent()).toContain('(demo)');
    await browser.screenshot('10-demo-search-dark');

    // The demo profile is a working connection like any other.
    await shell.navigate('settings');
    const settings = new SettingsPage(browser.page);
    const demoCard = browser.page.locator('[data-testid="profile-card"]').first();
    const name = await demoCard.getAttribute('data-profile-name');
    expect(name).toBeTruthy();
    expect(await demoCard.getByTestId('profile-active-badge').count()).toBe(1);
    const result = await settings.testConnection(name as string);
    expect(await result.getAttribute('data-status')).toBe('passed');
    await browser.screenshot('11-demo-settings-dark');

    // A reload keeps working: the page holds the session cookie (not the token), the profile is in the data dir.
    await browser.page.reload();
    await browser.page.getByTestId('app-shell').waitFor();
    expect(await shell.statusProfile.textContent()).toContain('(demo)');

    // Menu shortcuts arrive as app.command events over the host's event stream.
    stack.host.events.emit('app.command', { command: 'navigate', target: 'library' });
    await browser.page.locator('[data-testid="app-shell"][data-page="library"]').waitFor();
    expect(browser.errors).toEqual([]);
  });
});
