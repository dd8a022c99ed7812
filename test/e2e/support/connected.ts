import type { SimAccount } from '../../../src/main/sim';
import { AppShell } from '../pages/app-shell';
import { SettingsPage } from '../pages/settings-page';
import { WelcomePage } from '../pages/welcome-page';
import type { Browser } from './browser';
import type { HostProcess } from './host-process';
import type { Stack } from './stack';

/**
 * The app in the browser as an analyst starts a working day: opened at the host's address, past the
 * welcome page, with the stack's simulator account saved as the active profile ("Sim").
 */
export async function openConnected(
  browser: Browser,
  stack: Stack,
  account: SimAccount = stack.account,
): Promise<AppShell> {
  const shell = new AppShell(browser.page);
  await shell.open(stack.host.url);
  await new WelcomePage(browser.page).connectAccount();
  await new SettingsPage(browser.page).addActiveProfile('Sim', stack.sim.url, account);
  return shell;
}

/**
 * The app opened at the host's address on the demo workspace (Try the demo), once its Search page shows.
 * The host is a stack's in-process one or a separately started host process (`{ url }`).
 */
export async function openOnDemo(
  browser: Browser,
  at: Pick<Stack, 'host'> | Pick<HostProcess, 'url'>,
): Promise<AppShell> {
  const shell = new AppShell(browser.page);
  await shell.open('host' in at ? at.host.url : at.url);
  await new WelcomePage(browser.page).tryDemo();
  await browser.page.getByTestId('search-page').waitFor({ timeout: 60_000 });
  return shell;
}
