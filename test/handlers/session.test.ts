import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilesState, ProfileView } from '@shared/profiles/profiles-contract';
import { startSimulator, type RunningSimulator } from '../../src/main/sim';
import { createHarness, readAllFiles, type Harness } from './helpers';

const account = {
  name: 'acme-trading',
  apiKey: 'ak_live_7c1d9e2f40b8a6c3d5e7',
  apiSecret: 'Zk3-very-secret-9Qw_x7Lp2mN5vB8rT0yU',
};

type Ok<T> = { ok: true; value: T };
type Fail = { ok: false; error: { kind: string; message: string; status?: number } };

let h: Harness;
let server: RunningSimulator;
const responses: unknown[] = [];
async function call<T>(channel: string, input?: unknown): Promise<Ok<T> | Fail> {
  const r = (await h.call(channel, input)) as Ok<T> | Fail;
  responses.push(r);
  return r;
}

beforeAll(async () => {
  // The engineer-B simulator: it checks every signature and answers 401 to anything else.
  server = await startSimulator({ port: 0, records: 5_000, seed: 7, accounts: [account] });
  h = await createHarness({ realSimulator: true });
});
afterAll(async () => {
  await h.close();
  await server.close();
});

describe('a scripted session', () => {
  it('creates a profile, tests it, searches, meets errors — and the secret is nowhere', async () => {
    const created = await call<ProfileView>('profiles.create', {
      name: 'Acme',
      baseUrl: server.url,
      accountName: account.name,
      apiKey: account.apiKey,
      apiSecret: account.apiSecret,
    });
    if (!created.ok) throw new Error(created.error.message);
    const id = created.value.id;
    expect(created.value).toMatchObject({ apiKeyMasked: '••••d5e7', hasSecret: true, demo: false });

    const tested = await call<Record<string, unknown>>('profiles.testConnection', { id });
    expect(tested.ok).toBe(true);
    if (tested.ok) expect(Object.keys(tested.value)).toEqual([account.name]);

    const search = await call<{ total: number; returned: number }>('shipments.search', {
      request: { size: 10, hs_codes: ['8471'], importer_countries: ['DE'] },
    });
    if (!search.ok) throw new Error(search.error.message);
    expect(search.value.total).toBeGreaterThanOrEqual(search.value.returned);
    expect(search.value.returned).toBeLessThanOrEqual(10);

    const count = await call<{ firm_count: number }>('firms.count', {
      profileId: id,
      request: { hs_codes: ['8471'] },
    });
    expect(count.ok && typeof count.value.firm_count).toBe('number');

    // Errors: a rule of the spec, a wrong secret, a profile without credentials, a service that is down.
    const firmsNoFilter = await call('firms.search', { request: { page: 1 } });
    expect(!firmsNoFilter.ok && firmsNoFilter.error.kind).toBe('InvalidInput');

    const wrong = await call<ProfileView>('profiles.setCredentials', {
      id,
      apiKey: account.apiKey,
      apiSecret: 'not-the-right-secret-at-all',
    });
    expect(wrong.ok).toBe(true);
    const rejected = await call('profiles.testConnection', { id });
    expect(!rejected.ok && rejected.error).toMatchObject({ kind: 'AuthRejected', status: 401 });
    await call('profiles.setCredentials', { id, apiKey: account.apiKey, apiSecret: account.apiSecret });
    expect((await call('usage.get', { profileId: id })).ok).toBe(true);

    const bare = await call<ProfileView>('profiles.create', { name: 'No keys', baseUrl: server.url });
    if (!bare.ok) throw new Error(bare.error.message);
    expect(bare.value).toMatchObject({ apiKeyMasked: null, hasSecret: false });
    const noCreds = await call('usage.get', { profileId: bare.value.id });
    expect(!noCreds.ok && noCreds.error.kind).toBe('NoCredentials');

    const down = await call<ProfileView>('profiles.create', {
      name: 'Down',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'ak_down_0000000000',
      apiSecret: account.apiSecret,
    });
    if (!down.ok) throw new Error(down.error.message);
    const network = await call('usage.get', { profileId: down.value.id });
    expect(!network.ok && network.error.kind).toBe('NetworkError');

    const list = await call<ProfilesState>('profiles.list');
    expect(list.ok && list.value.keychainProblem).toBeNull();
    expect(list.ok && list.value.activeId).toBe(id);
    expect(list.ok && list.value.profiles.map((p) => p.name)).toEqual(['Acme', 'No keys', 'Down']);

    // Deleting a profile removes its secret from the keychain too.
    await call('profiles.delete', { id: down.value.id });
    expect(await h.secrets.getCredentials(down.value.id)).toBeNull();

    // The demo: an in-process service and a generated account; the profile the analyst chose stays active.
    const demo = await call<ProfilesState>('demo.start');
    if (!demo.ok) throw new Error(demo.error.message);
    const demoProfile = demo.value.profiles.find((p) => p.demo);
    expect(demoProfile).toMatchObject({ name: 'Demo workspace', hasSecret: true });
    expect(demo.value.activeId).toBe(id);
    expect(new URL(demoProfile?.baseUrl ?? '').hostname).toBe('127.0.0.1');
    const demoSearch = await call<{ total: number }>('shipments.search', {
      profileId: demoProfile?.id,
      request: { size: 10 },
    });
    expect(demoSearch.ok && demoSearch.value.total).toBeGreaterThan(0);
    // The demo's pair stays in memory: nothing for it in the keychain.
    expect(await h.secrets.getCredentials(demoProfile?.id ?? '')).toBeNull();
    const again = await call<ProfilesState>('demo.start');
    expect(again.ok && again.value.profiles.filter((p) => p.demo)).toHaveLength(1);

    await h.sink.close();
    const files = await readAllFiles(h.dataDir);
    const names = files.map((f) => f.path.slice(h.dataDir.length));
    expect(names).toEqual(expect.arrayContaining(['/profiles.json', '/logs/portolan.log']));
    const log = files.find((f) => f.path.endsWith('portolan.log'))?.text ?? '';
    expect(log.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(f.text, f.path).not.toContain(account.apiSecret);
      expect(f.text, f.path).not.toContain('not-the-right-secret-at-all');
      expect(f.text, f.path).not.toContain(account.apiKey);
    }
    const wire = JSON.stringify(responses);
    expect(responses.length).toBeGreaterThan(15);
    expect(wire).not.toContain(account.apiSecret);
    expect(wire).not.toContain('not-the-right-secret-at-all');
    expect(wire).not.toContain(account.apiKey);
  });
});
