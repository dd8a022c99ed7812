// @vitest-environment jsdom
import { cleanup, render, screen } from './render';
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
});
