import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilesState, ProfileView } from '@shared/profiles/profiles-contract';
import { DUPLICATE_NAME_MESSAGE } from '@shared/profiles/profile-rules';
import { createLogger, createMemorySink, redact } from '../../src/main/log';
import { createMemorySecretStore } from '../../src/main/secrets';
import { createDispatcher, createHandlers, type HandlersHandle } from '../../src/main/handlers';
import { createHarness, readAllFiles, startSignedSimulator, type Harness } from './helpers';

type Ok<T> = { ok: true; value: T };
type Fail = {
  ok: false;
  error: { kind: string; message: string; issues?: { path: string; message: string }[] };
};
type Result<T> = Ok<T> | Fail;

let h: Harness;
const call = async <T>(channel: string, input?: unknown) => (await h.call(channel, input)) as Result<T>;
const mustOk = <T>(r: Result<T>): T => {
  if (!r.ok) throw new Error(`${r.error.kind}: ${r.error.message}`);
  return r.value;
};

/** A service that answers every request with a 500 whose body echoes the given text. */
let echo: { server: Server; url: string; body: string };
beforeAll(async () => {
  h = await createHarness();
  const server = createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: echo.body }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  echo = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, body: '' };
});
afterAll(async () => {
  await h.close();
  await new Promise<void>((resolve) => echo.server.close(() => resolve()));
});
afterEach(async () => {
  const state = mustOk(await call<ProfilesState>('profiles.list'));
  for (const p of state.profiles) mustOk(await call('profiles.delete', { id: p.id }));
});

/** A mask that landed inside a word: the garbling a too-short secret caused. */
const MASK_IN_WORD = /[\p{L}\p{N}]\[REDACTED\]|\[REDACTED\][\p{L}\p{N}]/u;

describe('credentials that are too short to be real', () => {
  it('are refused at the bridge with a message at each field, and nothing is stored', async () => {
    const r = await call('profiles.create', {
      name: 'Short',
      baseUrl: 'http://127.0.0.1:1',
      apiKey: 'k',
      apiSecret: 's',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('InvalidInput');
    expect(r.error.issues?.map((i) => i.path).sort()).toEqual(['apiKey', 'apiSecret']);
    expect(r.error.issues?.find((i) => i.path === 'apiSecret')?.message).toMatch(/at least 8 characters/);
    expect(mustOk(await call<ProfilesState>('profiles.list')).profiles).toEqual([]);

    const p = mustOk(
      await call<ProfileView>('profiles.create', { name: 'Later', baseUrl: 'http://127.0.0.1:1' }),
    );
    const set = await call('profiles.setCredentials', {
      id: p.id,
      apiKey: 'key-is-long-enough',
      apiSecret: 'short',
    });
    expect(!set.ok && set.error.issues).toEqual([
      { path: 'apiSecret', message: expect.stringMatching(/at least 8/) },
    ]);
    expect(await h.secrets.getCredentials(p.id)).toBeNull();
  });

  it('left in the keychain by an older version, are not used, and garble no message or log line', async () => {
    const old = mustOk(
      await call<ProfileView>('profiles.create', { name: 'Old', baseUrl: 'http://127.0.0.1:1' }),
    );
    await h.secrets.setCredentials(old.id, { apiKey: 'k', apiSecret: 's' });
    const tested = await call('profiles.testConnection', { id: old.id });
    expect(!tested.ok && tested.error.kind).toBe('NoCredentials');
    expect(!tested.ok && tested.error.message).toBe(
      'The API key or secret saved for "Old" is too short to be a real one. Enter both again in Settings → Connection profiles.',
    );

    const other = mustOk(
      await call<ProfileView>('profiles.create', {
        name: 'Other',
        baseUrl: 'http://127.0.0.1:1',
        apiKey: 'ak_other_profile_0001',
        apiSecret: 'other-profile-secret-0001',
      }),
    );
    const down = await call('profiles.testConnection', { id: other.id });
    expect(!down.ok && down.error.kind).toBe('NetworkError');
    expect(!down.ok && down.error.message).toMatch(
      /^Could not reach the service at 127\.0\.0\.1:1\. Check the/,
    );
    expect(!down.ok && down.error.message).not.toContain('[REDACTED]');

    const log = await readFile(h.logPath, 'utf8');
    for (const line of log.trim().split('\n')) {
      expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      expect(line).not.toMatch(MASK_IN_WORD);
    }
  });
});

describe('the scrub list follows the profiles', () => {
  const KEY_A = 'ak_live_profile_A_00AA';
  const SECRET_A = 'Sa-first-secret-of-profile-A';
  const SECRET_B = 'Sb-replacement-secret-for-A';

  it('masks a live pair in errors crossing the bridge and in log lines, and releases it when replaced or deleted', async () => {
    const sink = createMemorySink();
    const log = createLogger({ sink });
    const lastLine = (text: string): string => {
      log.info(text);
      return (JSON.parse(sink.lines.at(-1)!) as { msg: string }).msg;
    };

    const a = mustOk(
      await call<ProfileView>('profiles.create', {
        name: 'A',
        baseUrl: echo.url,
        apiKey: KEY_A,
        apiSecret: SECRET_A,
      }),
    );
    // Masked from the moment it is stored, before any request.
    expect(lastLine(`seen ${SECRET_A}`)).toBe('seen [REDACTED]');

    echo.body = `rejected secret ${SECRET_A} of key ${KEY_A}`;
    const echoed = await call('profiles.testConnection', { id: a.id });
    expect(!echoed.ok && echoed.error.kind).toBe('ServiceError');
    const wire = JSON.stringify(echoed);
    expect(wire).toContain('rejected secret');
    expect(wire).not.toContain(SECRET_A);
    expect(wire).not.toContain(KEY_A);

    mustOk(await call('profiles.setCredentials', { id: a.id, apiKey: KEY_A, apiSecret: SECRET_B }));
    expect(lastLine(`new ${SECRET_B}`)).toBe('new [REDACTED]');
    // The replaced secret is the app's no longer: it does not go on masking text.
    expect(lastLine(`old ${SECRET_A}`)).toBe(`old ${SECRET_A}`);

    echo.body = `rejected ${SECRET_B}`;
    const again = await call('profiles.testConnection', { id: a.id });
    expect(JSON.stringify(again)).not.toContain(SECRET_B);

    mustOk(await call('profiles.delete', { id: a.id }));
    expect(lastLine(`after ${SECRET_B} and ${KEY_A}`)).toBe(`after ${SECRET_B} and ${KEY_A}`);
    expect(redact(SECRET_B)).toBe(SECRET_B);

    // The file log (written synchronously) holds no secret that was live when its lines were written.
    for (const f of await readAllFiles(h.dataDir)) {
      expect(f.text, f.path).not.toContain(SECRET_A);
      expect(f.text, f.path).not.toContain(SECRET_B);
      expect(f.text, f.path).not.toContain(KEY_A);
    }
  });
});

describe('profile validation at the bridge', () => {
  it('refuses bad base addresses with a message at baseUrl, and keeps no password in profiles.json', async () => {
    const bad: [string, RegExp][] = [
      ['http://exa mple.com', /spaces/],
      ['http://user:pw@127.0.0.1:39197/', /user name and password/],
      ['http://127.0.0.1:39197/api/v1/', /leave out \/api\/v1.*http:\/\/127\.0\.0\.1:39197\/\)/],
      ['http://127.0.0.1:39197/gateway/api/v1', /use http:\/\/127\.0\.0\.1:39197\/gateway\//],
      ['http:/127.0.0.1', /full http/],
      ['https://api.example.com/?key=x', /\? or #/],
    ];
    for (const [baseUrl, message] of bad) {
      const r = await call('profiles.create', { name: 'Bad', baseUrl });
      expect(!r.ok && r.error.kind, baseUrl).toBe('InvalidInput');
      expect(!r.ok && r.error.issues, baseUrl).toEqual([
        { path: 'baseUrl', message: expect.stringMatching(message) },
      ]);
    }
    const good = mustOk(
      await call<ProfileView>('profiles.create', { name: 'Good', baseUrl: 'https://экзамен.рф/' }),
    );
    expect(good.baseUrl).toBe('https://экзамен.рф/');
    const edit = await call('profiles.update', { id: good.id, baseUrl: 'http://user:pw@127.0.0.1:39197/' });
    expect(!edit.ok && edit.error.issues?.[0]?.path).toBe('baseUrl');
    const file = await readFile(join(h.dataDir, 'profiles.json'), 'utf8');
    expect(file).not.toContain('pw@');
    expect(file).not.toContain('exa mple');
  });

  it('keeps profile names unique regardless of case, with a message at the name', async () => {
    const results = await Promise.all(
      ['Probe', 'probe', 'PROBE', ' Probe '].map((name) =>
        call('profiles.create', { name, baseUrl: 'http://127.0.0.1:1' }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((x): x is Fail => !x.ok)) {
      expect(r.error.kind).toBe('Conflict');
      expect(r.error.issues).toEqual([{ path: 'name', message: DUPLICATE_NAME_MESSAGE }]);
    }
    const other = mustOk(
      await call<ProfileView>('profiles.create', { name: 'Other', baseUrl: 'http://127.0.0.1:1' }),
    );
    const rename = await call('profiles.update', { id: other.id, name: 'pRoBe' });
    expect(!rename.ok && rename.error.issues).toEqual([{ path: 'name', message: DUPLICATE_NAME_MESSAGE }]);
    expect(
      mustOk(await call<ProfilesState>('profiles.list'))
        .profiles.map((p) => p.name)
        .sort(),
    ).toEqual(['Other', 'Probe']);
  });
});

describe('starting with --demo', () => {
  /** One start of the host on a data folder: what the shell does, with `demo.start` standing for --demo. */
  function startHost(dataDir: string): {
    handlers: HandlersHandle;
    call: <T>(c: string, i?: unknown) => Promise<Result<T>>;
  } {
    const logger = createLogger({ sink: createMemorySink() });
    const handlers = createHandlers({
      dataDir,
      resourcesDir: join(dataDir, 'resources'),
      logger,
      events: { emit: () => undefined },
      // Only the demo profile is used here, and its pair never goes to the keychain.
      secrets: createMemorySecretStore(),
      appInfo: { version: '0.0.0-test', host: 'browser' },
      startSimulator: startSignedSimulator,
      clientOptions: { timeoutMs: 5_000, retry: { maxAttempts: 1 } },
    });
    const dispatch = createDispatcher<'app'>({ handlers, logger, isTrustedSender: () => true });
    return { handlers, call: async (c, i) => (await dispatch(c, i, 'app')) as Result<never> };
  }

  it('makes the demo active on the first run only, never over a profile the analyst chose', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portolan-demo-start-'));
    const first = startHost(dataDir);
    const fresh = mustOk(await first.call<ProfilesState>('demo.start'));
    const demoId = fresh.profiles.find((p) => p.demo)?.id;
    expect(fresh.activeId).toBe(demoId);
    const mine = mustOk(
      await first.call<ProfileView>('profiles.create', { name: 'Mine', baseUrl: 'http://127.0.0.1:1' }),
    );
    mustOk(await first.call('profiles.setActive', { id: mine.id }));
    await first.handlers.dispose();

    const second = startHost(dataDir);
    const restarted = mustOk(await second.call<ProfilesState>('demo.start'));
    expect(restarted.activeId).toBe(mine.id);
    expect(restarted.profiles.filter((p) => p.demo).map((p) => p.id)).toEqual([demoId]);
    // Using the demo by id still works, and does not take over either.
    expect((await second.call('usage.get', { profileId: demoId })).ok).toBe(true);
    expect(mustOk(await second.call<ProfilesState>('profiles.list')).activeId).toBe(mine.id);
    await second.handlers.dispose();

    // A demo the analyst kept active stays active.
    const third = startHost(dataDir);
    mustOk(await third.call('profiles.setActive', { id: demoId }));
    await third.handlers.dispose();
    const fourth = startHost(dataDir);
    expect(mustOk(await fourth.call<ProfilesState>('demo.start')).activeId).toBe(demoId);
    await fourth.handlers.dispose();
  });

  it('brings the demo back on first use after a restart without making it active', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portolan-demo-lazy-'));
    const first = startHost(dataDir);
    const demoId = mustOk(await first.call<ProfilesState>('demo.start')).activeId;
    const mine = mustOk(
      await first.call<ProfileView>('profiles.create', { name: 'Mine', baseUrl: 'http://127.0.0.1:1' }),
    );
    mustOk(await first.call('profiles.setActive', { id: mine.id }));
    await first.handlers.dispose();

    const second = startHost(dataDir);
    expect((await second.call('usage.get', { profileId: demoId })).ok).toBe(true);
    expect(mustOk(await second.call<ProfilesState>('profiles.list')).activeId).toBe(mine.id);
    await second.handlers.dispose();
  });

  it('gives the demo a name of its own when the analyst already uses "Demo workspace"', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portolan-demo-name-'));
    const host = startHost(dataDir);
    mustOk(await host.call('profiles.create', { name: 'demo workspace', baseUrl: 'http://127.0.0.1:1' }));
    const state = mustOk(await host.call<ProfilesState>('demo.start'));
    expect(state.profiles.map((p) => p.name)).toEqual(['demo workspace', 'Demo workspace (2)']);
    await host.handlers.dispose();
  });
});
