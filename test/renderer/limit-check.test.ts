import { describe, expect, it } from 'vitest';
import type { UsageSummary } from '@shared/spec';
import { checkLimit, pickAccount } from '../../src/renderer/src/session/limit-check';
import { emptyDraft, validateDraft } from '../../src/renderer/src/features/filters/filter-model';

const usage: UsageSummary = {
  main: { 'shipments/search': { current: 0, limit: 150_000 } },
  'eu-desk': { 'shipments/search': { current: 149_990, limit: 150_000 } },
};

describe('which account a request is checked against', () => {
  it('never stands in another account for a name the service does not know', () => {
    expect(pickAccount(usage, 'nosuch')).toBeNull();
    const c = checkLimit(usage, 'nosuch', 'shipments/search', 1000);
    expect(c).toEqual({
      state: 'unknown',
      account: null,
      message: "account nosuch is not one of this profile's accounts: main, eu-desk",
    });
  });

  it('uses the named account, or the first when none is named', () => {
    expect(pickAccount(usage, 'eu-desk')).toBe('eu-desk');
    expect(checkLimit(usage, 'eu-desk', 'shipments/search', 1000).state).toBe('exceeds');
    expect(pickAccount(usage, undefined)).toBe('main');
  });

  it('makes an unknown account a field error only once usage is known', () => {
    const d = { ...emptyDraft(), account_name: 'nosuch' };
    expect(validateDraft(d, 'shipmentSearch', { size: 100 }).valid).toBe(true);
    const v = validateDraft(d, 'shipmentSearch', { size: 100, accounts: Object.keys(usage) });
    expect(v.bySlot.account_name).toEqual([
      "Account name: not one of this profile's accounts: main, eu-desk",
    ]);
    expect(v.reason).toBe("Cannot run: Account name: not one of this profile's accounts: main, eu-desk");
  });
});
