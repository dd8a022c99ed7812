import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { webcrypto } from 'node:crypto';

/**
 * A small, strict stand-in for the service on 127.0.0.1. It checks what the spec makes checkable —
 * the API key, and the HMAC over the raw bytes it received (verified with WebCrypto, not with the
 * client's own signing code) — records every request, and answers from a per-test script.
 */

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw bytes of the body, exactly as received. */
  body: Buffer;
  signatureValid: boolean;
  apiKeyValid: boolean;
  receivedAt: number;
}

export type Reply =
  /** Answer with JSON (the value is serialised) or, with `raw`, exactly these bytes. */
  | { status?: number; json?: unknown; raw?: string | Buffer; headers?: Record<string, string> }
  /** Close the socket without any response. */
  | { drop: true }
  /** Send headers announcing the whole body, then only part of it, then close. */
  | { truncate: string; status?: number }
  /** Wait, then reply (the wait ends early if the client goes away). */
  | { delayMs: number; then?: Reply }
  /** The canned valid answer for the path. */
  | { canned: true };

export interface StrictServer {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** Replies for the next requests, in order, after the auth checks pass; then canned answers. */
  script(...replies: Reply[]): void;
  /** Requests whose socket closed before a reply was written (aborted by the client). */
  readonly abandoned: number;
  close(): Promise<void>;
}

export const ROUTES: Record<string, 'GET' | 'POST'> = {
  '/api/v1/shipment/search': 'POST',
  '/api/v1/shipment/count': 'POST',
  '/api/v1/firms/search': 'POST',
  '/api/v1/firms/count': 'POST',
  '/api/v1/statistics/usage': 'GET',
};

export function cannedShipment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    importerName: 'Acme Boru Sanayi A.Ş.',
    exporterName: '上海不锈钢管有限公司',
    importerUrlCode: 'acme-boru',
    exporterUrlCode: 'sh-steel',
    hsCode: '730640',
    productDetails: 'Çelik boru ürünleri, İstanbul',
    arrivalDate: '2024-03-01',
    usdFob: '12345.67',
    ...overrides,
  };
}

export function cannedFirm(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    country: 'Türkiye',
    country_code: 'TR',
    name: 'Acme Boru Sanayi A.Ş.',
    address: 'Organize Sanayi Bölgesi',
    city_state: 'İstanbul',
    tel: '+90 212 000 00 00',
    e_mail: 'info@example.com',
    web: 'example.com',
    firm_type: 1,
    shipment_count: 42,
    ...overrides,
  };
}

function cannedAnswer(path: string, body: Record<string, unknown>): unknown {
  switch (path) {
    case '/api/v1/shipment/search':
      return { total: 2, shipments: [cannedShipment(), cannedShipment({ hsCode: '730641', usdFob: '1.5' })] };
    case '/api/v1/shipment/count':
      return { shipment_count: 17 };
    case '/api/v1/firms/search':
      return { total_shipment: 42, total_pages: 3, page: body.page, firms_count: 1, firms: [cannedFirm()] };
    case '/api/v1/firms/count':
      return { firm_count: 5 };
    default:
      return {
        'acme-account': {
          'shipments/search': { current: 120, limit: 1000 },
          'firms/search': { current: 3, limit: -1, notes: 'unlimited' },
          searchedHsCodes: { current: 2, limit: 50, notes: '730640, 730641' },
        },
      };
  }
}

async function hmacValid(secret: string, body: Buffer, signature: string): Promise<boolean> {
  const sig = Buffer.from(signature, 'base64');
  // Buffer.from(…, 'base64') ignores junk; insist that the header is the canonical encoding.
  if (sig.length !== 32 || sig.toString('base64') !== signature) return false;
  const key = await webcrypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  return webcrypto.subtle.verify('HMAC', key, sig, body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8');
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': bytes.length, ...headers });
  res.end(bytes);
}

export interface StrictServerOptions {
  apiKey: string;
  apiSecret: string;
  /** A path the service lives under, e.g. `/gateway/v2` (routes are then `/gateway/v2/api/v1/…`). */
  basePath?: string;
}

export async function startStrictServer(opts: StrictServerOptions): Promise<StrictServer> {
  const basePath = (opts.basePath ?? '').replace(/\/+$/, '');
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  const sockets = new Set<Socket>();
  let abandoned = 0;

  const play = (
    reply: Reply,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    body: unknown,
  ): void => {
    if ('drop' in reply) {
      req.socket.destroy();
      return;
    }
    if ('truncate' in reply) {
      const full = Buffer.from(reply.truncate, 'utf8');
      res.writeHead(reply.status ?? 200, {
        'Content-Type': 'application/json',
        'Content-Length': full.length * 2,
      });
      res.write(full, () => req.socket.destroy());
      return;
    }
    if ('delayMs' in reply) {
      const timer = setTimeout(
        () => play(reply.then ?? { canned: true }, req, res, path, body),
        reply.delayMs,
      );
      res.on('close', () => {
        clearTimeout(timer);
        if (!res.writableEnded) abandoned += 1;
      });
      return;
    }
    if ('canned' in reply) {
      sendJson(res, 200, cannedAnswer(path, body as Record<string, unknown>));
      return;
    }
    const status = reply.status ?? 200;
    if (reply.raw !== undefined) {
      const bytes = Buffer.isBuffer(reply.raw) ? reply.raw : Buffer.from(reply.raw, 'utf8');
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Content-Length': bytes.length,
        ...reply.headers,
      });
      res.end(bytes);
      return;
    }
    sendJson(res, status, reply.json ?? {}, reply.headers);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const apiKey = header(req, 'x-api-key');
      const signature = header(req, 'x-signature');
      const apiKeyValid = apiKey === opts.apiKey;
      const signatureValid = signature !== undefined && (await hmacValid(opts.apiSecret, raw, signature));
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: { ...req.headers },
        body: raw,
        signatureValid,
        apiKeyValid,
        receivedAt: Date.now(),
      });

      const route = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : '';
      const expected = ROUTES[route];
      if (!expected) return sendJson(res, 404, { error: 'not found' });
      if (req.method !== expected) return sendJson(res, 405, { error: 'method not allowed' });
      if (!apiKeyValid || !signatureValid)
        return sendJson(res, 401, { error: 'invalid api key or signature' });

      let body: unknown = undefined;
      if (expected === 'POST') {
        if (!/^application\/json\b/.test(header(req, 'content-type') ?? '')) {
          return sendJson(res, 415, { error: 'content type must be application/json' });
        }
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          return sendJson(res, 400, { error: 'body is not JSON' });
        }
      } else if (raw.length > 0) {
        return sendJson(res, 400, { error: 'GET takes no body' });
      }
      play(queue.shift() ?? { canned: true }, req, res, route, body);
    })().catch((e: unknown) => {
      res.destroy(e instanceof Error ? e : new Error(String(e)));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get abandoned() {
      return abandoned;
    },
    script: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
