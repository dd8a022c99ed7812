import type { Locator, Page } from 'playwright-core';

/** The command palette (Mantine Spotlight), worked from the keyboard as an analyst does. */
export class CommandPalette {
  constructor(readonly page: Page) {}

  get search(): Locator {
    return this.page.getByTestId('command-palette-search');
  }

  action(id: string): Locator {
    return this.page.getByTestId(`palette-${id}`);
  }

  /** Ctrl+K, as the menu item and the palette say. */
  async openByKey(): Promise<void> {
    await this.page.keyboard.press('Control+K');
    await this.search.waitFor();
  }

  /** The labels of the entries shown, by group (Spotlight draws a group's name from a CSS variable). */
  async groups(): Promise<Record<string, string[]>> {
    return this.page.locator('.mantine-Spotlight-actionsGroup').evaluateAll((groups) =>
      Object.fromEntries(
        groups.map((g) => [
          (g.getAttribute('style') ?? '')
            .replace(/.*--spotlight-label:\s*/, '')
            .replace(/;.*$/, '')
            .trim()
            .replace(/^'|'$/g, ''),
          [...g.querySelectorAll('.mantine-Spotlight-actionLabel')].map((l) => (l.textContent ?? '').trim()),
        ]),
      ),
    );
  }

  /** The shortcut keys an entry shows ("Ctrl", "Enter"). */
  async shortcutOf(id: string): Promise<string[]> {
    return this.action(id)
      .locator('kbd')
      .evaluateAll((ks) => ks.map((k) => (k.textContent ?? '').trim()));
  }

  /**
   * Types a query, waits for entry `id` among those left (the palette reads the library's datasets
   * each time it opens), and runs the first with Enter.
   */
  async runOnceListed(query: string, id: string): Promise<void> {
    await this.search.fill(query);
    await this.action(id).waitFor();
    await this.page.keyboard.press('Enter');
    await this.search.waitFor({ state: 'detached' });
  }

  /** Types a query and runs the first entry left with Enter. */
  async run(query: string): Promise<void> {
    await this.search.fill(query);
    await this.page.keyboard.press('Enter');
    await this.search.waitFor({ state: 'detached' });
  }
}
