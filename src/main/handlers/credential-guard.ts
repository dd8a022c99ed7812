import { AppError } from '@shared/ipc/errors';
import { MIN_CREDENTIAL_LENGTH, credentialOrigin } from '@shared/profiles/profile-rules';
import { registerSecret } from '../log';
import type { Profile } from '../profiles';
import type { Credentials } from '../secrets';

/**
 * The guard over every API key and secret main holds: which pairs are on the log redactor's scrub list
 * (and for whom), and whether a stored pair may be used for a profile at all.
 */
export interface CredentialGuard {
  /** Keeps `owner`'s pair (a profile id, or the demo simulator) on the scrub list until it is replaced or forgotten. */
  protect(owner: string, creds: Credentials): void;
  /** Takes `owner`'s pair off the scrub list. */
  forget(owner: string): void;
  /** Takes every pair off the scrub list (when the handlers are disposed). */
  forgetAll(): void;
  /**
   * The stored pair, checked before any use: long enough for the redactor to mask, and bound to the
   * origin of the profile's base address. Protected for the profile once it passes; NoCredentials otherwise.
   */
  usable(profile: Profile, creds: Credentials | null): Credentials;
}

export function createCredentialGuard(): CredentialGuard {
  /**
   * Scrub-list registrations by owner. A pair stays registered exactly as long as its owner holds it:
   * a deleted profile's or a replaced secret must not go on masking text for the rest of the process.
   */
  const held = new Map<string, { apiKey: string; apiSecret: string; release: () => void }>();

  function protect(owner: string, creds: Credentials): void {
    const current = held.get(owner);
    if (current && current.apiKey === creds.apiKey && current.apiSecret === creds.apiSecret) return;
    const releaseSecret = registerSecret(creds.apiSecret);
    const releaseKey = registerSecret(creds.apiKey, { keepLast: 4 });
    held.set(owner, {
      apiKey: creds.apiKey,
      apiSecret: creds.apiSecret,
      release: () => {
        releaseSecret();
        releaseKey();
      },
    });
    // Released after the new pair is in, so a value both pairs share is never unprotected in between.
    current?.release();
  }

  function forget(owner: string): void {
    const current = held.get(owner);
    held.delete(owner);
    current?.release();
  }

  function usable(profile: Profile, creds: Credentials | null): Credentials {
    if (!creds || !creds.apiKey || !creds.apiSecret) {
      throw new AppError(
        'NoCredentials',
        `The profile "${profile.name}" has no API key and secret yet. Add them in Settings → Connection profiles.`,
      );
    }
    // Stored before the minimum existed: the redactor cannot mask a value this short, so it is not used.
    if (
      creds.apiKey.trim().length < MIN_CREDENTIAL_LENGTH ||
      creds.apiSecret.length < MIN_CREDENTIAL_LENGTH
    ) {
      throw new AppError(
        'NoCredentials',
        `The API key or secret saved for "${profile.name}" is too short to be a real one. Enter both again in Settings → Connection profiles.`,
      );
    }
    // Bound to the origin they were saved for: a profile whose address moved never sends them elsewhere.
    // (Items saved before the origin was recorded are taken as bound to the address they sit with.)
    const origin = credentialOrigin(profile.baseUrl);
    if (origin === null || (creds.origin !== undefined && creds.origin !== origin)) {
      throw new AppError(
        'NoCredentials',
        `The API key and secret of "${profile.name}" were saved for ${creds.origin ?? 'another address'}, not for ${origin ?? profile.baseUrl}. Enter them again in Settings → Connection profiles.`,
      );
    }
    protect(profile.id, creds);
    return creds;
  }

  return {
    protect,
    forget,
    forgetAll: () => {
      for (const owner of [...held.keys()]) forget(owner);
    },
    usable,
  };
}

/** The pair as it is stored: with the origin of the base address it is saved for. */
export function boundTo(baseUrl: string, pair: { apiKey: string; apiSecret: string }): Credentials {
  const origin = credentialOrigin(baseUrl);
  return { apiKey: pair.apiKey, apiSecret: pair.apiSecret, ...(origin ? { origin } : {}) };
}
