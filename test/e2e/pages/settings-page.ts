import type { Locator, Page } from 'playwright-core';

export interface ProfileInput {
  name: string;
  baseUrl: string;
  accountName?: string;
  apiKey?: string;
  apiSecret?: string;
}

/** Settings → Connection profiles, as a user works it. */
export class SettingsPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('settings-page');
  }

  get keychainBanner(): Locator {
    return this.page.getByTestId('keychain-banner');
  }

  card(name: string): Locator {
    return this.page.locator(`[data-testid="profile-card"][data-profile-name="${name}"]`);
  }

  /** Fills and submits the new-profile form; does not wait for success, so invalid input can be tried. */
  async submitNewProfile(p: ProfileInput): Promise<void> {
    const form = this.page.getByTestId('profile-form');
    // First run's "Connect your account" opens the form already; otherwise New profile does.
    const newProfile = this.page.locator('[data-testid="profile-new"]:enabled');
    await form.or(newProfile).first().waitFor();
    if (!(await form.isVisible())) await newProfile.click();
    await form.getByTestId('profile-name').fill(p.name);
    await form.getByTestId('profile-base-url').fill(p.baseUrl);
    if (p.accountName !== undefined) await form.getByTestId('profile-account-name').fill(p.accountName);
    if (p.apiKey !== undefined) await form.getByTestId('profile-api-key').fill(p.apiKey);
    if (p.apiSecret !== undefined) await form.getByTestId('profile-api-secret').fill(p.apiSecret);
    await form.getByTestId('profile-save').click();
  }

  async createProfile(p: ProfileInput): Promise<Locator> {
    await this.submitNewProfile(p);
    const card = this.card(p.name);
    await card.waitFor();
    return card;
  }

  /** The validation message shown under a field of the profile form. */
  fieldError(
    field:
      | 'profile-name'
      | 'profile-base-url'
      | 'profile-account-name'
      | 'credentials-api-key'
      | 'credentials-api-secret',
  ): Locator {
    return this.page.getByTestId(`${field}-error`);
  }

  async setCredentials(name: string, apiKey: string, apiSecret: string): Promise<void> {
    const card = this.card(name);
    await card.getByTestId('profile-credentials').click();
    const form = card.getByTestId('credentials-form');
    await form.getByTestId('credentials-api-key').fill(apiKey);
    await form.getByTestId('credentials-api-secret').fill(apiSecret);
    await form.getByTestId('credentials-save').click();
    await form.waitFor({ state: 'detached' });
  }

  /** A profile for `account` at `baseUrl` with its credentials saved, made the active one. */
  async addActiveProfile(
    name: string,
    baseUrl: string,
    account: { name: string; apiKey: string; apiSecret: string },
  ): Promise<void> {
    await this.createProfile({ name, baseUrl, accountName: account.name });
    await this.setCredentials(name, account.apiKey, account.apiSecret);
    // The first profile is made active on its own.
    if ((await this.card(name).getByTestId('profile-active-badge').count()) === 0) await this.setActive(name);
  }

  async setActive(name: string): Promise<void> {
    await this.card(name).getByTestId('profile-set-active').click();
    await this.card(name).getByTestId('profile-active-badge').waitFor();
  }

  /** Runs the connection test and waits for its outcome; returns the result panel. */
  async testConnection(name: string): Promise<Locator> {
    const card = this.card(name);
    await card.getByTestId('profile-test').click();
    const result = card.locator('[data-testid="test-result"]:not([data-status="running"])');
    await result.waitFor();
    return result;
  }

  /** The delete confirmation (a dialog above the page, not inside the card). */
  get deleteConfirm(): Locator {
    return this.page.getByTestId('profile-delete-confirm');
  }

  /** Opens the delete confirmation of a profile and waits for it. */
  async askDelete(name: string): Promise<void> {
    await this.card(name).getByTestId('profile-delete').click();
    await this.page.getByRole('dialog').waitFor();
  }

  async deleteProfile(name: string): Promise<void> {
    const card = this.card(name);
    await this.askDelete(name);
    await this.page.getByTestId('profile-delete-yes').click();
    await card.waitFor({ state: 'detached' });
  }
}
