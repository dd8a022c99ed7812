import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { contentSecurityPolicy } from '@shared/csp';
import type { AddressInfo } from 'node:net';
import { CALL_CHANNELS, type CallChannel } from '@shared/ipc/channels';
import { AppError, type BridgeResult } from '@shared/ipc/errors';
import { nullLogger, type Logger } from '../log';
import { toBridgeResultError, type HostFiles } from '../handlers';
import type { EventHub } from './event-hub';
import { readStaticFile } from './static-files';
import { generateToken, tokensEqual } from './token';

/** Header the page sends the launch token in, once, to `POST /session` (never a query string). */
export const TOKEN_HEADER = 'x-portolan-token';
/**
 * The session cookie's name. Browsers share cookies across the ports of one host, so the name carries
 * the port: two hosts on 127.0.0.1 never overwrite each other's session.
 */
export const sessionCookieName = (port: number): string => `portolan_session_${port}`;
/** Header an upload names its file in (URI-encoded: a header cannot hold every character of a name). */
export const FILE_NAME_HEADER = 'x-portolan-file-name';

/** The caller of one rpc: already past the session, Host and Origin checks when the dispatcher sees it. */
export interface WebSender {
  readonly kind: 'web';
  readonly origin: string;
  /** Aborted when the HTTP client goes away before the answer. */
  readonly signal: AbortSignal;
}

export type WebDispatch = (
  channel: CallChannel,
  input: unknown,
  sender: WebSender,
) => Promise<BridgeResult<unknown>>;

export interface WebServerOptions {
  rendererDir: string;
  dispatch: WebDispatch;
  hub: EventHub;
  /** 0 or absent: any free port. */
  port?: number;
  logger?: Logger;
  /** For tests only; a fresh random token otherwise. */
  token?: string;
  /** Seconds between SSE keep-alive comments. */
  heartbeatSeconds?: number;
  /** Uploads for import (`POST /files/import`); absent: refused. */
  files?: HostFiles;
}

export interface WebServer {
  /**
   * `http://127.0.0.1:<port>/#token=…` — the fragment never reaches a server log or a Referer. The token
   * is good for one exchange: the page trades it for an HttpOnly session cookie and drops it from the
   * address, so the copy a browser keeps in its history opens nothing.
   */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** Sent as a header too so the policy holds even if index.html is changed. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

const MAX_BODY_BYTES = 1024 * 1024;
/** Calls that carry a file's content get room for the largest file their schema accepts. */
const LARGE_BODY_CHANNELS: ReadonlySet<string> = new Set(['presets.import']);
/** presets.import takes up to 10 million characters: up to 3 bytes each in UTF-8, plus the JSON around them. */
const MAX_LARGE_BODY_BYTES = 32 * 1024 * 1024;
const CHANNELS: ReadonlySet<string> = new Set(CALL_CHANNELS);

const DOWNLOAD_TYPES: Record<string, string> = {
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv; charset=utf-8',
  '.parquet': 'application/vnd.apache.parquet',
};

const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
} as const;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(message);
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the cap the rest is read and dropped (the caller already passed the session check), so the
  // client receives a clean 413 instead of a connection reset mid-upload.
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size <= maxBytes) chunks.push(buf);
  }
  if (size > maxBytes) throw new HttpError(413, 'request body too large');
  return Buffer.concat(chunks).toString('utf8');
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The loopback transport for the browser host: `POST /rpc/<channel>` answers the BridgeResult,
 * `GET /events` streams `{event, payload}` as server-sent events, everything else is the built
 * renderer. Binds 127.0.0.1 only.
 */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const log = opts.logger ?? nullLogger;
  const token = opts.token ?? generateToken();
  // Often enough that the window notices a dead or frozen host within 5 s (web-transport's watchdog).
  const heartbeatMs = (opts.heartbeatSeconds ?? 2) * 1000;
  const streams = new Set<ServerResponse>();
  let port = 0;
  let allowedHosts: ReadonlySet<string> = new Set();
  let allowedOrigins: ReadonlySet<string> = new Set();

  // DNS rebinding and cross-site requests both show up here: a page on another origin can reach
  // 127.0.0.1 but cannot make its Host or Origin look like ours.
  function checkCaller(req: IncomingMessage): void {
    const host = header(req, 'host');
    if (!host || !allowedHosts.has(host.toLowerCase())) throw new HttpError(403, 'foreign host');
    const origin = header(req, 'origin');
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase()))
      throw new HttpError(403, 'foreign origin');
    const site = header(req, 'sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      throw new HttpError(403, 'cross-site request');
  }

  let tokenSpent = false;
  const sessions = new Set<string>();
  const cookieName = () => sessionCookieName(port);

  function sessionOf(req: IncomingMessage): string | undefined {
    const raw = header(req, 'cookie') ?? '';
    for (const part of raw.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === cookieName()) return part.slice(eq + 1).trim();
    }
    return undefined;
  }

  function hasSession(req: IncomingMessage): boolean {
    const presented = sessionOf(req);
    if (presented === undefined) return false;
    let found = false;
    // Every session is compared, in constant time each, so the answer's timing says nothing.
    for (const sid of sessions) if (tokensEqual(sid, presented)) found = true;
    return found;
  }

  function checkSession(req: IncomingMessage): void {
    if (!hasSession(req)) throw new HttpError(401, 'no session: open the address the host printed');
  }

  /**
   * `POST /session` with the launch token in a header: once, the token becomes a session cookie
   * (HttpOnly, so no script reads it; SameSite=Strict, so no other site's page sends it). After that
   * the token is spent; a page that already holds the session is simply told so.
   */
  function handleSession(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') throw new HttpError(405, 'use POST');
    const presented = header(req, TOKEN_HEADER);
    if (!tokenSpent && tokensEqual(token, presented)) {
      tokenSpent = true;
      const sid = generateToken();
      sessions.add(sid);
      res.writeHead(204, {
        ...BASE_HEADERS,
        'Set-Cookie': `${cookieName()}=${sid}; HttpOnly; SameSite=Strict; Path=/`,
      });
      res.end();
      return;
    }
    if (hasSession(req)) {
      res.writeHead(204, BASE_HEADERS);
      res.end();
      return;
    }
    throw new HttpError(401, tokenSpent ? 'this launch address was already used' : 'missing or wrong token');
  }

  async function handleRpc(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') throw new HttpError(405, 'use POST');
    checkSession(req);
    if (!CHANNELS.has(channel)) throw new HttpError(404, 'unknown channel');
    const type = header(req, 'content-type') ?? '';
    const text = await readBody(
      req,
      LARGE_BODY_CHANNELS.has(channel) ? MAX_LARGE_BODY_BYTES : MAX_BODY_BYTES,
    );
    let input: unknown = undefined;
    if (text.trim() !== '') {
      // A JSON content type forces a CORS preflight for any cross-origin page, a second line of defence.
      if (!/^application\/json\b/i.test(type)) throw new HttpError(415, 'send application/json');
      try {
        input = JSON.parse(text);
      } catch {
        throw new HttpError(400, 'body is not JSON');
      }
    }
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const sender: WebSender = { kind: 'web', origin: `http://127.0.0.1:${port}`, signal: abort.signal };
    let result: BridgeResult<unknown>;
    try {
      result = await opts.dispatch(channel as CallChannel, input, sender);
    } catch (e) {
      // The dispatcher wraps service errors itself; reaching here is a bug, and its text stays in the log.
      log.error('web host dispatch threw', { channel, error: e });
      result = {
        ok: false,
        error: { kind: 'Internal', message: 'Something went wrong in the app. See the log.' },
      };
    }
    if (!res.destroyed) sendJson(res, 200, result);
  }

  /** `POST /files/import`: the file's bytes as the body, its name in a header; answers a BridgeResult. */
  async function handleUpload(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') throw new HttpError(405, 'use POST');
    checkSession(req);
    if (!opts.files) throw new HttpError(404, 'uploads are not accepted here');
    if (!/^application\/octet-stream\b/i.test(header(req, 'content-type') ?? ''))
      throw new HttpError(415, 'send application/octet-stream');
    let name: string;
    try {
      name = decodeURIComponent(header(req, FILE_NAME_HEADER) ?? '');
    } catch {
      throw new HttpError(400, 'bad file name');
    }
    if (name.trim() === '') throw new HttpError(400, 'name the file');
    let result: BridgeResult<unknown>;
    try {
      result = { ok: true, value: await opts.files.receiveImport(name, req) };
    } catch (e) {
      if (!(e instanceof AppError)) log.error('upload failed', { error: e });
      // The rest of a refused body is read and dropped so the client gets the answer, not a reset.
      req.resume();
      // The import folder refusing the copy (a full disk, a folder made read-only) is said in words,
      // as the same trouble is for any call; anything else points at the log.
      const said = e instanceof AppError ? null : toBridgeResultError(e);
      result = {
        ok: false,
        error:
          e instanceof AppError
            ? { kind: e.kind, message: e.message }
            : said && said.kind !== 'Internal'
              ? said
              : { kind: 'Internal', message: 'The file could not be received. See the log.' },
      };
    }
    if (!res.destroyed) sendJson(res, 200, result);
  }

  /** `GET /files/export/<handle>`: a finished export of the host's exports folder, as a download. */
  async function handleDownload(req: IncomingMessage, res: ServerResponse, handle: string): Promise<void> {
    if (req.method !== 'GET') throw new HttpError(405, 'use GET');
    checkSession(req);
    const file = opts.files ? await opts.files.exportForDownload(handle) : null;
    if (!file) throw new HttpError(404, 'no such export');
    const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': DOWNLOAD_TYPES[extname(file.name).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': String(file.size),
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    });
    await pipeline(createReadStream(file.path), res);
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') throw new HttpError(405, 'use GET');
    checkSession(req);
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n: connected\n\n');
    streams.add(res);
    const stop = opts.hub.listen((event, payload) => {
      res.write(`data: ${JSON.stringify({ event, payload })}\n\n`);
      // Out now: Node's response corks its socket until the next tick, and main may stay busy long
      // after emitting (a search's first rows go out before the whole answer's parse of ~200 ms).
      res.socket?.uncork();
    });
    const beat = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
    const done = (): void => {
      clearInterval(beat);
      stop();
      streams.delete(res);
    };
    req.on('close', done);
    res.on('close', done);
  }

  async function handleStatic(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'method not allowed');
    const file = await readStaticFile(opts.rendererDir, url.pathname);
    if (!file) throw new HttpError(404, 'not found');
    const headers: Record<string, string> = { ...BASE_HEADERS, 'Content-Type': file.contentType };
    if (file.contentType.startsWith('text/html'))
      headers['Content-Security-Policy'] = CONTENT_SECURITY_POLICY;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const server = createServer((req, res) => {
    void (async () => {
      try {
        checkCaller(req);
        const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
        if (url.pathname.startsWith('/rpc/')) await handleRpc(req, res, url.pathname.slice('/rpc/'.length));
        else if (url.pathname === '/files/import') await handleUpload(req, res);
        else if (url.pathname === '/session') handleSession(req, res);
        else if (url.pathname === '/events') handleEvents(req, res);
        else if (url.pathname.startsWith('/files/export/'))
          await handleDownload(req, res, url.pathname.slice('/files/export/'.length));
        else await handleStatic(req, res, url);
      } catch (e) {
        const status = e instanceof HttpError ? e.status : 500;
        if (status >= 500) log.error('web host request failed', { path: req.url?.split('?')[0], error: e });
        else if (status === 401 || status === 403)
          log.warn('web host refused a request', { status, reason: (e as Error).message });
        if (!res.headersSent) sendText(res, status, e instanceof HttpError ? e.message : 'internal error');
        else res.end();
      }
    })();
  });

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/#token=${token}`,
    origin,
    port,
    token,
    async close() {
      for (const s of streams) s.end();
      streams.clear();
      await new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      });
    },
  };
}
