import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHIPMENT_FIELDS } from '@shared/spec';
import { createFileSink, createLogger, type FileSink, type Logger } from '../../src/main/log';
import { createKeytarSecretStore, type SecretStore } from '../../src/main/secrets';
import {
  createDispatcher,
  createHandlers,
  type HandlersHandle,
  type SimulatorAccount,
  type StartSimulator,
} from '../../src/main/handlers';
import type { RetryOptions } from '../../src/main/api';
import type { EventSink } from '../../src/main/handlers/types';
import type { JobFinished } from '@shared/jobs/jobs-contract';
import type { ProfileView } from '@shared/profiles/profiles-contract';

/**
 * A small stand-in for the service that really checks the per-request HMAC signature, used until
 * (and besides) the full simulator: enough to prove the app signs, and to produce 401s.
 */
export async function startSignedServer(accounts: SimulatorAccount[]) {
  const requests: { path: string; body: string; apiKey: string | undefined }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const apiKey = req.headers['x-api-key'] as string | undefined;
      const signature = String(req.headers['x-signature'] ?? '');
      requests.push({ path: req.url ?? '', body, apiKey });
      const account = accounts.find((a) => a.apiKey === apiKey);
      const expected = account
        ? createHmac('sha256', account.apiSecret).update(body, 'utf8').digest('base64')
        : '';
      const good =
        account &&
        expected.length === signature.length &&
        timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (!good) return send(401, { error: 'unauthorized' });
      const path = (req.url ?? '').replace(/^.*\/api\/v1\//, '');
      if (path === 'statistics/usage') {
        const m = { current: requests.length, limit: -1, notes: 'unlimited' };
        return send(200, { [account.name]: { dailyRequest: m, minutelyRequest: m, 'shipments/search': m } });
      }
      if (path === 'shipment/search') {
        const size = (JSON.parse(body) as { size: number }).size;
        const record = Object.fromEntries(SHIPMENT_FIELDS.map((f) => [f, '']));
        return send(200, {
          total: 1234,
          shipments: Array.from({ length: Math.min(size, 3) }, (_, i) => ({ ...record, hashId: `h${i}` })),
        });
      }
      if (path === 'shipment/count') return send(200, { shipment_count: 7 });
      if (path === 'firms/search')
        return send(200, { total_shipment: 0, total_pages: 0, page: 1, firms_count: 0, firms: [] });
      if (path === 'firms/count') return send(200, { firm_count: 3 });
      return send(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A startSimulator for the demo that starts the signed stand-in instead of 50,000 generated records. */
export const startSignedSimulator: StartSimulator = async ({ accounts }) => startSignedServer(accounts);

export interface Harness {
  dataDir: string;
  logPath: string;
  secrets: SecretStore;
  handlers: HandlersHandle;
  logger: Logger;
  sink: FileSink;
  events: { event: string; payload: unknown }[];
  /** The app's own window calling. */
  call(channel: string, input?: unknown): Promise<unknown>;
  /** The app's own window calling, expecting success: the value, or a throw naming the error's kind. */
  ok<T>(channel: string, input?: unknown): Promise<T>;
  /**
   * The `jobs.finished` event of `jobId` once main has announced it; with `timeoutMs`, a throw when it
   * has not by then (otherwise the test's own timeout bounds the wait).
   */
  jobFinished<T extends JobFinished = JobFinished>(jobId: string, timeoutMs?: number): Promise<T>;
  dispatch: ReturnType<typeof createDispatcher<'app' | 'foreign'>>;
  /**
   * Saves a profile for `account` of the service at `baseUrl` through the bridge, as the analyst's form
   * does (named "Acme", with the account's name unless `accountName` says otherwise, null for none), and
   * with `active` makes it the active profile.
   */
  addProfile(
    baseUrl: string,
    account: SimulatorAccount,
    opts?: { name?: string; accountName?: string | null; active?: boolean },
  ): Promise<ProfileView>;
  close(): Promise<void>;
}

/** Real handlers on a temp data dir, the real keychain (under a per-run service name) and a real log file. */
/** `realSimulator`: the demo starts the embedded simulator of src/main/sim (50,000 records) instead of the stand-in. */
/** `now`: the clock that ages the usage figures main keeps (a scripted session moves it). */
/** `probeEveryMs`, `maxServiceWaitMs`: how often a gone service is probed, and how long a job waits for it. */
/** `retry`: the client's attempts and pauses (one attempt unless given). */
/** `watchSearchCap`: most records one search of a Watched refresh asks for. */
export async function createHarness(
  opts: {
    realSimulator?: boolean;
    now?: () => number;
    probeEveryMs?: number;
    maxServiceWaitMs?: number;
    retry?: RetryOptions;
    watchSearchCap?: number;
  } = {},
): Promise<Harness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portolan-handlers-'));
  const logPath = join(dataDir, 'logs', 'portolan.log');
  const sink = createFileSink(logPath);
  const logger = createLogger({ sink, level: 'debug' });
  const secrets = createKeytarSecretStore({ service: `Portolan-test-${randomBytes(4).toString('hex')}` });
  const problem = await secrets.probe();
  if (problem !== null) {
    throw new Error(
      `No usable Secret Service (${problem}). Run: scripts/with-keyring.sh npx vitest run test/handlers`,
    );
  }
  const events: Harness['events'] = [];
  const sinkEvents: EventSink = { emit: (event, payload) => void events.push({ event, payload }) };
  const handlers = createHandlers({
    dataDir,
    resourcesDir: join(dataDir, 'resources'),
    logger,
    events: sinkEvents,
    secrets,
    appInfo: { version: '0.0.0-test', host: 'browser' },
    ...(opts.realSimulator ? {} : { startSimulator: startSignedSimulator }),
    clientOptions: { timeoutMs: 5_000, retry: opts.retry ?? { maxAttempts: 1 } },
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.probeEveryMs !== undefined ? { connectionProbeEveryMs: opts.probeEveryMs } : {}),
    ...(opts.maxServiceWaitMs !== undefined ? { maxServiceWaitMs: opts.maxServiceWaitMs } : {}),
    ...(opts.watchSearchCap !== undefined ? { watchSearchCap: opts.watchSearchCap } : {}),
  });
  const dispatch = createDispatcher<'app' | 'foreign'>({
    handlers,
    logger,
    isTrustedSender: (s) => s === 'app',
  });
  const ok = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await dispatch(channel, input, 'app');
    if (!r.ok) throw new Error(`${channel}: ${r.error.kind}: ${r.error.message}`);
    return r.value as T;
  };
  return {
    dataDir,
    logPath,
    secrets,
    handlers,
    logger,
    sink,
    events,
    dispatch,
    call: (channel, input) => dispatch(channel, input, 'app'),
    ok,
    jobFinished<T extends JobFinished = JobFinished>(jobId: string, timeoutMs?: number): Promise<T> {
      const started = Date.now();
      return new Promise<T>((resolve, reject) => {
        const t = setInterval(() => {
          const e = events.find(
            (x) => x.event === 'jobs.finished' && (x.payload as JobFinished).jobId === jobId,
          );
          if (e) {
            clearInterval(t);
            resolve(e.payload as T);
          } else if (timeoutMs !== undefined && Date.now() - started > timeoutMs) {
            clearInterval(t);
            reject(new Error(`job ${jobId} did not finish within ${timeoutMs} ms`));
          }
        }, 20);
      });
    },
    async addProfile(baseUrl, account, profile = {}) {
      const accountName = profile.accountName === undefined ? account.name : profile.accountName;
      const created = await ok<ProfileView>('profiles.create', {
        name: profile.name ?? 'Acme',
        baseUrl,
        ...(accountName === null ? {} : { accountName }),
        apiKey: account.apiKey,
        apiSecret: account.apiSecret,
      });
      if (profile.active) await ok('profiles.setActive', { id: created.id });
      return created;
    },
    async close() {
      const state = (await handlers['profiles.list'](undefined, {})) as { profiles: { id: string }[] };
      for (const p of state.profiles) await secrets.deleteCredentials(p.id).catch(() => undefined);
      await handlers.dispose();
      await sink.close();
    },
  };
}

/** Every file under a directory, recursively, with its content. */
export async function readAllFiles(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push({ path, text: await readFile(path, 'latin1') });
  }
  return out;
}

export function isBridgeResult(r: unknown): boolean {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as Record<string, unknown>;
  if (o.ok === true) return 'value' in o && Object.keys(o).length === 2;
  if (o.ok !== false || Object.keys(o).length !== 2) return false;
  const e = o.error as Record<string, unknown> | undefined;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.kind === 'string' &&
    typeof e.message === 'string' &&
    e.message.length > 0
  );
}
