import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/ipc/errors';
import type { KeychainProblem } from '@shared/profiles/profiles-contract';
import { createKeytarSecretStore, type KeytarLike, type SecretStore } from '../../src/main/secrets';

const run = promisify(execFile);
// A service name of our own per run, so the test never touches a real Portolan item.
const service = `Portolan-test-${randomBytes(4).toString('hex')}`;
const ids: string[] = [];
const newId = () => {
  const id = `profile-${randomBytes(4).toString('hex')}`;
  ids.push(id);
  return id;
};

describe('keytar secret store against the real Secret Service', () => {
  let store: SecretStore;

  beforeAll(async () => {
    store = createKeytarSecretStore({ service });
    const problem = await store.probe();
    // Fail, never skip: without a keyring these tests would prove nothing.
    if (problem !== null) {
      throw new Error(
        `No usable Secret Service (${problem}). Run: scripts/with-keyring.sh npx vitest run test/secrets`,
      );
    }
  });

  afterAll(async () => {
    for (const id of ids) await store.deleteCredentials(id).catch(() => undefined);
  });

  it('stores, reads back, replaces and deletes a key/secret pair', async () => {
    const id = newId();
    expect(await store.getCredentials(id)).toBeNull();
    await store.setCredentials(id, { apiKey: 'key-AAAA-1111', apiSecret: 's3cret/with+chars=' });
    expect(await store.getCredentials(id)).toEqual({
      apiKey: 'key-AAAA-1111',
      apiSecret: 's3cret/with+chars=',
    });

    await store.setCredentials(id, { apiKey: 'key-BBBB-2222', apiSecret: 'second-secret' });
    expect(await store.getCredentials(id)).toEqual({ apiKey: 'key-BBBB-2222', apiSecret: 'second-secret' });

    // A second store instance sees the same item: it really is in the keyring, not in this object.
    const other = createKeytarSecretStore({ service });
    expect(await other.getCredentials(id)).toEqual({ apiKey: 'key-BBBB-2222', apiSecret: 'second-secret' });

    await store.deleteCredentials(id);
    expect(await store.getCredentials(id)).toBeNull();
    expect(await other.getCredentials(id)).toBeNull();
    // Deleting what is not there is not an error.
    await expect(store.deleteCredentials(id)).resolves.toBeUndefined();
  });

  it('keeps the origin a pair is bound to with the pair, in the keychain item', async () => {
    const id = newId();
    await store.setCredentials(id, {
      apiKey: 'key-CCCC-3333',
      apiSecret: 'bound-secret',
      origin: 'https://api.example.com',
    });
    const other = createKeytarSecretStore({ service });
    expect(await other.getCredentials(id)).toEqual({
      apiKey: 'key-CCCC-3333',
      apiSecret: 'bound-secret',
      origin: 'https://api.example.com',
    });
    await store.deleteCredentials(id);
  });

  it('keeps profiles apart', async () => {
    const a = newId();
    const b = newId();
    await store.setCredentials(a, { apiKey: 'key-for-a-0000', apiSecret: 'secret-a' });
    await store.setCredentials(b, { apiKey: 'key-for-b-9999', apiSecret: 'secret-b' });
    await store.deleteCredentials(a);
    expect(await store.getCredentials(a)).toBeNull();
    expect(await store.getCredentials(b)).toEqual({ apiKey: 'key-for-b-9999', apiSecret: 'secret-b' });
  });

  it('describes stored credentials by the last four characters of the key only', async () => {
    const id = newId();
    expect(await store.describe(id)).toEqual({ apiKeyMasked: null, hasSecret: false });
    await store.setCredentials(id, { apiKey: 'pk_live_0123456789abcdef3f9a', apiSecret: 'the-secret-value' });
    const d = await store.describe(id);
    expect(d).toEqual({ apiKeyMasked: '••••3f9a', hasSecret: true });
    expect(JSON.stringify(d)).not.toContain('the-secret-value');
    expect(JSON.stringify(d)).not.toContain('0123456789');

    await store.setCredentials(id, { apiKey: 'short', apiSecret: 'x' });
    expect((await store.describe(id)).apiKeyMasked).toBe('••••');
  });

  it('reports a missing D-Bus as KeychainUnavailable with what to do, and stores nothing elsewhere', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/portolan-bus',
    };
    delete env.DISPLAY;
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures/broken-bus.ts')],
      { env, cwd: join(import.meta.dirname, '../..'), timeout: 30_000 },
    );
    const result = JSON.parse(stdout) as {
      probe: KeychainProblem | null;
      set: { kind: string; message: string } | string;
    };
    expect(result.set).not.toBe('stored');
    const set = result.set as { kind: string; message: string };
    expect(set.kind).toBe('KeychainUnavailable');
    expect(set.message).toMatch(/Secret Service|D-Bus/);
    expect(set.message).toMatch(/gnome-keyring|GNOME Keyring/i);
    expect(set.message).toContain('never in a plain file');
    expect(set.message).not.toContain('secret-broken-bus-never-stored');
    // What the Settings banner says: what happened and what to do in words, the system's text apart.
    const probe = result.probe as KeychainProblem;
    expect(probe.problem).toBe(
      'No Secret Service is running for your session: the keyring program (GNOME Keyring or KWallet) or the D-Bus session it answers on is missing.',
    );
    expect(probe.action).toMatch(
      /^Install and start GNOME Keyring \(gnome-keyring\) or KWallet and unlock it/,
    );
    expect(probe.detail).toMatch(/Could not connect/);
    expect(probe.problem).not.toContain(probe.detail);
    expect(probe.action).not.toContain(probe.detail);
    // A form's error line shows it whole, the system's text last.
    expect(set.message.endsWith(`(The system said: ${probe.detail})`)).toBe(true);
  });
});

describe('keychain trouble that cannot be produced on this machine', () => {
  const failing = (message: string): KeytarLike => ({
    getPassword: () => Promise.reject(new Error(message)),
    setPassword: () => Promise.reject(new Error(message)),
    deletePassword: () => Promise.reject(new Error(message)),
  });

  it('a locked collection says to unlock the keyring', async () => {
    const store = createKeytarSecretStore({
      service,
      keytar: failing('Cannot create an item in a locked collection'),
      platform: 'linux',
    });
    const e = await store.setCredentials('p', { apiKey: 'k', apiSecret: 's' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).kind).toBe('KeychainUnavailable');
    expect((e as AppError).message).toMatch(/keyring is locked.*Unlock/);
    expect(await store.probe()).toEqual({
      problem: 'Your login keyring is locked.',
      action:
        'Unlock your login keyring (log in to the desktop session, or open "Passwords and Keys" / KWallet and unlock it), then try again.',
      detail: 'Cannot create an item in a locked collection',
    });
  });

  it('macOS and Windows get advice for their own keychain', async () => {
    const mac = createKeytarSecretStore({
      service,
      keytar: failing('The specified item could not be found.'),
      platform: 'darwin',
    });
    expect((await mac.probe())?.action).toMatch(/Keychain Access/);
    const win = createKeytarSecretStore({
      service,
      keytar: failing('Element not found.'),
      platform: 'win32',
    });
    expect((await win.probe())?.problem).toMatch(/Credential Manager/);
  });

  it('a keyring that never answers (an unseen unlock prompt) times out instead of hanging', async () => {
    const hanging: KeytarLike = {
      getPassword: () => new Promise(() => undefined),
      setPassword: () => new Promise(() => undefined),
      deletePassword: () => new Promise(() => undefined),
    };
    const store = createKeytarSecretStore({ service, keytar: hanging, platform: 'linux', timeoutMs: 50 });
    const e = await store.getCredentials('p').catch((x: unknown) => x);
    expect((e as AppError).kind).toBe('KeychainUnavailable');
    expect((e as AppError).message).toMatch(/no answer within/);
  });

  it('a keytar that could not be built leaves the store usable and says what to install', async () => {
    let loads = 0;
    const store = createKeytarSecretStore({
      service,
      platform: 'linux',
      loadKeytar: () => {
        loads += 1;
        return Promise.reject(new Error("Cannot find module 'keytar'"));
      },
    });
    const e = await store
      .setCredentials('p', { apiKey: 'k'.repeat(8), apiSecret: 's'.repeat(8) })
      .catch((x: unknown) => x);
    expect((e as AppError).kind).toBe('KeychainUnavailable');
    expect((e as AppError).message).toMatch(/keytar\) is not installed/);
    expect((e as AppError).message).toMatch(/apt-get install libsecret-1-dev gnome-keyring dbus/);
    expect((e as AppError).message).toMatch(/never in a plain file/);
    expect((await store.probe())?.action).toMatch(/libsecret-1-dev/);
    // Each call tries again, so a module rebuilt while the app runs is picked up.
    expect(loads).toBe(2);
  });
});
