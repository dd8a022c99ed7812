import type { KeychainProblem } from '@shared/profiles/profiles-contract';

/** The pair the service issues per account; the secret only ever signs requests. */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
  /**
   * The origin (scheme, host, port) of the base address the pair was saved for, kept with it in the
   * keychain: the pair is used for that origin only. Absent on items saved before it was recorded.
   */
  origin?: string;
}

/** What may be shown about stored credentials: never the secret, the key only by its last characters. */
export interface CredentialsDescription {
  apiKeyMasked: string | null;
  hasSecret: boolean;
}

export interface SecretStore {
  getCredentials(profileId: string): Promise<Credentials | null>;
  setCredentials(profileId: string, creds: Credentials): Promise<void>;
  deleteCredentials(profileId: string): Promise<void>;
  describe(profileId: string): Promise<CredentialsDescription>;
  /** Null when the store works; otherwise what is wrong and what to do. */
  probe(): Promise<KeychainProblem | null>;
}

const MASK = '••••';
/** Below this length the last four characters would give away too much of the key. */
const MIN_LENGTH_TO_SHOW_TAIL = 8;

/** `••••3f9a`: the last four characters only, and nothing at all of a short key. */
export function maskApiKey(apiKey: string): string {
  return apiKey.length >= MIN_LENGTH_TO_SHOW_TAIL ? `${MASK}${apiKey.slice(-4)}` : MASK;
}

export function describeCredentials(creds: Credentials | null): CredentialsDescription {
  if (!creds) return { apiKeyMasked: null, hasSecret: false };
  return {
    apiKeyMasked: creds.apiKey ? maskApiKey(creds.apiKey) : null,
    hasSecret: creds.apiSecret.length > 0,
  };
}
