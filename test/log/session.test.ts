import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, toBridgeError } from '../../src/main/api';
import { createFileSink, createLogger, createMemorySink, type LogSink } from '../../src/main/log';
import { startStrictServer, type StrictServer } from '../helpers/strict-server';

const KEY = 'pk_session_5550001112AXQZ';
const SECRET = 'sk-session-secret-DO-NOT-LOG-8080';

/**
 * A scripted session through the real client against the verifying server, logging to memory and to
 * a rotating file: successes, a retried 503, a 401, a 500 that echoes the secret, a bad response,
 * plus the app logging the errors it got and (carelessly) the headers the server saw.
 */
describe('a logged session', () => {
  let server: StrictServer;
  let dir: string;
  const memory = createMemorySink();
  let fileText = '';
  const signatures: string[] = [];

  beforeAll(async () => {
    server = await startStrictServer({ apiKey: KEY, apiSecret: SECRET });
    dir = mkdtempSync(join(tmpdir(), 'portolan-session-'));
    const file = createFileSink(join(dir, 'portolan.log'), { maxBytes: 2_000, keep: 5 });
    const both: LogSink = { write: (l) => (memory.write(l), file.write(l)) };
    const log = createLogger({ sink: both, level: 'debug', scope: 'main' });
    const client = createServiceClient({
      baseUrl: server.url,
      credentials: { apiKey: KEY, apiSecret: SECRET },
      retry: { baseDelayMs: 1, maxDelayMs: 10 },
      logger: log,
    });
    const wrong = createServiceClient({
      baseUrl: server.url,
      credentials: { apiKey: KEY, apiSecret: `${SECRET}-old` },
      logger: log,
    });

    await client.usage();
    await client.shipmentSearch({ size: 10, product_detail: 'Çelik boru ürünleri, İstanbul' });
    server.script({ status: 503, json: {} });
    await client.firmCount({ hs_codes: ['7306'] });
    const failures: PromiseSettledResult<unknown>[] = await Promise.allSettled([
      wrong.usage(),
      (server.script({ status: 500, json: { error: `secret ${SECRET} rejected` } }), client.firmCount({})),
    ]);
    server.script({ json: { total: 'many' } });
    failures.push(...(await Promise.allSettled([client.shipmentSearch({ size: 10 })])));
    for (const f of failures) {
      if (f.status === 'rejected')
        log.error('query failed', { error: f.reason, bridge: toBridgeError(f.reason) });
    }
    for (const r of server.requests) {
      signatures.push(String(r.headers['x-signature']));
      log.debug('server saw', {
        headers: r.headers,
        raw: `X-SIGNATURE: ${String(r.headers['x-signature'])}`,
      });
    }
    await file.close();
    fileText = readdirSync(dir)
      .sort()
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('');
  });

  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs every attempt with method, path, status, ms and attempt', () => {
    const requests = memory.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.msg === 'request');
    expect(requests).toHaveLength(server.requests.length);
    for (const e of requests) {
      expect(e.scope).toBe('main.api');
      expect(e.method).toMatch(/^(GET|POST)$/);
      expect(e.path).toMatch(/^\/api\/v1\//);
      expect(typeof e.status).toBe('number');
      expect(typeof e.ms).toBe('number');
      expect(e.attempt).toBeGreaterThanOrEqual(1);
    }
    expect(requests.some((e) => e.status === 503 && e.attempt === 1)).toBe(true);
    expect(requests.some((e) => e.status === 200 && e.attempt === 2)).toBe(true);
    expect(requests.some((e) => e.status === 401)).toBe(true);
  });

  it('logged the failures (so the checks below are not vacuous)', () => {
    const kinds = memory.lines
      .map((l) => JSON.parse(l) as { msg: string; bridge?: { kind: string } })
      .filter((e) => e.msg === 'query failed')
      .map((e) => e.bridge?.kind);
    expect(kinds.sort()).toEqual(['AuthRejected', 'BadResponse', 'ServiceError']);
    expect(signatures.length).toBeGreaterThanOrEqual(6);
    expect(fileText.length).toBeGreaterThan(2_000); // so it rotated at least once
  });

  it('never writes the secret, a signature, or the whole API key to any sink', () => {
    for (const [name, text] of [
      ['memory', memory.lines.join('\n')],
      ['file', fileText],
    ] as const) {
      expect(text, name).not.toContain(SECRET);
      expect(text, name).not.toContain('DO-NOT-LOG');
      for (const sig of signatures) expect(text, name).not.toContain(sig);
      expect(text, name).not.toContain(KEY);
      expect(text, name).toContain('…AXQZ');
    }
  });
});
