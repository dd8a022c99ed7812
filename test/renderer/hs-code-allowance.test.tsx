import { describe, expect, it } from 'vitest';
import type { UsageSummary } from '@shared/spec';
import { checkHsCodes } from '../../src/renderer/src/session/limit-check';
import { emptyDraft } from '../../src/renderer/src/features/filters/filter-model';
import { searchCheckOf } from '../../src/renderer/src/features/search/search-store';
import { firmsCheckOf } from '../../src/renderer/src/features/firms/firms-store';

describe('the allowance of distinct HS codes', () => {
  const hs = (current: number, limit: number, notes: string): UsageSummary => ({
    main: {
      'shipments/search': { current: 0, limit: -1, notes: 'unlimited' },
      searchedHsCodes: { current, limit, notes },
    },
  });

  it('says nothing when every code was searched before, or the allowance is unlimited', () => {
    expect(checkHsCodes(hs(2, 3, '8471,8517'), undefined, ['8517', '8471'])).toBeNull();
    expect(checkHsCodes(hs(2, -1, '8471,8517'), undefined, ['9999'])).toBeNull();
    expect(checkHsCodes(null, undefined, ['9999'])).toBeNull();
  });

  it('counts only the new codes against what is left', () => {
    const c = checkHsCodes(hs(2, 3, '8471,8517'), undefined, ['8471', '7208']);
    expect(c).toMatchObject({ state: 'ok', fresh: ['7208'], left: 1 });
    expect(c?.message).toBe('HS code 7208 is new to account main: 0 of 3 distinct HS codes left after this');
  });

  it('names an allowance of one code in the singular', () => {
    const c = checkHsCodes(hs(0, 1, ''), undefined, ['7208', '3004']);
    expect(c?.message).toMatch(
      /^HS codes 7208, 3004 are new to account main, which may search 1 distinct HS code and has 1 left:/,
    );
  });

  it('warns before the service would refuse, naming the codes and the way out, and Run says why it is off', () => {
    const summary = hs(2, 3, '8471,8517');
    const c = checkHsCodes(summary, undefined, ['8471', '7208', '3004', '3004']);
    expect(c).toMatchObject({ state: 'exceeds', fresh: ['7208', '3004'], left: 1 });
    expect(c?.message).toBe(
      'HS codes 7208, 3004 are new to account main, which may search 3 distinct HS codes and has 1 left: ' +
        'the service would refuse this. Remove 1 of the new codes, or use codes already searched (the Usage page lists them)',
    );
    const draft = { ...emptyDraft(), hs_codes: ['8471', '7208', '3004'] };
    const check = searchCheckOf(draft, 100, true, summary, { accounts: ['main'] });
    // Confirming a download past its limit does not help here: the service refuses the search whole.
    expect(check.reason).toBe(`Cannot run: ${c?.message}`);
    const fine = searchCheckOf({ ...draft, hs_codes: ['8471', '7208'] }, 100, false, summary, {
      accounts: ['main'],
    });
    expect(fine.reason).toBeNull();
    expect(fine.hsCodes?.state).toBe('ok');
  });

  it('firm searches and counts are held to the same allowance: both buttons off, saying why', () => {
    const summary = hs(2, 3, '8471,8517');
    const over = firmsCheckOf({ ...emptyDraft(), hs_codes: ['8471', '7208', '3004'] }, summary, {
      accounts: ['main'],
    });
    expect(over.hsCodes).toMatchObject({ state: 'exceeds', fresh: ['7208', '3004'], left: 1 });
    expect(over.search.reason).toBe(`Cannot run: ${over.hsCodes?.message}`);
    expect(over.count.reason).toBe(`Cannot run: ${over.hsCodes?.message}`);
    const fine = firmsCheckOf({ ...emptyDraft(), hs_codes: ['8471', '7208'] }, summary, {
      accounts: ['main'],
    });
    expect(fine.hsCodes).toMatchObject({ state: 'ok', fresh: ['7208'] });
    expect(fine.search.reason).toBeNull();
    expect(fine.count.reason).toBeNull();
    // The account charged is the filter's when it names one: another account's codes do not count.
    const other: UsageSummary = {
      ...summary,
      desk: { searchedHsCodes: { current: 0, limit: 1, notes: '' } },
    };
    const desk = firmsCheckOf({ ...emptyDraft(), account_name: 'desk', hs_codes: ['8471', '8517'] }, other, {
      accounts: ['main', 'desk'],
    });
    expect(desk.hsCodes).toMatchObject({
      state: 'exceeds',
      account: 'desk',
      fresh: ['8471', '8517'],
      left: 1,
    });
    expect(desk.search.reason).toContain('Cannot run: HS codes 8471, 8517 are new to account desk');
  });
});
