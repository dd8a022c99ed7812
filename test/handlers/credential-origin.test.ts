import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilesState, ProfileView } from '@shared/profiles/profiles-contract';
import { generateAccount, startSimulator, type RunningSimulator } from '../../src/main/sim';
import { createHarness, type Harness } from './helpers';

type Result<T> = { ok: true; value: T } | { ok: false; error: { kind: string; message: string } };

/**
 * A server on a new origin that answers like the service would and keeps every byte it is sent:
 * the place a moved profile, a redirect or a replay would hand the key and signature to.
 */
interface Capture {
  url: string;
  /** Every request as it arrived: method, path, all headers, the body. */
  seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

async function startCapture(
  answer: (req: IncomingMessage, res: ServerResponse) => void = (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  },
): Promise<Capture> {
  const seen: Capture['seen'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let h: Harness;
let sim: RunningSimulator;
const account = generateAccount('origin-test');
const call = async <T>(channel: string, input?: unknown) => (await h.call(channel, input)) as Result<T>;
const ok = async <T>(channel: string, input?: unknown): Promise<T> => h.ok<T>(channel, input);

const FILTER = {
  importer_countries: ['DE'],
  hs_codes: ['8471'],
  start_date: '2024-01-01',
  end_date: '2024-03-31',
};

beforeAll(async () => {
  h = await createHarness();
  sim = await startSimulator({ port: 0, records: 300, seed: 3, accounts: [account] });
});
afterAll(async () => {
  await h.close();
  await sim.close();
});
afterEach(async () => {
  const state = await ok<ProfilesState>('profiles.list');
  for (const p of state.profiles) await ok('profiles.delete', { id: p.id });
});

/** Every way a profile's credentials are used, each refused or answered without a byte to `capture`. */
async function useEverything(profileId: string): Promise<Result<unknown>[]> {
  return [
    await call('usage.get', { profileId }),
    await call('profiles.testConnection', { id: profileId }),
    await call('shipments.search', { profileId, request: { ...FILTER, size: 10 } }),
    await call('shipments.count', { profileId, request: { ...FILTER, firm: 'acme-gmbh' } }),
    await call('firms.search', { profileId, request: { ...FILTER, page: 1 } }),
    await call('firms.count', { profileId, request: FILTER }),
    await call('jobs.estimate', { profileId, kind: 'shipments', request: FILTER }),
  ];
}

/** Nothing the capture server received carries the key, a signature, or the secret. */
function expectNothingOfTheAccount(capture: Capture): void {
  const raw = JSON.stringify(capture.seen);
  expect(raw).not.toContain(account.apiKey);
  expect(raw).not.toContain(account.apiSecret);
  expect(raw.toLowerCase()).not.toContain('x-signature');
  expect(raw.toLowerCase()).not.toContain('x-api-key');
}

describe('credentials are bound to the origin they were saved for', () => {
  it('moving a profile to a new origin removes them: no key and no signature reach the capture server', async () => {
    const capture = await startCapture();
    try {
      const p = await ok<ProfileView>('profiles.create', {
        name: 'Work',
        baseUrl: sim.url,
        apiKey: account.apiKey,
        apiSecret: account.apiSecret,
      });
      // Working on the origin they were saved for.
      expect((await call('shipments.search', { profileId: p.id, request: { ...FILTER, size: 10 } })).ok).toBe(
        true,
      );

      // What the audit did: move the address, keep the credentials.
      const moved = await ok<ProfileView>('profiles.update', { id: p.id, baseUrl: capture.url });
      expect(moved).toMatchObject({ baseUrl: capture.url, apiKeyMasked: null, hasSecret: false });
      expect(await h.secrets.getCredentials(p.id)).toBeNull();

      for (const r of await useEverything(p.id)) {
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error.kind).toBe('NoCredentials');
      }
      expect(capture.seen).toEqual([]);
      expectNothingOfTheAccount(capture);

      // Moving back does not bring them back: they are asked for again.
      await ok('profiles.update', { id: p.id, baseUrl: sim.url });
      const back = await call('usage.get', { profileId: p.id });
      expect(!back.ok && back.error.kind).toBe('NoCredentials');
    } finally {
      await capture.close();
    }
  });

  it('a path or a name change on the same origin keeps them', async () => {
    const p = await ok<ProfileView>('profiles.create', {
      name: 'Same',
      baseUrl: sim.url,
      apiKey: account.apiKey,
      apiSecret: account.apiSecret,
    });
    const renamed = await ok<ProfileView>('profiles.update', {
      id: p.id,
      name: 'Same, renamed',
      baseUrl: `${sim.url.replace(/\/$/, '')}/`,
    });
    expect(renamed.hasSecret).toBe(true);
    expect((await call('usage.get', { profileId: p.id })).ok).toBe(true);
  });

  it('credentials stored for one origin are never used for another, even if only the metadata file moved', async () => {
    const capture = await startCapture();
    try {
      const p = await ok<ProfileView>('profiles.create', { name: 'Stale', baseUrl: capture.url });
      // The keychain item says where it belongs (as if profiles.json had been edited behind the app's back).
      await h.secrets.setCredentials(p.id, { ...account, origin: new URL(sim.url).origin });
      for (const r of await useEverything(p.id)) {
        expect(!r.ok && r.error.kind).toBe('NoCredentials');
        if (!r.ok) expect(r.error.message).toContain(new URL(sim.url).origin);
      }
      expect(capture.seen).toEqual([]);
    } finally {
      await capture.close();
    }
  });

  it('a redirect from the service to another origin is not followed: the capture server gets nothing', async () => {
    const capture = await startCapture();
    const redirector = await startCapture((req, res) => {
      res.writeHead(307, { location: new URL(req.url ?? '/', capture.url).href });
      res.end();
    });
    try {
      const p = await ok<ProfileView>('profiles.create', {
        name: 'Redirected',
        baseUrl: redirector.url,
        apiKey: account.apiKey,
        apiSecret: account.apiSecret,
      });
      const r = await call('shipments.search', { profileId: p.id, request: { ...FILTER, size: 10 } });
      expect(r.ok).toBe(false);
      expect(redirector.seen.length).toBeGreaterThan(0); // the key went where it was saved for, only
      expect(capture.seen).toEqual([]);
      expectNothingOfTheAccount(capture);
    } finally {
      await capture.close();
      await redirector.close();
    }
  });

  it('the demo moved elsewhere goes back to its simulator; the capture server gets nothing', async () => {
    const capture = await startCapture();
    try {
      const state = await ok<ProfilesState>('demo.start');
      const demo = state.profiles.find((p) => p.demo)!;
      await ok('profiles.update', { id: demo.id, baseUrl: capture.url });
      const r = await call('usage.get', { profileId: demo.id });
      expect(r.ok).toBe(true);
      expect(capture.seen).toEqual([]);
      const after = (await ok<ProfilesState>('profiles.list')).profiles.find((p) => p.id === demo.id)!;
      expect(after.baseUrl).not.toBe(capture.url);
    } finally {
      await capture.close();
    }
  });

  it('plain http is refused for any host but this computer, at the bridge', async () => {
    const p = await ok<ProfileView>('profiles.create', { name: 'Http', baseUrl: sim.url });
    for (const baseUrl of ['http://api.example.com/', 'http://10.0.0.5:8080/', 'http://127.0.0.1.nip.io/']) {
      const created = await call('profiles.create', { name: `x ${baseUrl}`, baseUrl });
      expect(!created.ok && created.error.kind, baseUrl).toBe('InvalidInput');
      const updated = await call('profiles.update', { id: p.id, baseUrl });
      expect(!updated.ok && updated.error.kind, baseUrl).toBe('InvalidInput');
    }
    for (const baseUrl of [
      'http://localhost:8787/',
      'http://127.0.0.1:8787/',
      'http://[::1]:8787/',
      'https://api.example.com/',
    ]) {
      expect((await call('profiles.update', { id: p.id, baseUrl })).ok, baseUrl).toBe(true);
    }
  });
});
