// @vitest-environment jsdom
import { cleanup, render, screen, within } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import type { UsageSummary } from '@shared/spec';
import { TestResult } from '../../src/renderer/src/features/settings/test-result';

afterEach(cleanup);

const usage: UsageSummary = {
  main: { 'shipments/search': { current: 0, limit: 150_000 } },
  'eu-desk': { 'shipments/search': { current: 0, limit: -1, notes: 'unlimited' } },
};
const passed = { status: 'passed' as const, usage, at: 0 };

describe('Settings → Test connection', () => {
  it("warns when the profile's default account is not among the accounts the service reported", () => {
    render(<TestResult state={passed} accountName="nosuch" />);
    expect(screen.getByTestId('test-result-account-warning').textContent).toBe(
      "The profile's default account “nosuch” is not among the accounts the service reported (main, eu-desk). Searches that name no account would be refused: edit the profile and choose one of these.",
    );
  });

  it('says nothing more when the default account is reported, or the profile names none', () => {
    render(<TestResult state={passed} accountName="eu-desk" />);
    expect(screen.queryByTestId('test-result-account-warning')).toBeNull();
    cleanup();
    render(<TestResult state={passed} accountName="" />);
    expect(screen.queryByTestId('test-result-account-warning')).toBeNull();
  });

  it('shows the figures in the Usage page’s table: a meter, what is left, a limit with no ceiling said the same way', () => {
    render(<TestResult state={passed} accountName="main" />);
    const rows = (account: string) =>
      [...screen.getAllByTestId('test-result-account')]
        .find((a) => a.getAttribute('data-account') === account)!
        .querySelectorAll('tbody tr');
    expect(rows('main')).toHaveLength(1);
    const main = screen.getByTestId('test-result-main-shipments-search');
    expect(within(main).getByRole('rowheader').textContent).toBe('Shipment search (downloads)');
    expect(within(main).getByRole('progressbar').getAttribute('aria-label')).toBe(
      'Shipment search (downloads): 0 of 150,000 used',
    );
    expect(screen.getByTestId('test-result-main-shipments-search-text').textContent).toBe(
      '0 / 150,000 (150,000 left)',
    );
    expect(screen.getByTestId('test-result-eu-desk-shipments-search-text').textContent).toBe(
      '0 used · no limit',
    );
    // The same columns as the Usage page's table.
    const heads = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(heads.slice(0, 3)).toEqual(['What is counted', 'Spent', 'Used / limit']);
    // An account with no ceiling at all has no meter to show, so no "Spent" column standing empty.
    const euDesk = screen.getByRole('table', { name: 'Usage of account eu-desk' });
    expect(
      within(euDesk)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['What is counted', 'Used / limit']);
  });
});
