import { AppError } from '@shared/ipc/errors';
import { KeychainError, keychainModuleMissing, keychainUnavailable } from './keychain-errors';
import { describeCredentials, type Credentials, type SecretStore } from './secret-store';

/** The part of keytar this store uses; injectable so a broken keychain can be simulated without keytar. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeytarStoreOptions {
  service: string;
  /** Defaults to the real keytar; a fake lets tests produce keychain trouble this machine cannot. */
  keytar?: KeytarLike;
  /**
   * Where the real keytar comes from. keytar is an optional dependency: on a machine without the
   * libsecret headers its native build fails, `npm ci` goes on without it, and the app must still start
   * (demo and offline library work); only saving credentials reports what to install.
   */
  loadKeytar?: () => Promise<KeytarLike>;
  platform?: NodeJS.Platform;
  /** A keyring waiting on an unlock prompt nobody sees would otherwise hang the call forever. */
  timeoutMs?: number;
}

const PROBE_ACCOUNT = '__portolan-probe__';

async function importKeytar(): Promise<KeytarLike> {
  const mod = (await import('keytar')) as KeytarLike & { default?: KeytarLike };
  return mod.default ?? mod;
}

function parseItem(text: string | null): Credentials | null {
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as unknown;
    if (
      v &&
      typeof v === 'object' &&
      typeof (v as Credentials).apiKey === 'string' &&
      typeof (v as Credentials).apiSecret === 'string'
    ) {
      const { apiKey, apiSecret, origin } = v as Credentials;
      return typeof origin === 'string' ? { apiKey, apiSecret, origin } : { apiKey, apiSecret };
    }
  } catch {
    // fall through: an item we did not write is treated as absent rather than guessed at
  }
  return null;
}

/**
 * Credentials in the OS keychain (macOS Keychain, Windows Credential Manager, Secret Service), one item
 * per profile holding key and secret together so they are replaced atomically. Any keychain failure
 * becomes AppError('KeychainUnavailable'); there is deliberately no plain-text fallback.
 */
export function createKeytarSecretStore(options: KeytarStoreOptions): SecretStore {
  const { service } = options;
  const platform = options.platform ?? process.platform;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const load = options.loadKeytar ?? importKeytar;
  // Loaded on first use, once: a missing module must not stop the process from starting.
  let keytar: Promise<KeytarLike> | undefined = options.keytar ? Promise.resolve(options.keytar) : undefined;
  const keytarModule = (): Promise<KeytarLike> => {
    keytar ??= load().catch((e: unknown) => {
      keytar = undefined; // a rebuilt module is picked up by the next call
      throw keychainModuleMissing(e, platform);
    });
    return keytar;
  };

  async function run<T>(op: (k: KeytarLike) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `no answer within ${Math.round(timeoutMs / 1000)} s; the keyring may be locked and waiting for an unlock prompt`,
              ),
            ),
          timeoutMs,
        );
      });
      return await Promise.race([keytarModule().then(op), timeout]);
    } catch (e) {
      if (e instanceof AppError) throw e;
      throw keychainUnavailable(e, platform);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  const read = (profileId: string) => run((k) => k.getPassword(service, profileId)).then(parseItem);

  return {
    getCredentials: read,
    async setCredentials(profileId, creds) {
      const item = JSON.stringify({ apiKey: creds.apiKey, apiSecret: creds.apiSecret, origin: creds.origin });
      await run((k) => k.setPassword(service, profileId, item));
    },
    async deleteCredentials(profileId) {
      await run((k) => k.deletePassword(service, profileId));
    },
    async describe(profileId) {
      return describeCredentials(await read(profileId));
    },
    async probe() {
      try {
        await run((k) => k.getPassword(service, PROBE_ACCOUNT));
        return null;
      } catch (e) {
        return (e instanceof KeychainError ? e : keychainUnavailable(e, platform)).problem;
      }
    },
  };
}
