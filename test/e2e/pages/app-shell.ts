import type { Locator, Page } from 'playwright-core';

import type { PageId } from '@shared/pages';

export type PageName = PageId;

/** The main window: navigation, the current page, the status bar. */
export class AppShell {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.locator('[data-testid="app-shell"], [data-testid="welcome-screen"]').first().waitFor();
  }

  async navigate(to: PageName): Promise<void> {
    await this.page.getByTestId(`nav-${to}`).click();
    await this.page.getByTestId(`${to}-page`).waitFor();
  }

  /** The page the shell shows now, from its data attribute. */
  async currentPage(): Promise<string | null> {
    return this.page.getByTestId('app-shell').getAttribute('data-page');
  }

  get statusProfile(): Locator {
    return this.page.getByTestId('status-profile');
  }

  get connectionStatus(): Locator {
    return this.page.getByTestId('status-connection');
  }
}
