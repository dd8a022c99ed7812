import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCommand } from '@shared/app/app-contract';
import { buildMenuTemplate } from '../../src/main/shell/menu';

type MenuItem = ReturnType<typeof buildMenuTemplate>[number];
import { APP_COMMANDS, shortcutKeys } from '@shared/app/command-table';
import { PAGES } from '@shared/pages';
import type { AppShell } from './pages/app-shell';
import { CommandPalette } from './pages/command-palette';
import { SearchWorkbench } from './pages/search-workbench';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import { startStack, type Stack } from './support/stack';

/**
 * The Go menu's Run Search (Ctrl+Enter) and Edit Filter (Ctrl+L), end to end: the menu item of the
 * shell's own template sends its command through the host's event mechanism (the browser host's
 * event stream here, Electron's IPC in the app), and the page does what the item says. The browser
 * host has no menu bar, so there the same shortcuts are taken from the keyboard.
 */
describe('menu commands: Run Search and Edit Filter', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let search: SearchWorkbench;
  let palette: CommandPalette;
  screenshotOnFailure(() => browser);

  /** The shell's menu item with this label, wired to the host exactly as src/main/index.ts wires it. */
  function menuItem(label: string): MenuItem {
    const template = buildMenuTemplate({
      platform: 'linux',
      appName: 'Portolan',
      dev: false,
      send: (command: AppCommand) => stack.host.events.emit('app.command', command),
      showLog: () => undefined,
    });
    const items: MenuItem[] = template.flatMap((m) => (Array.isArray(m.submenu) ? m.submenu : []));
    const item = items.find((i) => i.label === label);
    if (!item?.click) throw new Error(`no menu item ${label}`);
    return item;
  }
  const choose = (label: string): void => (menuItem(label).click as () => void).call(undefined);

  const focusedTestId = () =>
    browser.page
      .locator(':focus')
      .getAttribute('data-testid', { timeout: 500 })
      .catch(() => null);
  const answers = async () => Number(await search.root.getAttribute('data-answers'));

  beforeAll(async () => {
    stack = await startStack({ records: 3_000, seed: 5 });
    browser = await launchBrowser();
    search = new SearchWorkbench(browser.page);
    palette = new CommandPalette(browser.page);
    shell = await openConnected(browser, stack);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('shows its shortcuts in the menu', () => {
    expect(menuItem('Run Search').accelerator).toBe('CmdOrCtrl+Enter');
    expect(menuItem('Edit Filter').accelerator).toBe('CmdOrCtrl+L');
  });

  it('Edit Filter opens the Search page with the first filter field focused, from any page', async () => {
    await shell.navigate('settings');
    choose('Edit Filter');
    await search.root.waitFor();
    expect(await shell.currentPage()).toBe('search');
    await expect.poll(focusedTestId).toBe('filter-importer_countries-input');
  });

  it('Run Search runs the form’s search from another page, and sends nothing while the form is invalid', async () => {
    await search.pickCountry('exporter_countries', 'germ', 'DE');
    await search.setSize(10);
    expect(await search.runButton.isDisabled()).toBe(false);
    const before = await answers();

    // Half-typed: a keyword under the service's minimum. The menu may not run what the button would refuse.
    await search.field('filter-product_detail-input').fill('st');
    await search.runReason.waitFor();
    choose('Run Search');
    await browser.page.waitForTimeout(300);
    expect(await answers()).toBe(before);
    expect(await search.summary.count()).toBe(0);

    await search.field('filter-product_detail-input').fill('');
    await shell.navigate('usage');
    choose('Run Search');
    await search.summary.waitFor();
    expect(await shell.currentPage()).toBe('search');
    expect(await answers()).toBe(before + 1);
    const { shown } = await search.shownAndTotal();
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(10);
  });

  it('takes the same shortcuts from the keyboard in the browser host, where there is no menu bar', async () => {
    await shell.navigate('library');
    await browser.page.keyboard.press('Control+L');
    await search.root.waitFor();
    await expect.poll(focusedTestId).toBe('filter-importer_countries-input');

    const before = await answers();
    await search.setSize(20);
    await browser.page.keyboard.press('Control+Enter');
    await expect.poll(answers).toBe(before + 1);
    expect((await search.shownAndTotal()).shown).toBeLessThanOrEqual(20);
  });

  it('lists Command Palette… with Ctrl+K in the menu; the palette shows the menu’s shortcuts next to its commands', async () => {
    expect(menuItem('Command Palette…').accelerator).toBe('CmdOrCtrl+K');
    // The browser host runs on this machine and reports its platform to the window.
    const platform = process.platform;
    await shell.navigate('usage');
    await browser.page.getByTestId('nav-usage').focus();
    choose('Command Palette…');
    await palette.search.waitFor();
    await expect.poll(focusedTestId).toBe('command-palette-search');
    const groups = await palette.groups();
    expect(Object.keys(groups)).toEqual(expect.arrayContaining(['Pages', 'Commands', 'Appearance']));
    expect(groups.Pages).toEqual(PAGES.map((p) => p.menuLabel));
    expect(groups.Commands).toEqual([
      'Run Search',
      'Edit Filter',
      'Import a File…',
      'New Profile…',
      'Refresh Usage',
      'Keyboard Shortcuts',
    ]);
    // Every command and page shows the shortcut its menu item has.
    for (const c of APP_COMMANDS.filter((x) => x.id !== 'command-palette' && x.accelerator)) {
      const accelerator = menuItem(c.label).accelerator ?? '';
      expect(await palette.shortcutOf(c.id), c.label).toEqual(shortcutKeys(accelerator, platform));
    }
    await browser.screenshot('palette-01-open');
    // Escape closes it and the focus goes back where it was.
    await browser.page.keyboard.press('Escape');
    await palette.search.waitFor({ state: 'detached' });
    await expect.poll(focusedTestId).toBe('nav-usage');
  });

  it('Help → Keyboard Shortcuts (Ctrl+/, the menu or the palette) lists every shortcut; Escape closes it and the focus goes back', async () => {
    expect(menuItem('Keyboard Shortcuts').accelerator).toBe('CmdOrCtrl+/');
    await shell.navigate('library');
    await browser.page.getByTestId('nav-library').focus();
    await browser.page.keyboard.press('Control+/');
    const list = browser.page.getByTestId('shortcuts-dialog');
    await list.waitFor();
    // Every shortcut of the command table, with the keys its menu item has.
    for (const c of APP_COMMANDS.filter((x) => x.accelerator)) {
      const keys = await list
        .getByTestId(`shortcut-${c.id}`)
        .locator('kbd')
        .evaluateAll((ks) => ks.map((k) => (k.textContent ?? '').trim()));
      expect(keys, c.label).toEqual(shortcutKeys(menuItem(c.label).accelerator ?? '', process.platform));
    }
    await browser.screenshot('shortcuts-01-open');
    await browser.page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    await expect.poll(focusedTestId).toBe('nav-library');

    await palette.openByKey();
    await palette.runOnceListed('shortcuts', 'shortcuts');
    await list.waitFor();
    await browser.page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });

    choose('Keyboard Shortcuts');
    await list.waitFor();
    await browser.page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(browser.errors).toEqual([]);
  });

  it('File → Import a File… (Ctrl+O) starts the Library’s import from any page; New Profile… opens Settings at its form', async () => {
    expect(menuItem('Import a File…').accelerator).toBe('CmdOrCtrl+O');
    await shell.navigate('usage');
    const chooser = browser.page.waitForEvent('filechooser');
    await browser.page.keyboard.press('Control+O');
    const picker = await chooser;
    expect(await shell.currentPage()).toBe('library');
    await picker.setFiles({
      name: 'buyers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Importer,Exporter\nAcme,Bolt\n'),
    });
    const form = browser.page.getByTestId('import-form');
    await form.waitFor();
    // Escape closes the import, and the focus is on the Import button, where a click would have left it.
    await browser.page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await expect.poll(focusedTestId).toBe('library-import-button');

    await shell.navigate('search');
    await palette.openByKey();
    await palette.runOnceListed('new profile', 'new-profile');
    expect(await shell.currentPage()).toBe('settings');
    await expect.poll(focusedTestId).toBe('profile-name');
    await browser.page.keyboard.press('Escape');
    await expect.poll(focusedTestId).toBe('profile-new');
    expect(browser.errors).toEqual([]);
  });

  it('Ctrl+K, a few letters, Enter: goes to a page, runs a command, loads a preset, opens a dataset', async () => {
    // A page.
    await shell.navigate('settings');
    await palette.openByKey();
    await palette.run('libr');
    expect(await shell.currentPage()).toBe('library');

    // A command: Edit Filter, as its menu item does.
    await palette.openByKey();
    await palette.run('edit filt');
    expect(await shell.currentPage()).toBe('search');
    await expect.poll(focusedTestId).toBe('filter-importer_countries-input');
    // The focused country field shows its list; Escape puts it away.
    await browser.page.keyboard.press('Escape');

    // A preset: saved from the form, then the form cleared; the palette loads it back.
    await search.clearFilter();
    await search.pickCountry('exporter_countries', 'fran', 'FR');
    await search.savePreset('French exporters');
    await search.clearFilter();
    expect(await search.tags('exporter_countries')).toEqual([]);
    await shell.navigate('usage');
    await palette.openByKey();
    await palette.search.fill('french');
    await palette.page.locator('[data-testid^="palette-preset-"]', { hasText: 'French exporters' }).waitFor();
    await browser.page.keyboard.press('Enter');
    await search.root.waitFor();
    expect(await search.tags('exporter_countries')).toEqual(['FR France']);

    // A dataset: the searches above were kept in the library; the palette opens one by name.
    await palette.openByKey();
    await palette.search.fill('dataset');
    const first = palette.page.locator('[data-testid^="palette-dataset-"]').first();
    await first.waitFor();
    const id = ((await first.getAttribute('data-testid')) ?? '').replace('palette-dataset-', '');
    await browser.page.keyboard.press('Enter');
    await browser.page.locator(`[data-testid="library-detail"][data-dataset-id="${id}"]`).waitFor();
    expect(await shell.currentPage()).toBe('library');

    // The nav bar's button opens it too, for an analyst who does not know the shortcut.
    await browser.page.getByTestId('command-palette-open').click();
    await palette.search.waitFor();
    await browser.page.keyboard.press('Escape');
    await palette.search.waitFor({ state: 'detached' });
    expect(browser.errors).toEqual([]);
  });
});
