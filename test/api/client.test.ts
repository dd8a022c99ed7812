import { createHmac } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createServiceClient,
  ServiceClientError,
  type ClientOptions,
  type RetryInfo,
  type ServiceClient,
} from '../../src/main/api';
import { START_BYTES } from '../../src/main/api/client';
import { startStrictServer, type StrictServer } from '../helpers/strict-server';

const KEY = 'pk_live_1234567890ABCD';
const SECRET = 'sk-Portolan-secret-value-0042';
/** OpenSSL: printf %s '' | openssl dgst -sha256 -hmac "$SECRET" -binary | base64 */
const EMPTY_PAYLOAD_SIGNATURE = 'E2otZ0Ulj96Mz7l5pYdWC8P28vmqV+Z7QggfwBZ86LA=';

let server: StrictServer;

beforeEach(async () => {
  server = await startStrictServer({ apiKey: KEY, apiSecret: SECRET });
});
afterEach(async () => {
  await server.close();
});

function client(overrides: Partial<ClientOptions> = {}): ServiceClient {
  return createServiceClient({
    baseUrl: server.url,
    credentials: { apiKey: KEY, apiSecret: SECRET },
    timeoutMs: 3_000,
    retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 40 },
    ...overrides,
  });
}

/** Runs `p`, expecting a ServiceClientError, and returns it. */
async function failure(p: Promise<unknown>): Promise<ServiceClientError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceClientError);
    return e as ServiceClientError;
  }
  throw new Error('expected the call to fail');
}

function hmac(body: Buffer): string {
  return createHmac('sha256', SECRET).update(body).digest('base64');
}

describe('operations over HTTP', () => {
  it('shipmentSearch sends a signed POST and returns parsed records', async () => {
    const res = await client().shipmentSearch({ size: 10, hs_codes: ['730640'], importer_countries: ['TR'] });
    expect(res.total).toBe(2);
    expect(res.shipments).toHaveLength(2);
    expect(res.shipments[0]!.importerName).toBe('Acme Boru Sanayi A.Ş.');
    // A field the service left out is an empty string, not undefined.
    expect(res.shipments[0]!.vesselName).toBe('');

    expect(server.requests).toHaveLength(1);
    const r = server.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/api/v1/shipment/search');
    expect(r.apiKeyValid).toBe(true);
    expect(r.signatureValid).toBe(true);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['accept']).toBe('application/json');
    expect(r.headers['x-api-key']).toBe(KEY);
    expect(JSON.parse(r.body.toString('utf8'))).toEqual({
      size: 10,
      hs_codes: ['730640'],
      importer_countries: ['TR'],
    });
  });

  it('shipmentCount', async () => {
    const res = await client().shipmentCount({ firm: 'acme-boru' });
    expect(res.shipment_count).toBe(17);
    expect(server.requests[0]!.url).toBe('/api/v1/shipment/count');
    expect(JSON.parse(server.requests[0]!.body.toString())).toEqual({ firm: 'acme-boru' });
    expect(server.requests[0]!.signatureValid).toBe(true);
  });

  it('firmSearch', async () => {
    const res = await client().firmSearch({ page: 2, product_detail: 'steel pipe' });
    expect(res.page).toBe(2);
    expect(res.total_pages).toBe(3);
    expect(res.firms[0]!.firm_type).toBe(1);
    expect(res.firms[0]!.city_state).toBe('İstanbul');
    expect(server.requests[0]!.url).toBe('/api/v1/firms/search');
    expect(server.requests[0]!.signatureValid).toBe(true);
  });

  it('firmCount accepts an empty filter', async () => {
    const res = await client().firmCount({});
    expect(res.firm_count).toBe(5);
    expect(server.requests[0]!.url).toBe('/api/v1/firms/count');
    expect(server.requests[0]!.body.toString()).toBe('{}');
    expect(server.requests[0]!.signatureValid).toBe(true);
  });

  it('usage is a GET with no body, signed over the empty string', async () => {
    const res = await client().usage();
    expect(res['acme-account']!['firms/search']).toEqual({ current: 3, limit: -1, notes: 'unlimited' });
    const r = server.requests[0]!;
    expect(r.method).toBe('GET');
    expect(r.url).toBe('/api/v1/statistics/usage');
    expect(r.body.length).toBe(0);
    expect(r.headers['x-signature']).toBe(EMPTY_PAYLOAD_SIGNATURE);
    expect(r.signatureValid).toBe(true);
  });
});

describe('bytes signed are the bytes sent', () => {
  const cases = [
    { name: 'Turkish', product_detail: 'Çelik boru ürünleri, İstanbul', arrival_port: 'İzmir Limanı' },
    { name: 'Chinese', product_detail: '不锈钢管', arrival_port: '上海港' },
  ];
  for (const c of cases) {
    it(`for a ${c.name} product name`, async () => {
      await client().shipmentSearch({
        size: 100,
        product_detail: c.product_detail,
        arrival_port: c.arrival_port,
      });
      const r = server.requests[0]!;
      expect(r.signatureValid).toBe(true);
      expect(r.headers['x-signature']).toBe(hmac(r.body));
      // Sent as UTF-8 text, not \u escapes, with a Content-Length of the UTF-8 byte count.
      expect(r.body.includes(Buffer.from(c.product_detail, 'utf8'))).toBe(true);
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
      expect(r.body.length).toBeGreaterThan(r.body.toString('utf8').length);
      expect(JSON.parse(r.body.toString('utf8'))).toEqual({
        size: 100,
        product_detail: c.product_detail,
        arrival_port: c.arrival_port,
      });
    });
  }

  it('a retried request carries the same bytes and a valid signature each time', async () => {
    server.script({ status: 503, json: { error: 'busy' } }, { status: 502, raw: 'bad gateway' });
    await client().shipmentSearch({ size: 10, product_detail: '不锈钢管' });
    expect(server.requests).toHaveLength(3);
    for (const r of server.requests) {
      expect(r.signatureValid).toBe(true);
      expect(r.body.equals(server.requests[0]!.body)).toBe(true);
    }
  });

  it('the server rejects a signature over a different serialisation (control for the checks above)', async () => {
    // Sent by hand: sign one text, send the same object re-serialised with a space.
    const signed = '{"size":10}';
    const res = await fetch(`${server.url}/api/v1/shipment/search`, {
      method: 'POST',
      headers: {
        'X-API-KEY': KEY,
        'X-SIGNATURE': hmac(Buffer.from(signed)),
        'Content-Type': 'application/json',
      },
      body: '{"size": 10}',
    });
    expect(res.status).toBe(401);
    expect(server.requests[0]!.signatureValid).toBe(false);
  });
});

describe('base URL', () => {
  it('works with and without a trailing slash', async () => {
    await client({ baseUrl: `${server.url}/` }).firmCount({});
    await client({ baseUrl: server.url }).firmCount({});
    expect(server.requests[0]!.url).toBe('/api/v1/firms/count');
    expect(server.requests[1]!.url).toBe('/api/v1/firms/count');
  });

  it('keeps a base path, with or without a trailing slash', async () => {
    const gw = await startStrictServer({ apiKey: KEY, apiSecret: SECRET, basePath: '/gateway/v2' });
    try {
      const a = await client({ baseUrl: `${gw.url}/gateway/v2` }).shipmentCount({ firm: 'x-1' });
      const b = await client({ baseUrl: `${gw.url}/gateway/v2/` }).usage();
      expect(a.shipment_count).toBe(17);
      expect(Object.keys(b)).toEqual(['acme-account']);
      expect(gw.requests.map((r) => r.url)).toEqual([
        '/gateway/v2/api/v1/shipment/count',
        '/gateway/v2/api/v1/statistics/usage',
      ]);
    } finally {
      await gw.close();
    }
  });

  it('an unusable base URL is an InvalidRequest and nothing is sent', async () => {
    for (const baseUrl of [
      'not a url',
      'ftp://127.0.0.1/',
      `http://user:pw@127.0.0.1:${server.port}/`,
      // The key and signature never cross a network in plain http: only to this computer.
      'http://api.example.com/',
      'http://192.168.1.20:8787/',
    ]) {
      const e = await failure(client({ baseUrl }).firmCount({}));
      expect(e.kind).toBe('InvalidRequest');
      expect(e.issues?.[0]?.path).toBe('baseUrl');
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('InvalidRequest: nothing is sent', () => {
  it.each([
    ['size below the minimum', 'shipmentSearch', { size: 9 }, 'size'],
    [
      'an HS code with a letter',
      'shipmentSearch',
      { size: 10, hs_codes: ['7306', '7307', '73x8'] },
      'hs_codes[2]',
    ],
    ['an unknown field', 'shipmentSearch', { size: 10, colour: 'red' }, 'colour'],
    ['an empty firm', 'shipmentCount', { firm: '' }, 'firm'],
    ['page 0', 'firmSearch', { page: 0, product_detail: 'steel' }, 'page'],
    ['a firm search with no filter', 'firmSearch', { page: 1 }, ''],
    ['a 2-character keyword', 'firmCount', { brand_name: 'ab' }, 'brand_name'],
  ] as const)('%s', async (_name, op, req, path) => {
    const c = client() as unknown as Record<string, (r: unknown) => Promise<unknown>>;
    const e = await failure(c[op]!(req));
    expect(e.kind).toBe('InvalidRequest');
    expect(e.issues?.map((i) => i.path)).toContain(path);
    expect(e.message).toMatch(/not sent/);
    expect(server.requests).toHaveLength(0);
  });

  it("says the refusal in the form's words: its labels and the entry at fault, not the service's field names", async () => {
    const e = await failure(
      client().shipmentSearch({ size: 9, hs_codes: ['7306', '73x8'], brand_name: 'ab' } as never),
    );
    expect(e.kind).toBe('InvalidRequest');
    expect(e.message).toContain('Records to download: at least 10');
    expect(e.message).toContain('HS codes: “73x8”: digits only');
    expect(e.message).toContain('Brand name: at least 3 characters');
    expect(e.message).not.toMatch(/size|hs_codes|brand_name/);
  });

  it('missing credentials are reported without sending', async () => {
    const e = await failure(client({ credentials: { apiKey: '', apiSecret: '' } }).usage());
    expect(e.kind).toBe('InvalidRequest');
    expect(e.issues?.map((i) => i.path)).toEqual(['credentials.apiKey', 'credentials.apiSecret']);
    expect(server.requests).toHaveLength(0);
  });
});

describe('AuthRejected', () => {
  it('a wrong secret gets a real 401 from the verifying server, not retried', async () => {
    const wrong = 'sk-wrong-secret-9999';
    const e = await failure(client({ credentials: { apiKey: KEY, apiSecret: wrong } }).usage());
    expect(e.kind).toBe('AuthRejected');
    expect(e.status).toBe(401);
    expect(e.message).toBe(
      'The service rejected the API key or signature (401). Check the key and secret in Settings → Connection profiles.',
    );
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.signatureValid).toBe(false);
    expect(JSON.stringify(e)).not.toContain(wrong);
  });

  it('a wrong API key gets 401', async () => {
    const e = await failure(
      client({ credentials: { apiKey: 'pk_other_key_0000', apiSecret: SECRET } }).firmCount({}),
    );
    expect(e.kind).toBe('AuthRejected');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.apiKeyValid).toBe(false);
  });
});

describe('the bytes of an answer, for whoever stores it', () => {
  it('are heard once per call, as the JSON the client parses, before the parse; a retried 503 is not heard', async () => {
    const body = Buffer.from(
      JSON.stringify({ total: 1, shipments: [{ importerName: 'Acme Boru Sanayi A.Ş.' }] }),
      'utf8',
    );
    server.script({ status: 503, json: { error: 'busy' } }, { raw: body });
    const heard: Buffer[] = [];
    const res = await client().shipmentSearch({ size: 10 }, { onBody: (b) => heard.push(Buffer.from(b)) });
    expect(res.shipments[0]!.importerName).toBe('Acme Boru Sanayi A.Ş.');
    expect(server.requests).toHaveLength(2);
    expect(heard).toHaveLength(1);
    // Every character beyond ASCII written as its escape: the same JSON, in ASCII.
    expect(heard[0]!.toString('latin1')).toBe(
      '{"total":1,"shipments":[{"importerName":"Acme Boru Sanayi A.\\u015e."}]}',
    );
    expect(JSON.parse(heard[0]!.toString('utf8'))).toEqual(JSON.parse(body.toString('utf8')));
  });

  it('are the body’s own bytes where its JSON cannot be written in ASCII (dense in other scripts)', async () => {
    const names = Array.from({ length: 2000 }, (_, i) => ({ importerName: `上海 ${i} 钢管` }));
    const body = Buffer.from(JSON.stringify({ total: 2000, shipments: names }), 'utf8');
    server.script({ raw: body });
    const heard: Buffer[] = [];
    const res = await client().shipmentSearch({ size: 2000 }, { onBody: (b) => heard.push(Buffer.from(b)) });
    expect(res.shipments[1999]!.importerName).toBe('上海 1999 钢管');
    expect(heard).toHaveLength(1);
    expect(heard[0]!.equals(body)).toBe(true);
  });

  it('a listener that throws changes nothing, and a refused call is never heard', async () => {
    const res = await client().shipmentSearch(
      { size: 10 },
      {
        onBody: () => {
          throw new Error('listener broke');
        },
      },
    );
    expect(res.total).toBe(2);
    server.script({ status: 422, json: { error: 'bad filter' } });
    const heard: Uint8Array[] = [];
    const e = await failure(client().shipmentSearch({ size: 10 }, { onBody: (b) => heard.push(b) }));
    expect(e.status).toBe(422);
    expect(heard).toHaveLength(0);
  });
});

describe('the start of an answer, heard while the rest arrives', () => {
  /** An answer of `records` records of ~1 KB each, as bytes. */
  const answerOf = (records: number): Buffer =>
    Buffer.from(
      JSON.stringify({
        total: records,
        shipments: Array.from({ length: records }, (_, i) => ({ hashId: `h${i}`, note: 'x'.repeat(1000) })),
      }),
      'utf8',
    );

  it('hears the first bytes before the rest has come, then nothing more; the answer is whole', async () => {
    const body = answerOf(3000);
    const cut = START_BYTES + 50_000;
    const order: string[] = [];
    let heardStart: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (heardStart = resolve));
    const http = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(body.subarray(0, cut));
      // The rest only once the start was heard (or after 5 s, when it is not: the order then says so).
      void Promise.race([started, new Promise((r) => setTimeout(r, 5_000))]).then(() => {
        order.push('rest sent');
        res.end(body.subarray(cut));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = http.address() as AddressInfo;
      const heard: { length: number; whole: boolean; starts: boolean }[] = [];
      const res = await client({ baseUrl: `http://127.0.0.1:${port}/` }).shipmentSearch(
        { size: 3000 },
        {
          onStart: (bytes, whole) => {
            order.push('start heard');
            heard.push({
              length: bytes.byteLength,
              whole,
              starts: Buffer.from(bytes).equals(body.subarray(0, bytes.byteLength)),
            });
            heardStart();
            return true;
          },
        },
      );
      expect(order).toEqual(['start heard', 'rest sent']);
      expect(heard).toHaveLength(1);
      expect(heard[0]).toMatchObject({ whole: false, starts: true });
      expect(heard[0]!.length).toBeGreaterThanOrEqual(START_BYTES);
      expect(heard[0]!.length).toBeLessThanOrEqual(cut);
      expect(res.shipments).toHaveLength(3000);
      expect(res.shipments[2999]!.hashId).toBe('h2999');
    } finally {
      await new Promise((r) => http.close(r));
    }
  });

  it('hears the whole body when the start did not do, or the body is shorter than the start', async () => {
    const long = answerOf(1500);
    const short = answerOf(2);
    server.script({ raw: long }, { raw: short });
    const heard: { length: number; whole: boolean }[] = [];
    const notYet = (bytes: Uint8Array, whole: boolean) => {
      heard.push({ length: bytes.byteLength, whole });
      return false;
    };
    await client().shipmentSearch({ size: 1500 }, { onStart: notYet });
    await client().shipmentSearch({ size: 10 }, { onStart: notYet });
    expect(heard.map((h) => h.whole)).toEqual([false, true, true]);
    expect(heard[1]!.length).toBe(long.length);
    expect(heard[2]!.length).toBe(short.length);
  });

  it('a listener that throws changes nothing, and an answer refused is never heard', async () => {
    server.script({ raw: answerOf(2) }, { status: 422, json: { error: 'bad filter' } });
    const res = await client().shipmentSearch(
      { size: 10 },
      {
        onStart: () => {
          throw new Error('listener broke');
        },
      },
    );
    expect(res.total).toBe(2);
    const heard: Uint8Array[] = [];
    const e = await failure(client().shipmentSearch({ size: 10 }, { onStart: (b) => (heard.push(b), true) }));
    expect(e.status).toBe(422);
    expect(heard).toHaveLength(0);
  });
});

describe('retries', () => {
  it.each([502, 503, 504])('%i is retried up to maxAttempts, then a ServiceError', async (status) => {
    server.script(...Array.from({ length: 4 }, () => ({ status, json: { error: 'upstream' } })));
    const retries: RetryInfo[] = [];
    const e = await failure(client().shipmentCount({ firm: 'acme' }, { onRetry: (i) => retries.push(i) }));
    expect(e.kind).toBe('ServiceError');
    expect(e.status).toBe(status);
    expect(e.attempts).toBe(4);
    expect(e.message).toContain(`status ${status}`);
    expect(e.message).toContain('after 4 attempts');
    expect(server.requests).toHaveLength(4);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3]);
    // Full jitter stays within min(maxDelay, base·2^(n-1)).
    retries.forEach((r, i) => {
      expect(r.delayMs).toBeGreaterThanOrEqual(0);
      expect(r.delayMs).toBeLessThanOrEqual(Math.min(40, 2 ** i));
    });
  });

  it('a retried status that then succeeds returns the result', async () => {
    server.script({ status: 503, json: {} }, { status: 504, raw: '' });
    const retries: number[] = [];
    const res = await client().firmCount({}, { onRetry: (i) => retries.push(i.attempt) });
    expect(res.firm_count).toBe(5);
    expect(server.requests).toHaveLength(3);
    expect(retries).toEqual([1, 2]);
  });

  it.each([400, 403, 404, 409, 422, 500])('%i is not retried', async (status) => {
    server.script({ status, json: { error: 'nope' } }, { canned: true });
    const e = await failure(client().firmCount({}));
    expect(e.kind).toBe('ServiceError');
    expect(e.status).toBe(status);
    expect(e.attempts).toBe(1);
    expect(e.message).toContain('nope');
    expect(server.requests).toHaveLength(1);
  });

  it('maxAttempts 1 means no retry', async () => {
    server.script({ status: 503, json: {} });
    const e = await failure(client({ retry: { maxAttempts: 1 } }).firmCount({}));
    expect(e.status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it('a dropped connection (no response) is retried, then succeeds', async () => {
    server.script({ drop: true }, { drop: true });
    const res = await client().shipmentCount({ firm: 'acme' });
    expect(res.shipment_count).toBe(17);
    expect(server.requests).toHaveLength(3);
  });

  it('a connection that always drops ends as a NetworkError after maxAttempts', async () => {
    server.script(...Array.from({ length: 4 }, () => ({ drop: true as const })));
    const e = await failure(client().shipmentCount({ firm: 'acme' }));
    expect(e.kind).toBe('NetworkError');
    expect(e.reason).toBe('reset');
    expect(e.attempts).toBe(4);
    expect(server.requests).toHaveLength(4);
  });

  it('a refused connection is a NetworkError (refused), retried', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const retries: number[] = [];
    const e = await failure(
      client({ baseUrl: `http://127.0.0.1:${port}` }).usage({ onRetry: (i) => retries.push(i.attempt) }),
    );
    expect(e.kind).toBe('NetworkError');
    expect(e.reason).toBe('refused');
    expect(e.message).toContain('connection refused');
    expect(e.message).toContain('Check the service address in Settings');
    expect(retries).toEqual([1, 2, 3]);
    // The same refusal from a service that answered before: it went down, its address is right.
    const down = await failure(
      client({ baseUrl: `http://127.0.0.1:${port}`, answeredBefore: () => true }).usage(),
    );
    expect(down.reason).toBe('refused');
    expect(down.message).toMatch(/stopped answering \(connection refused\)\. It answered earlier/);
    expect(down.message).not.toContain('Settings');
  });
});

describe('LimitExceeded (429)', () => {
  it('honours a Retry-After in seconds: waits at least that long, then retries', async () => {
    server.script({ status: 429, json: {}, headers: { 'Retry-After': '1' } });
    const retries: RetryInfo[] = [];
    const res = await client({ retry: { baseDelayMs: 1, maxDelayMs: 5_000 } }).firmCount(
      {},
      { onRetry: (i) => retries.push(i) },
    );
    expect(res.firm_count).toBe(5);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(1_000);
    expect(retries[0]!.error.kind).toBe('LimitExceeded');
    expect(retries[0]!.error.retryAfterSeconds).toBe(1);
    const gap = server.requests[1]!.receivedAt - server.requests[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(990);
  });

  it('a Retry-After longer than the backoff cap is reported at once, with the wait in the message', async () => {
    server.script({ status: 429, json: {}, headers: { 'Retry-After': '42' } });
    const e = await failure(client().shipmentSearch({ size: 10 }));
    expect(e.kind).toBe('LimitExceeded');
    expect(e.status).toBe(429);
    expect(e.retryAfterSeconds).toBe(42);
    expect(e.message).toBe('Request limit reached (429). Try again in 42 s.');
    expect(server.requests).toHaveLength(1);
  });

  it('reads Retry-After as an HTTP-date', async () => {
    const at = new Date(Date.now() + 300_000).toUTCString();
    server.script({ status: 429, json: {}, headers: { 'Retry-After': at } });
    const e = await failure(client().shipmentSearch({ size: 10 }));
    expect(e.kind).toBe('LimitExceeded');
    expect(e.retryAfterSeconds).toBeGreaterThanOrEqual(298);
    expect(e.retryAfterSeconds).toBeLessThanOrEqual(300);
    expect(e.message).toContain('Try again in 5 min.');
  });

  it('without Retry-After it is retried with backoff and reported after maxAttempts', async () => {
    server.script(...Array.from({ length: 4 }, () => ({ status: 429, json: {} })));
    const e = await failure(client().shipmentSearch({ size: 10 }));
    expect(e.kind).toBe('LimitExceeded');
    expect(e.retryAfterSeconds).toBeUndefined();
    expect(server.requests).toHaveLength(4);
  });
});

describe('BadResponse', () => {
  it('non-JSON', async () => {
    server.script({ raw: '<html>gateway page</html>' });
    const e = await failure(client().firmCount({}));
    expect(e.kind).toBe('BadResponse');
    expect(e.message).toContain('not JSON');
    expect(server.requests).toHaveLength(1);
  });

  it('an empty body', async () => {
    server.script({ raw: '' });
    const e = await failure(client().firmCount({}));
    expect(e.kind).toBe('BadResponse');
    expect(e.message).toContain('empty');
  });

  it('JSON that ends early', async () => {
    server.script({ raw: '{"total": 3, "shipments": [{"hsCode": "73' });
    const e = await failure(client().shipmentSearch({ size: 10 }));
    expect(e.kind).toBe('BadResponse');
    expect(e.message).toContain('truncated');
  });

  it('a search answer served but unreadable says its downloads were counted and a new search counts them again', async () => {
    server.script({ raw: '{"total": 3, "shipments": [{"hsCode": "73' });
    const shipments = await failure(client().shipmentSearch({ size: 10 }));
    expect(shipments.message).toMatch(
      /^The service answered, but its answer could not be read \(the JSON ends early \(truncated\)\), so nothing was shown or saved\./,
    );
    expect(shipments.message).toContain("counted against the account's shipment downloads");
    expect(shipments.message).toContain('searching again downloads and counts them again');
    expect(shipments.message).not.toContain('Try again');
    server.script({ raw: '<html>gateway page</html>' });
    const firms = await failure(client().firmSearch({ page: 1, importer_countries: ['TR'] }));
    expect(firms.message).toContain("counted against the account's firm downloads");
    // Once, not retried: every retry would be counted again.
    expect(server.requests).toHaveLength(2);
    // A count costs no downloads: trying again is the advice there, and "response" is not named.
    server.script({ raw: '<html>gateway page</html>' });
    const count = await failure(client().firmCount({}));
    expect(count.message).toBe(
      'The service sent an answer Portolan cannot read (the body is not JSON). Try again; if it keeps happening, the service may have changed.',
    );
  });

  it('a connection closed mid-body (fewer bytes than Content-Length), not retried', async () => {
    server.script({ truncate: '{"total": 3, "shipments": [' }, { canned: true });
    const e = await failure(client().shipmentSearch({ size: 10 }));
    expect(e.kind).toBe('BadResponse');
    expect(e.message).toContain('closed before the whole body');
    expect(server.requests).toHaveLength(1);
  });

  it('a wrong type names the path of the problem', async () => {
    server.script({
      json: { total: 2, shipments: [{ hsCode: '7306' }, { hsCode: 730640 }] },
    });
    const e = await failure(client().shipmentSearch({ size: 10 }));
    expect(e.kind).toBe('BadResponse');
    expect(e.path).toBe('response.shipments[1].hsCode');
    expect(e.message).toContain('response.shipments[1].hsCode');
  });

  it('a missing required number', async () => {
    server.script({ json: { shipments: [] } });
    const e = await failure(client().shipmentSearch({ size: 10 }));
    expect(e.kind).toBe('BadResponse');
    expect(e.path).toBe('response.total');
  });

  it('a usage body of the wrong shape', async () => {
    server.script({ json: ['not', 'an', 'object'] });
    const e = await failure(client().usage());
    expect(e.kind).toBe('BadResponse');
    expect(e.path).toBe('response');
  });
});

describe('timeouts and cancellation', () => {
  it('a slow answer past timeoutMs is a NetworkError (timeout), not retried', async () => {
    server.script({ delayMs: 3_000 });
    const t0 = Date.now();
    const e = await failure(client({ timeoutMs: 150 }).firmCount({}));
    expect(Date.now() - t0).toBeLessThan(1_500);
    expect(e.kind).toBe('NetworkError');
    expect(e.reason).toBe('timeout');
    expect(e.message).toContain('timed out');
    expect(server.requests).toHaveLength(1);
  });

  it('a slow answer within timeoutMs succeeds', async () => {
    server.script({ delayMs: 100 });
    const res = await client({ timeoutMs: 2_000 }).firmCount({});
    expect(res.firm_count).toBe(5);
  });

  it('cancelling mid-request rejects promptly with Cancelled and closes the connection', async () => {
    server.script({ delayMs: 5_000 });
    const ctrl = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ctrl.abort(), 100);
    const e = await failure(client().shipmentSearch({ size: 10 }, { signal: ctrl.signal }));
    expect(e.kind).toBe('Cancelled');
    expect(Date.now() - t0).toBeLessThan(1_000);
    await expect.poll(() => server.abandoned, { timeout: 2_000 }).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('cancelling during a backoff wait rejects promptly, with no further attempt', async () => {
    server.script({ status: 429, json: {}, headers: { 'Retry-After': '10' } }, { canned: true });
    const ctrl = new AbortController();
    const t0 = Date.now();
    const e = await failure(
      client({ retry: { maxDelayMs: 30_000 } }).firmCount(
        {},
        {
          signal: ctrl.signal,
          onRetry: (i) => {
            expect(i.delayMs).toBeGreaterThanOrEqual(10_000);
            setTimeout(() => ctrl.abort(), 50);
          },
        },
      ),
    );
    expect(e.kind).toBe('Cancelled');
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it('an already-aborted signal sends nothing', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    const e = await failure(client().usage({ signal: ctrl.signal }));
    expect(e.kind).toBe('Cancelled');
    expect(server.requests).toHaveLength(0);
  });
});

describe('other behaviour', () => {
  it('does not follow a redirect (it would hand the key and signature elsewhere)', async () => {
    server.script({ status: 302, raw: '', headers: { Location: 'http://127.0.0.1:1/elsewhere' } });
    const e = await failure(client().firmCount({}));
    expect(e.kind).toBe('ServiceError');
    expect(e.status).toBe(302);
    expect(server.requests).toHaveLength(1);
  });

  it('a response body echoing the secret is redacted from the error message', async () => {
    server.script({ status: 500, json: { error: `bad secret ${SECRET}`, sig: 'X-SIGNATURE: abc' } });
    const e = await failure(client().firmCount({}));
    expect(e.kind).toBe('ServiceError');
    expect(e.message).toContain('bad secret');
    expect(e.message).not.toContain(SECRET);
  });

  it('the secret is not reachable by inspecting the client or its errors', async () => {
    const c = client();
    expect(inspect(c, { depth: 10, showHidden: true })).not.toContain(SECRET);
    server.script({ status: 503, json: {} }, { status: 400, json: {} });
    const e = await failure(c.firmCount({}));
    expect(inspect(e, { depth: 10, showHidden: true })).not.toContain(SECRET);
    expect(inspect(e, { depth: 10, showHidden: true })).not.toContain(
      server.requests[0]!.headers['x-signature'],
    );
  });

  it('reads an answer in any script, after a byte-order mark, as its text says', async () => {
    const shipments = [
      { importerName: 'Acme Boru Sanayi A.Ş.', productDetail: 'Çelik boru, İzmir' },
      { importerName: '上海不锈钢管有限公司', productDetail: 'pipes 🚢 by sea' },
    ];
    const body = Buffer.from(JSON.stringify({ total: 2, shipments }), 'utf8');
    server.script({ raw: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) });
    const res = await client().shipmentSearch({ size: 10 });
    expect(res.shipments.map((r) => [r.importerName, r.productDetail])).toEqual(
      shipments.map((r) => [r.importerName, r.productDetail]),
    );
  });

  it('refuses as not JSON a backslash escaping a character beyond ASCII', async () => {
    // An escaped backslash, then é: JSON.
    server.script({
      raw: Buffer.from(String.raw`{"total": 1, "shipments": [{"importerName": "A\\é"}]}`, 'utf8'),
    });
    expect((await client().shipmentSearch({ size: 10 })).shipments[0]!.importerName).toBe(String.raw`A\é`);
    // A backslash escaping é: not JSON.
    server.script({
      raw: Buffer.from(String.raw`{"total": 1, "shipments": [{"importerName": "A\é"}]}`, 'utf8'),
    });
    const e = await failure(client().shipmentSearch({ size: 10 }));
    expect(e.kind).toBe('BadResponse');
    expect(e.message).toContain('not JSON');
  });

  it('sends the User-Agent it is given', async () => {
    await client({ userAgent: 'Portolan-test/9' }).usage();
    expect(server.requests[0]!.headers['user-agent']).toBe('Portolan-test/9');
  });
});

describe('LimitExceeded (429) from the service simulator', () => {
  const sims: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
  });

  async function simClient(limits: Record<string, number>, now?: () => number) {
    const { generateAccount, startSimulator } = await import('../../src/main/sim');
    const account = { ...generateAccount('acme'), limits };
    const sim = await startSimulator({
      port: 0,
      records: 2_000,
      seed: 3,
      accounts: [account],
      ...(now ? { now } : {}),
    });
    sims.push(sim);
    const c = createServiceClient({
      baseUrl: sim.url,
      credentials: { apiKey: account.apiKey, apiSecret: account.apiSecret },
      retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5_000 },
    });
    return { c, account };
  }

  it('a used-up download quota (no Retry-After) is not retried, and the message names the metric and account', async () => {
    const { c } = await simClient({ 'shipments/search': 50 });
    await c.shipmentSearch({ size: 40, account_name: 'acme' });
    const retries: RetryInfo[] = [];
    const e = await failure(
      c.shipmentSearch({ size: 20, account_name: 'acme' }, { onRetry: (i) => retries.push(i) }),
    );
    expect(e.kind).toBe('LimitExceeded');
    expect(e.attempts).toBe(1);
    expect(retries).toEqual([]);
    expect(e.message).toMatch(
      /^Shipment search \(downloads\) limit reached for account acme \(429\)\. Too few shipment downloads are left for this request: ask for fewer records/,
    );
    expect(e.message).toContain('Waiting will not help');
    // In the analyst's words: not the service's names of metrics.
    expect(e.message).not.toContain('shipments/search');
  });

  it('a firm search whose page costs more than the limit is not retried', async () => {
    const { c } = await simClient({ 'firms/search': 5 });
    const retries: RetryInfo[] = [];
    const e = await failure(
      c.firmSearch({ importer_countries: ['TR', 'DE', 'CN'], page: 1 }, { onRetry: (i) => retries.push(i) }),
    );
    expect(e.kind).toBe('LimitExceeded');
    expect(e.attempts).toBe(1);
    expect(retries).toEqual([]);
    expect(e.message).toMatch(/^Firm search \(downloads\) limit reached \(429\)\. Too few firm downloads/);
  });

  it('a search naming more new HS codes than the allowance says so, and how to get past it', async () => {
    const { c } = await simClient({ searchedHsCodes: 1 });
    const e = await failure(c.shipmentSearch({ size: 10, hs_codes: ['8471', '8517'] }));
    expect(e.kind).toBe('LimitExceeded');
    expect(e.message).toMatch(/^Distinct HS codes searched limit reached \(429\)\./);
    expect(e.message).toContain('names HS codes the account has not searched before');
    expect(e.message).toContain('Waiting will not help');
    expect(e.message).not.toContain('fewer records');
  });

  it('a per-minute 429 with Retry-After is still waited out and retried', async () => {
    let t = Date.UTC(2026, 0, 5, 12);
    const { c } = await simClient({ minutelyRequest: 2 }, () => t);
    await c.firmCount({});
    await c.firmCount({});
    t += 59_000; // The oldest request leaves the window 1 s from now.
    const retries: RetryInfo[] = [];
    const res = await c.firmCount(
      {},
      {
        onRetry: (i) => {
          retries.push(i);
          t += 2_000;
        },
      },
    );
    expect(res.firm_count).toBeGreaterThan(0);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error.message).toMatch(
      /^Requests this minute limit reached \(429\)\. The account has made all the requests it may make in one minute\. Try again in \d+ s\./,
    );
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(1_000);
  });
});
