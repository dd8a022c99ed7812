export { createKeytarSecretStore, type KeytarLike, type KeytarStoreOptions } from './keytar-store';
export { createMemorySecretStore } from './memory-store';
export { keychainUnavailable } from './keychain-errors';
export {
  describeCredentials,
  maskApiKey,
  type Credentials,
  type CredentialsDescription,
  type SecretStore,
} from './secret-store';
