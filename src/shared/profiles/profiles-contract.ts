import { z } from 'zod';
import type { UsageSummary } from '../spec/usage';
import { defineCall } from '../define-call';
import { profileFields } from './profile-rules';

/** Connection profiles (and the demo workspace, which is one): what the renderer may know of them. */

/** What the renderer may know of a connection profile: never the secret, the key only masked. */
export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  accountName: string;
  /** e.g. `••••3f9a`, or null when no key is stored. */
  apiKeyMasked: string | null;
  hasSecret: boolean;
  /** The built-in demo workspace backed by the embedded simulator. */
  demo: boolean;
}

/** Why the system keychain cannot be used: what happened and what to do, and the system's own text. */
export interface KeychainProblem {
  /** What happened, in the analyst's words: "Your login keyring is locked." */
  problem: string;
  /** What to do about it. */
  action: string;
  /** The system's own text, for whoever helps: shown under the rest, never as the message. */
  detail: string;
}

export interface ProfilesState {
  profiles: ProfileView[];
  activeId: string | null;
  /** Null when the keychain works. */
  keychainProblem: KeychainProblem | null;
}

/**
 * Main's news that a profile's service stopped or started answering: from the outcome of any request
 * (a search, a job's page), and from probing a service that does not answer until it does again.
 */
export interface ServiceConnection {
  profileId: string;
  reachable: boolean;
  /**
   * Set (with `reachable` false) while the service's gateway answers that the service is unavailable
   * (502/503/504): Portolan asks again (the client's own attempts, a fetch job's or a refresh's pauses)
   * until an answer comes.
   */
  unavailable?: true;
  /**
   * Set with `unavailable` once nothing has asked the service for a while (a refresh cancelled, a job
   * stopped): it was not answering when last asked, and nothing is trying again now.
   */
  idle?: true;
  /** Why it is unreachable, in plain words; null when it answers. */
  message: string | null;
}

/**
 * What one attempt to reach a profile's service found: an answer, its gateway answering that the
 * service is unavailable (502/503/504), or no answer at all (refused, reset, unreachable, timed out).
 */
export type ServiceReach = 'answered' | 'unavailable' | 'no-answer';

export interface ProfilesEvents {
  'service.connection': ServiceConnection;
}

const id = z.string().min(1).max(200);
const { name: profileName, baseUrl, apiKey, apiSecret } = profileFields;

export const profilesCalls = {
  'profiles.list': defineCall<ProfilesState>()(z.undefined()),
  'profiles.create': defineCall<ProfileView>()(
    z.strictObject({
      name: profileName,
      baseUrl,
      accountName: z.string().trim().max(200).default(''),
      apiKey: apiKey.optional(),
      apiSecret: apiSecret.optional(),
    }),
  ),
  'profiles.update': defineCall<ProfileView>()(
    z.strictObject({
      id,
      name: profileName.optional(),
      baseUrl: baseUrl.optional(),
      accountName: z.string().trim().max(200).optional(),
    }),
  ),
  'profiles.delete': defineCall<ProfilesState>()(z.strictObject({ id })),
  'profiles.setActive': defineCall<ProfilesState>()(z.strictObject({ id })),
  'profiles.setCredentials': defineCall<ProfileView>()(z.strictObject({ id, apiKey, apiSecret })),
  'profiles.testConnection': defineCall<UsageSummary>()(z.strictObject({ id })),
  'demo.start': defineCall<ProfilesState>()(z.undefined()),
};
