import { describe, expect, it } from 'vitest';
import { cancellableRuns } from '../../src/renderer/src/store';

describe('cancellableRuns', () => {
  it('shows the answer of the run still current, and knows which run waits', () => {
    const runs = cancellableRuns<{ page: number }>();
    expect(runs.running()).toBeNull();
    const run = runs.begin({ page: 1 });
    expect(runs.running()).toBe(run);
    expect(run.current).toBe(true);
    expect(runs.settle(run)).toBe('current');
    expect(runs.running()).toBeNull();
  });

  it('a second run supersedes the first: the first answer, early or late, is not the page’s', () => {
    const runs = cancellableRuns<string>();
    const first = runs.begin('first');
    const second = runs.begin('second');
    expect(first.current).toBe(false);
    expect(runs.running()).toBe(second);
    // The first answer arrives while the second waits: it must not take the second's place as the one waiting.
    expect(runs.settle(first)).toBe('superseded');
    expect(runs.running()).toBe(second);
    expect(runs.settle(second)).toBe('current');
  });

  it('Cancel stops the wait and returns the run; its answer ends cancelled until another run begins', () => {
    const runs = cancellableRuns<string>();
    const run = runs.begin('asked');
    expect(runs.cancel()).toBe(run);
    expect(run.current).toBe(false);
    expect(runs.running()).toBeNull();
    expect(runs.settle(run)).toBe('cancelled');

    const late = runs.begin('cancelled, then another');
    expect(runs.cancel()).toBe(late);
    runs.begin('newer');
    // A newer run owns the screen: the cancelled run's late answer is no longer the page's to describe.
    expect(runs.settle(late)).toBe('superseded');
  });

  it('Cancel with nothing waiting returns null, and a reset supersedes everything, cancelled runs too', () => {
    const runs = cancellableRuns<string>();
    expect(runs.cancel()).toBeNull();
    const a = runs.begin('a');
    runs.cancel();
    const b = runs.begin('b');
    runs.supersede();
    expect(runs.running()).toBeNull();
    expect(runs.settle(b)).toBe('superseded');
    expect(runs.settle(a)).toBe('superseded');
  });
});
