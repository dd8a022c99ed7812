import { describe, expect, it } from 'vitest';
import { limitEndsAt, type BridgeError } from '@shared/ipc/errors';
import { estimateAgainAt, offersEstimateAgain } from '../../src/renderer/src/features/jobs/jobs-store';
import { checkAgainAt, offersCheckAgain } from '../../src/renderer/src/features/watch/watch-store';

/**
 * Which failed cost checks the Fetch all and Watched dialogs offer to run again, and from when: a
 * service that did not answer at once, a limit once the wait it gave is over, and never a used-up quota
 * (no wait: it does not come back by waiting) or a filter the service refused.
 */
const at = 1_800_000_000_000;
const limitWithWait: BridgeError = { kind: 'LimitExceeded', message: 'wait', retryAfterSeconds: 40 };
const quotaUsedUp: BridgeError = { kind: 'LimitExceeded', message: 'used up' };
const noAnswer: BridgeError = { kind: 'NetworkError', message: 'no connection' };
const badFilter: BridgeError = { kind: 'InvalidInput', message: 'Date to: must not be before Date from' };

describe('a failed cost check offered again', () => {
  it('a limit with a wait: from the refusal plus the wait', () => {
    expect(limitEndsAt(limitWithWait, at)).toBe(at + 40_000);
    for (const error of [quotaUsedUp, noAnswer, badFilter]) expect(limitEndsAt(error, at)).toBeNull();
  });

  it('by Fetch all: at once when the service did not answer, after the wait for a limit, else never', () => {
    const failed = (error: BridgeError) => ({
      state: 'error' as const,
      error,
      againAt: limitEndsAt(error, at),
    });
    expect(
      [noAnswer, limitWithWait, quotaUsedUp, badFilter].map((e) => offersEstimateAgain(failed(e))),
    ).toEqual([true, true, false, false]);
    expect(estimateAgainAt(failed(noAnswer))).toBeNull();
    expect(estimateAgainAt(failed(limitWithWait))).toBe(at + 40_000);
    // A dialog that has its cost offers nothing again, whatever failed before.
    expect(offersEstimateAgain({ state: 'ready', error: null, againAt: null })).toBe(false);
  });

  it('by the Watched cost check, the same', () => {
    const failed = (dialogError: BridgeError) => ({
      checkTarget: { watchId: 'w1' },
      checking: false,
      preview: null,
      dialogError,
      checkAgainAt: limitEndsAt(dialogError, at),
    });
    expect([noAnswer, limitWithWait, quotaUsedUp, badFilter].map((e) => offersCheckAgain(failed(e)))).toEqual(
      [true, true, false, false],
    );
    expect(checkAgainAt(failed(limitWithWait))).toBe(at + 40_000);
    // While the check runs again, nothing is offered.
    expect(offersCheckAgain({ ...failed(limitWithWait), checking: true })).toBe(false);
  });
});
