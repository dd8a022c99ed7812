import type { UsageReading } from '@shared/query/query-contract';
import { UsageLedger } from '../api';
import type { Profile } from '../profiles';

/**
 * One usage ledger per profile and service address, shared by every client built for it (searches,
 * counts, jobs, the usage page), so what one spends the others know without asking the service.
 */
export interface UsageLedgers {
  /** The profile's ledger; a new one when its address changed. */
  of(profile: Profile): UsageLedger;
  /** The figures main holds for a profile right now, and their age; null when it has none it can vouch for. */
  reading(profileId: string): UsageReading | null;
  /** New credentials or a deleted profile: what was known no longer applies. */
  forget(profileId: string): void;
}

export function createUsageLedgers(now: () => number = Date.now): UsageLedgers {
  const byProfile = new Map<string, { baseUrl: string; ledger: UsageLedger }>();
  return {
    of(profile) {
      const kept = byProfile.get(profile.id);
      if (kept && kept.baseUrl === profile.baseUrl) return kept.ledger;
      const ledger = new UsageLedger(now);
      byProfile.set(profile.id, { baseUrl: profile.baseUrl, ledger });
      return ledger;
    },
    reading: (profileId) => byProfile.get(profileId)?.ledger.reading() ?? null,
    forget(profileId) {
      byProfile.delete(profileId);
    },
  };
}
