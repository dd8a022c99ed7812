import type { Locator, Page } from 'playwright-core';

/** The first-run screen shown while there is no profile. */
export class WelcomePage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('welcome-screen');
  }

  async tryDemo(): Promise<void> {
    await this.page.getByTestId('welcome-demo').click();
  }

  async connectAccount(): Promise<void> {
    await this.page.getByTestId('welcome-connect').click();
  }
}
