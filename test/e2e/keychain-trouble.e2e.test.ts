import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsPage } from './pages/settings-page';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openOnDemo } from './support/connected';
import { startHostProcess, type HostProcess } from './support/host-process';

describe('a keychain that cannot be reached', () => {
  let host: HostProcess;
  let browser: Browser;
  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    // No reachable D-Bus session: keytar fails for real, as on a headless machine without a keyring.
    host = await startHostProcess({
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/portolan-bus' },
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });

  it('is explained in a banner, and the demo workspace still works', async () => {
    const shell = await openOnDemo(browser, host);

    await shell.navigate('settings');
    const settings = new SettingsPage(browser.page);
    await settings.keychainBanner.waitFor();
    // keytar's own failure, said in words: what happened, what to do, the system's text apart under it.
    const text = async (id: string) => (await browser.page.getByTestId(id).textContent()) ?? '';
    expect(await text('keychain-problem')).toMatch(/^No Secret Service is running for your session/);
    expect(await text('keychain-action')).toMatch(/^Install and start GNOME Keyring/);
    expect(await text('keychain-detail')).toMatch(/^The system said: Could not connect/);
    expect(await settings.keychainBanner.textContent()).toMatch(/demo workspace work without it/);
    expect((await settings.keychainBanner.textContent())?.match(/Could not connect/g)).toHaveLength(1);

    const card = browser.page.locator('[data-testid="profile-card"]').first();
    const result = await settings.testConnection((await card.getAttribute('data-profile-name')) as string);
    expect(await result.getAttribute('data-status')).toBe('passed');
    await browser.screenshot('20-keychain-unavailable');

    // A real profile cannot take a secret: the error says why, at the form.
    await settings.submitNewProfile({
      name: 'Real account',
      baseUrl: 'https://api.example.com',
      apiKey: 'key-0123456789',
      apiSecret: 'secret-value',
    });
    await browser.page.getByTestId('profile-form-error').waitFor();
    expect(await browser.page.getByTestId('profile-form-error').textContent()).toMatch(/keychain/i);
  });
});
