import { request, type IncomingHttpHeaders } from 'node:http';
import type { JobProgress } from '@shared/jobs/jobs-contract';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy } from '@shared/csp';
import type { BridgeError } from '@shared/ipc/errors';
import { createLogger, createMemorySink } from '../../src/main/log';
import { createKeytarSecretStore } from '../../src/main/secrets';
import { createWebHost, type WebHost } from '../../src/main/web-host';
import { openSession, type BrowserSession } from '../helpers/browser-session';
import { canFreezeLibrary, freezeLibrary, thawLibrary } from '../helpers/frozen-library';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string; hostname?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: opts.hostname ?? '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: opts.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

let dir: string;
let host: WebHost;
const sink = createMemorySink();
const keychainService = `Portolan web-host test ${randomUUID()}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portolan-web-host-'));
  const rendererDir = join(dir, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(
    join(rendererDir, 'index.html'),
    '<!doctype html><title>t</title><script src="./assets/app.js"></script>',
  );
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log(1);');
  await writeFile(join(dir, 'outside.txt'), 'must not be served');
  host = await createWebHost({
    rendererDir,
    logger: createLogger({ sink, level: 'debug' }),
    deps: {
      dataDir: join(dir, 'data'),
      resourcesDir: join(dir, 'resources'),
      logger: createLogger({ sink, level: 'debug' }),
      secrets: createKeytarSecretStore({ service: keychainService }),
      version: '9.9.9-test',
    },
  });
});

afterAll(async () => {
  await host?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The launch token traded for the session cookie, as the page does first (test/helpers/browser-session.ts). */
let session: BrowserSession;
beforeAll(async () => {
  session = await openSession(host);
});
const auth = () => ({ Cookie: session.cookie, 'Content-Type': 'application/json' });

describe('web host: who may call', () => {
  it('puts a 43-character random token in the launch URL fragment, different per launch', async () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/#token=[A-Za-z0-9_-]{43}$`));
    const other = await createWebHost({ rendererDir: join(dir, 'renderer'), handlers: stubServices() });
    try {
      expect(other.token).not.toBe(host.token);
      expect(other.port).not.toBe(host.port);
    } finally {
      await other.close();
    }
  });

  it('refuses rpc without the session cookie (401) and with a wrong one of any length (401)', async () => {
    const none = await send(host.port, { method: 'POST', path: '/rpc/app.info' });
    expect(none.status).toBe(401);
    const [name, value] = session.cookie.split('=') as [string, string];
    for (const wrong of ['x', value.slice(0, -1), `${value}A`, value.toUpperCase(), host.token]) {
      if (wrong === value) continue;
      const r = await send(host.port, {
        method: 'POST',
        path: '/rpc/app.info',
        headers: { Cookie: `${name}=${wrong}` },
      });
      expect(r.status).toBe(401);
    }
  });

  it('refuses the events stream without the session cookie', async () => {
    expect((await send(host.port, { path: '/events' })).status).toBe(401);
    expect((await send(host.port, { path: '/events?token=nope' })).status).toBe(401);
  });

  it('rejects a foreign Origin with 403 even with the right token', async () => {
    for (const origin of [
      'http://evil.example',
      `http://127.0.0.1:${host.port + 1}`,
      'null',
      `https://127.0.0.1:${host.port}`,
    ]) {
      const r = await send(host.port, {
        method: 'POST',
        path: '/rpc/app.info',
        headers: { ...auth(), Origin: origin },
      });
      expect(r.status, origin).toBe(403);
    }
    const ok = await send(host.port, {
      method: 'POST',
      path: '/rpc/app.info',
      headers: { ...auth(), Origin: `http://localhost:${host.port}` },
    });
    expect(ok.status).toBe(200);
  });

  it('rejects a foreign Host header with 403 (DNS rebinding), for rpc and static files alike', async () => {
    for (const h of [
      'evil.example',
      `evil.example:${host.port}`,
      `127.0.0.1:${host.port + 1}`,
      `0.0.0.0:${host.port}`,
    ]) {
      const rpc = await send(host.port, {
        method: 'POST',
        path: '/rpc/app.info',
        headers: { ...auth(), Host: h },
      });
      expect(rpc.status, h).toBe(403);
      const page = await send(host.port, { path: '/', headers: { Host: h } });
      expect(page.status, h).toBe(403);
    }
  });

  it('rejects cross-site fetch metadata', async () => {
    const r = await send(host.port, {
      method: 'POST',
      path: '/rpc/app.info',
      headers: { ...auth(), 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(r.status).toBe(403);
  });

  it('listens on 127.0.0.1 only', async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === 'IPv4')
      .map((i) => i!.address);
    for (const address of [...others, '::1']) {
      await expect(send(host.port, { path: '/', hostname: address })).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
    }
  });
});

describe('web host: the launch token becomes a session cookie, once', () => {
  it('answers the exchange with an HttpOnly, SameSite=Strict cookie that is not the token', () => {
    const attrs = session.setCookie.split(';').map((a) => a.trim());
    expect(attrs[0]).toMatch(new RegExp(`^portolan_session_${host.port}=[A-Za-z0-9_-]{43}$`));
    expect(attrs.slice(1).sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict']);
    expect(session.cookie).not.toContain(host.token);
  });

  it('spends the token: a second exchange (a copy from the history, another browser) gets nothing', async () => {
    const again = await send(host.port, {
      method: 'POST',
      path: '/session',
      headers: { 'X-Portolan-Token': host.token },
    });
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toMatch(/already used/);
    // The page that holds the session may ask again (a reload of the launch address) and keeps it.
    const mine = await send(host.port, {
      method: 'POST',
      path: '/session',
      headers: { 'X-Portolan-Token': host.token, Cookie: session.cookie },
    });
    expect(mine.status).toBe(204);
    expect(mine.headers['set-cookie']).toBeUndefined();
  });

  it('takes the token nowhere else: not in a header of a call, not in any query string', async () => {
    const inHeader = await send(host.port, {
      method: 'POST',
      path: '/rpc/app.info',
      headers: { 'X-Portolan-Token': host.token },
    });
    expect(inHeader.status).toBe(401);
    for (const path of [`/rpc/app.info?token=${host.token}`, `/events?token=${host.token}`]) {
      const r = await send(host.port, { method: path.startsWith('/rpc') ? 'POST' : 'GET', path });
      expect(r.status, path).toBe(401);
    }
  });

  it('a wrong guess does not spend the token; only the exchange does, and only by POST', async () => {
    const other = await createWebHost({ rendererDir: join(dir, 'renderer'), handlers: stubServices() });
    try {
      const post = (token: string) =>
        send(other.port, { method: 'POST', path: '/session', headers: { 'X-Portolan-Token': token } });
      expect((await post('guess')).status).toBe(401);
      expect(
        (await send(other.port, { path: '/session', headers: { 'X-Portolan-Token': other.token } })).status,
      ).toBe(405);
      expect((await post(other.token)).status).toBe(204);
      // One host's cookie is not another's: the names carry the port, the values are the host's own.
      const r = await send(other.port, {
        method: 'POST',
        path: '/rpc/app.info',
        headers: { Cookie: session.cookie },
      });
      expect(r.status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('web host: the bridge over HTTP', () => {
  it('answers a call with its BridgeResult from the real handlers', async () => {
    const r = await send(host.port, { method: 'POST', path: '/rpc/app.info', headers: auth() });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(r.body)).toEqual({
      ok: true,
      value: { version: '9.9.9-test', host: 'browser', platform: process.platform },
    });
  });

  it('keeps the contract: invalid input comes back as InvalidInput with field issues', async () => {
    const r = await send(host.port, {
      method: 'POST',
      path: '/rpc/profiles.create',
      headers: auth(),
      body: JSON.stringify({ name: '', baseUrl: 'not a url' }),
    });
    const result = JSON.parse(r.body) as { ok: boolean; error: { kind: string; issues: { path: string }[] } };
    expect(result.ok).toBe(false);
    expect(result.error.kind).toBe('InvalidInput');
    expect(result.error.issues.map((i) => i.path).sort()).toEqual(['baseUrl', 'name']);
  });

  it('creates a profile with credentials and never sends the secret back', async () => {
    const secret = `s3cret-${randomUUID()}`;
    const created = await send(host.port, {
      method: 'POST',
      path: '/rpc/profiles.create',
      headers: auth(),
      body: JSON.stringify({
        name: 'Web host test',
        baseUrl: 'https://api.example.com',
        apiKey: 'key-1234567890',
        apiSecret: secret,
      }),
    });
    expect(created.body).not.toContain(secret);
    const view = JSON.parse(created.body) as {
      ok: boolean;
      value: { id: string; apiKeyMasked: string; hasSecret: boolean };
    };
    expect(view).toMatchObject({ ok: true, value: { apiKeyMasked: '••••7890', hasSecret: true } });
    const list = await send(host.port, { method: 'POST', path: '/rpc/profiles.list', headers: auth() });
    expect(list.body).not.toContain(secret);
    expect(sink.lines.join('\n')).not.toContain(secret);
    await send(host.port, {
      method: 'POST',
      path: '/rpc/profiles.delete',
      headers: auth(),
      body: JSON.stringify({ id: view.value.id }),
    });
  });

  it('has no shell.openExternal channel: the app opens no links', async () => {
    const r = await send(host.port, {
      method: 'POST',
      path: '/rpc/shell.openExternal',
      headers: auth(),
      body: JSON.stringify({ url: 'https://example.com/' }),
    });
    expect(r.status).toBe(404);
  });

  it('refuses unknown channels, wrong methods, non-JSON bodies', async () => {
    expect((await send(host.port, { method: 'POST', path: '/rpc/nope.nope', headers: auth() })).status).toBe(
      404,
    );
    expect((await send(host.port, { method: 'GET', path: '/rpc/app.info', headers: auth() })).status).toBe(
      405,
    );
    const text = await send(host.port, {
      method: 'POST',
      path: '/rpc/profiles.delete',
      headers: { Cookie: session.cookie, 'Content-Type': 'text/plain' },
      body: '{"id":"x"}',
    });
    expect(text.status).toBe(415);
    const broken = await send(host.port, {
      method: 'POST',
      path: '/rpc/profiles.delete',
      headers: auth(),
      body: '{',
    });
    expect(broken.status).toBe(400);
  });

  it('caps request bodies at 1 MB, except for calls that carry a file, which reach their schema', async () => {
    const big = JSON.stringify({ text: `[${' '.repeat(2 * 1024 * 1024)}` });
    const ordinary = await send(host.port, {
      method: 'POST',
      path: '/rpc/profiles.delete',
      headers: auth(),
      body: big,
    });
    expect(ordinary.status).toBe(413);
    const presets = await send(host.port, {
      method: 'POST',
      path: '/rpc/presets.import',
      headers: auth(),
      body: big,
    });
    expect(presets.status).toBe(200);
    // The body arrived whole and was judged by the presets import, not refused by the transport.
    const result = JSON.parse(presets.body) as { ok: boolean; error?: { kind: string } };
    expect(result.ok).toBe(false);
    expect(result.error?.kind).toBe('InvalidInput');
  });

  it('takes an upload into its import folder and answers a handle that library.import reads once', async () => {
    const records = JSON.stringify([{ name: 'Acme', country: 'Türkiye', country_code: 'TR', firm_type: 1 }]);
    const upload = (headers: Record<string, string>, body = records) =>
      send(host.port, { method: 'POST', path: '/files/import', headers, body });
    const file = {
      'Content-Type': 'application/octet-stream',
      'X-Portolan-File-Name': encodeURIComponent('Fïrms.json'),
    };
    expect((await upload(file)).status).toBe(401);
    expect((await upload({ ...file, Cookie: session.cookie, Origin: 'http://evil.example' })).status).toBe(
      403,
    );
    expect((await upload({ ...auth(), 'X-Portolan-File-Name': 'a.json' })).status).toBe(415);
    const r = await upload({ ...file, Cookie: session.cookie });
    expect(r.status).toBe(200);
    const chosen = JSON.parse(r.body) as { ok: true; value: { handle: string; name: string; size: number } };
    expect(chosen.value).toMatchObject({ name: 'Fïrms.json', size: Buffer.byteLength(records) });
    expect(chosen.value.handle).toMatch(/^fh_[\w-]{32}$/);
    expect(r.body).not.toContain(dir);

    const imported = await send(host.port, {
      method: 'POST',
      path: '/rpc/library.import',
      headers: auth(),
      body: JSON.stringify({ file: chosen.value.handle }),
    });
    expect(JSON.parse(imported.body)).toMatchObject({ ok: true, value: { rows: 1, format: 'json' } });
    const again = await send(host.port, {
      method: 'POST',
      path: '/rpc/library.import',
      headers: auth(),
      body: JSON.stringify({ file: chosen.value.handle }),
    });
    expect(JSON.parse(again.body)).toMatchObject({ ok: false, error: { kind: 'NotFound' } });
  });

  it.skipIf(!canFreezeLibrary)(
    'an upload its import folder refuses is said in words, the system’s text only as the detail',
    async () => {
      const imports = join(dir, 'data', 'imports');
      await mkdir(imports, { recursive: true });
      freezeLibrary(imports);
      try {
        const r = await send(host.port, {
          method: 'POST',
          path: '/files/import',
          headers: {
            Cookie: session.cookie,
            'Content-Type': 'application/octet-stream',
            'X-Portolan-File-Name': 'held.csv',
          },
          body: 'Consignee,HS Code\r\nAcme,720810\r\n',
        });
        expect(r.status).toBe(200);
        const { error } = JSON.parse(r.body) as { ok: false; error: BridgeError };
        expect(error.kind).toBe('Forbidden');
        expect(error.message).toBe(
          'Portolan may not write to its data folder: the folder or its library file was made read-only, or its permissions changed. What was saved before is intact; make the folder writable again, then try again.',
        );
        expect(error.detail).toMatch(/^EPERM: operation not permitted, mkdir '/);
      } finally {
        thawLibrary(imports);
      }
    },
  );

  it('hands a finished export out as a download by its handle, to the session only', async () => {
    const records = JSON.stringify([
      { name: 'Acme', country: 'Türkiye', country_code: 'TR', firm_type: 1 },
      { name: 'Beta', country: 'Germany', country_code: 'DE', firm_type: 2 },
    ]);
    const up = await send(host.port, {
      method: 'POST',
      path: '/files/import',
      headers: {
        Cookie: session.cookie,
        'Content-Type': 'application/octet-stream',
        'X-Portolan-File-Name': 'two.json',
      },
      body: records,
    });
    const file = (JSON.parse(up.body) as { value: { handle: string } }).value.handle;
    const rpc = async <T>(channel: string, input: unknown) =>
      (
        JSON.parse(
          (
            await send(host.port, {
              method: 'POST',
              path: `/rpc/${channel}`,
              headers: auth(),
              body: JSON.stringify(input),
            })
          ).body,
        ) as { ok: true; value: T }
      ).value;
    const imported = await rpc<{ dataset: { id: string; name: string } }>('library.import', { file });
    const finished = new Promise<{ jobId: string; outcome: string }>((resolve) => {
      const stop = host.events.listen((event, payload) => {
        if (event !== 'jobs.finished') return;
        stop();
        resolve(payload as { jobId: string; outcome: string });
      });
    });
    const started = await rpc<{ jobId: string; handle: string; path: string }>('export.start', {
      source: { datasetId: imported.dataset.id },
      format: 'csv',
    });
    expect((await finished).outcome).toBe('succeeded');

    const path = `/files/export/${started.handle}`;
    expect((await send(host.port, { path })).status).toBe(401);
    expect(
      (await send(host.port, { path, headers: { Cookie: session.cookie, Origin: 'http://evil.example' } }))
        .status,
    ).toBe(403);
    const got = await send(host.port, { path, headers: { Cookie: session.cookie } });
    expect(got.status).toBe(200);
    // The file's own name (UTF-8, RFC 5987) and a plain-ASCII stand-in for older readers.
    const name = basename(started.path);
    expect(name).toMatch(/·/);
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
    expect(got.headers['content-type']).toMatch(/^text\/csv/);
    expect(got.body).toBe(await readFile(started.path, 'utf8'));
    expect(got.body).toContain('Acme');
    // Only exports: an import handle, a forged handle or a path are not downloads.
    for (const other of [file, `fh_${'Z'.repeat(32)}`, encodeURIComponent(started.path)]) {
      expect(
        (await send(host.port, { path: `/files/export/${other}`, headers: { Cookie: session.cookie } }))
          .status,
      ).toBe(404);
    }
  });

  it('streams events as server-sent events to every open stream', async () => {
    const viaHeader = openStream(host.port, '/events', { Cookie: session.cookie });
    const viaQuery = openStream(host.port, '/events', { Cookie: session.cookie });
    try {
      await Promise.all([viaHeader.connected, viaQuery.connected]);
      const payload: JobProgress = {
        kind: 'shipments',
        jobId: 'j1',
        label: 'Downloading',
        done: 5,
        total: 10,
        unit: 'records',
        etaSeconds: 3,
        windowsDone: 1,
        windowsKnown: 2,
        recordsStored: 5,
        requestsUsed: 2,
        downloadsUsed: 15,
      };
      host.events.emit('jobs.progress', payload);
      host.events.emit('app.command', { command: 'navigate', target: 'usage' });
      for (const s of [viaHeader, viaQuery]) {
        expect(await s.next()).toEqual({ event: 'jobs.progress', payload });
        expect(await s.next()).toEqual({
          event: 'app.command',
          payload: { command: 'navigate', target: 'usage' },
        });
      }
      expect(viaHeader.contentType()).toMatch(/^text\/event-stream/);
    } finally {
      viaHeader.close();
      viaQuery.close();
    }
  });
});

describe('web host: an event while main stays busy', () => {
  it('goes out when emitted, not once main is free again (a search’s first rows before its parse)', async () => {
    // The stream is read in a thread of its own, which raises a shared flag when an event arrives.
    // Main then blocks on that flag (Atomics.wait), as busy as during a search answer's parse: the
    // event reaches the reader only if the host wrote it out at once. No deadline shorter than the
    // wait's own: a loaded machine may schedule the reader late, but never before main is free.
    const arrived = new Int32Array(new SharedArrayBuffer(4));
    const reader = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const { request } = require('node:http');
       let buffer = '';
       request({ host: '127.0.0.1', port: workerData.port, path: '/events', headers: { Cookie: workerData.cookie } }, (res) => {
         res.setEncoding('utf8');
         res.on('data', (chunk) => {
           buffer += chunk;
           if (buffer.includes(': connected')) { buffer = ''; parentPort.postMessage('connected'); }
           if (buffer.includes('data: ')) { Atomics.store(workerData.arrived, 0, 1); Atomics.notify(workerData.arrived, 0); }
         });
       }).end();`,
      { eval: true, workerData: { port: host.port, cookie: session.cookie, arrived } },
    );
    try {
      let connected = false;
      reader.on('message', (m: unknown) => (connected ||= m === 'connected'));
      await vi.waitFor(() => expect(connected).toBe(true), { timeout: 10_000 });
      host.events.emit('app.command', { command: 'navigate', target: 'usage' });
      // Main's event loop does not turn until the reader has the event, or 10 s have passed.
      const waited = Atomics.wait(arrived, 0, 0, 10_000);
      expect(waited).not.toBe('timed-out');
      expect(Atomics.load(arrived, 0)).toBe(1);
    } finally {
      await reader.terminate();
    }
  });
});

describe('web host: the renderer', () => {
  it('serves index.html with a CSP header and assets with their types', async () => {
    const page = await send(host.port, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toBe(contentSecurityPolicy());
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const js = await send(host.port, { path: '/assets/app.js' });
    expect(js.headers['content-type']).toMatch(/text\/javascript/);
    expect(js.body).toBe('console.log(1);');
  });

  it('never serves files outside the renderer directory', async () => {
    for (const path of [
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/..%2f..%2foutside.txt',
      '/%00',
      '/missing.js',
    ]) {
      const r = await send(host.port, { path });
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain('must not be served');
    }
  });
});

/** Reads an SSE response incrementally; `next()` resolves with each parsed data message in order. */
function openStream(port: number, path: string, headers: Record<string, string>) {
  const messages: unknown[] = [];
  const waiters: Array<(v: unknown) => void> = [];
  let contentType = '';
  let buffer = '';
  let onConnected: () => void = () => undefined;
  const connected = new Promise<void>((r) => (onConnected = r));
  const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
    contentType = String(res.headers['content-type']);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.includes(': connected')) onConnected();
      let idx: number;
      while ((idx = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, idx);
        buffer = buffer.slice(idx + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
        if (!data) continue;
        const msg = JSON.parse(data) as unknown;
        const w = waiters.shift();
        if (w) w(msg);
        else messages.push(msg);
      }
    });
  });
  req.on('error', () => undefined);
  req.end();
  return {
    connected,
    contentType: () => contentType,
    next: () =>
      messages.length > 0 ? Promise.resolve(messages.shift()) : new Promise((r) => waiters.push(r)),
    close: () => req.destroy(),
  };
}

/** Handlers for a second host in the token test, which never calls them. */
function stubServices() {
  const fail = async () => {
    throw new Error('not used');
  };
  return new Proxy({}, { get: () => fail }) as Parameters<typeof createWebHost>[0]['handlers'] & object;
}
