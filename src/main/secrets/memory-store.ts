import { describeCredentials, type Credentials, type SecretStore } from './secret-store';

/**
 * Credentials held in this process's memory only. Used for the demo workspace alone: its account is
 * generated in-process for an embedded simulator that dies with the process, so the pair has no
 * value outside it and nothing would be gained by putting it in the keychain. It is NOT a fallback
 * for real profiles — when the keychain fails, real credentials are refused, never kept here.
 */
export function createMemorySecretStore(): SecretStore {
  const items = new Map<string, Credentials>();
  return {
    async getCredentials(profileId) {
      const c = items.get(profileId);
      return c ? { ...c } : null;
    },
    async setCredentials(profileId, creds) {
      items.set(profileId, { ...creds });
    },
    async deleteCredentials(profileId) {
      items.delete(profileId);
    },
    async describe(profileId) {
      return describeCredentials(items.get(profileId) ?? null);
    },
    async probe() {
      return null;
    },
  };
}
