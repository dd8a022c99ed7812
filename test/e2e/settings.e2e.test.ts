import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppShell } from './pages/app-shell';
import { SettingsPage } from './pages/settings-page';
import { WelcomePage } from './pages/welcome-page';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { startStack, type Stack } from './support/stack';

describe('Settings → Connection profiles against the simulator', () => {
  let stack: Stack;
  let browser: Browser;
  screenshotOnFailure(() => browser);
  let shell: AppShell;
  let settings: SettingsPage;

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchBrowser();
    shell = new AppShell(browser.page);
    settings = new SettingsPage(browser.page);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('first run: "Connect your account" leads to Settings with the new profile\'s form open', async () => {
    await shell.open(stack.host.url);
    const welcome = new WelcomePage(browser.page);
    await welcome.root.waitFor();
    await browser.screenshot('01-welcome');
    await welcome.connectAccount();
    await settings.root.waitFor();
    // The form to fill is open, its first field focused: no empty list to find New profile in first.
    await browser.page.getByTestId('profile-form').waitFor();
    await browser.page.locator('[data-testid="profile-name"]:focus').waitFor();
    expect(await browser.page.getByTestId('profiles-empty').count()).toBe(0);
    // The token left the address bar and the tab's history once the page had it, and was traded for a
    // session cookie no script can read; nothing of it is kept in the page's storage.
    expect(browser.page.url()).not.toContain('token');
    const cdp = await browser.context.newCDPSession(browser.page);
    const { entries } = (await cdp.send('Page.getNavigationHistory')) as { entries: { url: string }[] };
    await cdp.detach();
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(e.url).not.toContain('token');
    expect(await browser.page.evaluate('document.cookie')).toBe('');
    const stored = await browser.page.evaluate<string>(
      'JSON.stringify([{ ...window.sessionStorage }, { ...window.localStorage }])',
    );
    expect(stored).not.toContain(stack.host.token);
    const cookies = await browser.context.cookies(stack.host.origin);
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([
      [`portolan_session_${stack.host.port}`, true, 'Strict'],
    ]);
    expect(cookies[0]!.value).not.toBe(stack.host.token);
    // The launch address the browser recorded opens nothing any more: the token is spent.
    const reuse = await fetch(`${stack.host.origin}/session`, {
      method: 'POST',
      headers: { 'X-Portolan-Token': stack.host.token },
    });
    expect(reuse.status).toBe(401);
  });

  it('shows schema problems at the field they belong to', async () => {
    await settings.submitNewProfile({ name: '   ', baseUrl: 'ftp:/nowhere' });
    await settings.fieldError('profile-name').waitFor();
    expect(await settings.fieldError('profile-name').textContent()).toContain('name is required');
    expect(await settings.fieldError('profile-base-url').textContent()).toContain('http');
    await browser.screenshot('02-profile-validation');
    await browser.page.getByTestId('profile-cancel').click();
  });

  it('creates a profile, stores key and secret, and the test shows the accounts and metrics', async () => {
    const { sim, account } = stack;
    const card = await settings.createProfile({
      name: 'Simulator',
      baseUrl: sim.url,
      accountName: account.name,
    });
    expect(await card.getByTestId('profile-card-key').textContent()).toBe('not set');
    expect(await card.getByTestId('profile-test').isDisabled()).toBe(true);

    await settings.setCredentials('Simulator', account.apiKey, account.apiSecret);
    expect(await card.getByTestId('profile-card-key').textContent()).toBe(`••••${account.apiKey.slice(-4)}`);
    expect(await card.getByTestId('profile-card-secret').textContent()).toBe('stored in keychain');

    // Never read back: reopening the form shows empty inputs.
    await card.getByTestId('profile-credentials').click();
    expect(await card.getByTestId('credentials-api-key').inputValue()).toBe('');
    expect(await card.getByTestId('credentials-api-secret').inputValue()).toBe('');
    expect(await card.getByTestId('credentials-api-secret').getAttribute('type')).toBe('password');
    await card.getByTestId('credentials-cancel').click();

    if ((await card.getByTestId('profile-active-badge').count()) === 0) await settings.setActive('Simulator');
    expect(await shell.statusProfile.textContent()).toContain('Simulator');

    const result = await settings.testConnection('Simulator');
    expect(await result.getAttribute('data-status')).toBe('passed');
    const accounts = await result
      .getByTestId('test-result-account')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-account')));
    expect(accounts).toEqual([account.name]);
    const metrics = await result
      .locator('tr[data-metric]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-metric')));
    expect(metrics).toEqual(
      expect.arrayContaining([
        'shipments/search',
        'shipments/count',
        'firms/search',
        'firms/count',
        'dailyRequest',
      ]),
    );
    expect(await shell.connectionStatus.getAttribute('data-status')).toBe('connected');
    await browser.screenshot('03-test-connection-passed');

    expect(await browser.page.content()).not.toContain(account.apiSecret);
    expect(stack.log.lines.join('\n')).not.toContain(account.apiSecret);
  });

  it('a wrong secret shows the AuthRejected error at the profile and in the status bar', async () => {
    await settings.setCredentials('Simulator', stack.account.apiKey, 'definitely-not-the-secret');
    const result = await settings.testConnection('Simulator');
    expect(await result.getAttribute('data-status')).toBe('failed');
    expect(await result.getByTestId('test-result-error').getAttribute('data-error-kind')).toBe(
      'AuthRejected',
    );
    expect(await shell.connectionStatus.getAttribute('data-status')).toBe('failed');
    await browser.screenshot('04-test-connection-rejected');
  });

  it('Enter saves the profile form; Escape leaves it unsaved and the focus goes back to Edit', async () => {
    const page = browser.page;
    const isFocused = (l: ReturnType<typeof page.getByTestId>) =>
      l.evaluate((el) => el === el.ownerDocument.activeElement);
    const edit = settings.card('Simulator').getByTestId('profile-edit');
    await edit.click();
    await page.getByTestId('profile-name').fill('Simulator renamed');
    await page.keyboard.press('Escape');
    await page.getByTestId('profile-form').waitFor({ state: 'detached' });
    expect(await isFocused(edit)).toBe(true);
    expect(await settings.card('Simulator').count()).toBe(1);

    await edit.click();
    await page.getByTestId('profile-name').fill('Simulator desk');
    await page.getByTestId('profile-name').press('Enter');
    await settings.card('Simulator desk').waitFor();
    await settings.card('Simulator desk').getByTestId('profile-edit').click();
    await page.getByTestId('profile-name').fill('Simulator');
    await page.getByTestId('profile-base-url').press('Enter');
    await settings.card('Simulator').waitFor();
  });

  it('deletes a profile only after confirmation; Escape keeps it and gives the focus back', async () => {
    const card = settings.card('Simulator');
    await settings.askDelete('Simulator');
    expect(await settings.deleteConfirm.getByRole('heading').textContent()).toBe(
      'Delete the profile “Simulator”?',
    );
    await browser.screenshot('05-delete-confirmation');
    await browser.page.keyboard.press('Escape');
    await browser.page.getByRole('dialog').waitFor({ state: 'hidden' });
    await expect
      .poll(() => card.getByTestId('profile-delete').evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    await settings.askDelete('Simulator');
    await browser.page.getByTestId('profile-delete-no').click();
    await browser.page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await card.count()).toBe(1);
    await settings.deleteProfile('Simulator');
    await browser.page.getByTestId('profiles-empty').waitFor();
    expect(browser.errors).toEqual([]);
  });
});
