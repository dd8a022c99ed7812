import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient, ServiceClientError, type ServiceClient } from '../../src/main/api';
import { createLogger, createMemorySink, redact } from '../../src/main/log';
import { startStrictServer, type StrictServer } from '../helpers/strict-server';

// Values of this file only: test files run in separate processes, so nothing else registers them.
const KEY = 'pk_live_redaction_key_7Q2W';
const SECRET = 'sk-redaction-scope-secret-5150';

let server: StrictServer;
beforeEach(async () => {
  server = await startStrictServer({ apiKey: KEY, apiSecret: SECRET });
});
afterEach(async () => {
  await server.close();
});

function client(log = createMemorySink()): ServiceClient {
  return createServiceClient({
    baseUrl: server.url,
    credentials: { apiKey: KEY, apiSecret: SECRET },
    timeoutMs: 3_000,
    retry: { maxAttempts: 1 },
    logger: createLogger({ sink: log, level: 'debug' }),
  });
}

async function failure(p: Promise<unknown>): Promise<ServiceClientError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ServiceClientError);
  return e as ServiceClientError;
}

describe('the client and the scrub list', () => {
  it('masks its secret in what a call produces, and stops masking it once no call is in flight', async () => {
    const c = client();
    server.script({ status: 500, json: { error: `bad secret ${SECRET} for ${KEY}` } });
    const e = await failure(c.firmCount({}));
    expect(e.message).toContain('bad secret');
    expect(e.message).not.toContain(SECRET);
    expect(e.message).not.toContain(KEY);

    // A client that is merely kept (a deleted profile's, a replaced secret's) no longer garbles text.
    expect(redact(`text mentioning ${SECRET}`)).toBe(`text mentioning ${SECRET}`);
    expect(redact(`and ${KEY}`)).toBe(`and ${KEY}`);
  });

  it('keeps the secret masked while another call with it is still running', async () => {
    const slow = client();
    const fast = client();
    server.script(
      { delayMs: 400, then: { status: 500, json: { error: `late ${SECRET}` } } },
      { status: 503, json: {} },
    );
    const late = failure(slow.firmCount({}));
    await new Promise((r) => setTimeout(r, 50));
    await failure(fast.usage());
    // The fast call is done; the slow one still holds the pair.
    expect(redact(SECRET)).not.toContain(SECRET);
    const e = await late;
    expect(e.message).toContain('late');
    expect(e.message).not.toContain(SECRET);
    expect(redact(SECRET)).toBe(SECRET);
  });

  it('does not garble its log lines when its credentials are too short to be real', async () => {
    const sink = createMemorySink();
    const c = createServiceClient({
      baseUrl: 'http://127.0.0.1:1',
      credentials: { apiKey: 'k', apiSecret: 's' },
      timeoutMs: 2_000,
      retry: { maxAttempts: 1 },
      logger: createLogger({ sink }),
    });
    const e = await failure(c.usage());
    expect(e.message).toMatch(/Could not reach the service at 127\.0\.0\.1:1/);
    expect(e.message).not.toContain('[REDACTED]');
    expect(sink.lines.join('\n')).not.toContain('[REDACTED]');
  });
});
