import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import {
  OPERATIONS,
  USAGE_METRICS,
  checkRequest,
  describeIssues,
  isCalendarDate,
  type BodyOperationName,
  type OperationName,
  type ShipmentFilter,
  type UsageMetric,
} from '@shared/spec';
import { SimData } from './dataset';
import { FaultInjector, type FaultDecision } from './faults';
import { loadHsSubheadings } from './hs-codes';
import { BufferWriter } from './json-writer';
import { QueryEngine } from './query';
import type { RunningSimulator, SimAccount, SimOptions } from './types';
import { AccountUsage, type Charge } from './usage';

/** Request bodies above this size are refused with 413 (real filters are a few hundred bytes). */
const MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_RECORDS = 50_000;

interface Caller {
  secret: string;
  accounts: AccountUsage[];
}

interface Reply {
  status: number;
  body: unknown;
  /** Already-serialised body; takes precedence over `body`. */
  bytes?: Buffer;
  headers?: Record<string, string>;
}

const errorReply = (
  status: number,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
): Reply => ({
  status,
  body: { error, message, ...extra },
});

const ROUTES = new Map<string, { op: OperationName; method: string }>(
  (Object.entries(OPERATIONS) as [OperationName, (typeof OPERATIONS)[OperationName]][]).map(([op, def]) => [
    `/${def.path}`,
    { op, method: def.method },
  ]),
);

/** A fresh key and secret from the OS random source. */
export function generateAccount(name = 'default'): SimAccount {
  return {
    name,
    apiKey: `sim_${randomBytes(12).toString('hex')}`,
    apiSecret: randomBytes(32).toString('base64url'),
  };
}

function buildCallers(accounts: readonly SimAccount[], now: () => number): Map<string, Caller> {
  if (accounts.length === 0) throw new Error('the simulator needs at least one account');
  const callers = new Map<string, Caller>();
  for (const a of accounts) {
    if (!a.name || !a.apiKey || !a.apiSecret)
      throw new Error('every account needs a name, an apiKey and an apiSecret');
    for (const [metric, limit] of Object.entries(a.limits ?? {})) {
      if (!USAGE_METRICS.includes(metric as UsageMetric))
        throw new Error(`account ${a.name}: unknown metric ${metric}`);
      if (!Number.isInteger(limit) || (limit as number) < -1) {
        throw new Error(`account ${a.name}: limit of ${metric} must be a whole number >= -1`);
      }
    }
    let caller = callers.get(a.apiKey);
    if (!caller) {
      caller = { secret: a.apiSecret, accounts: [] };
      callers.set(a.apiKey, caller);
    } else if (caller.secret !== a.apiSecret) {
      // Accounts sharing a key are one caller; one key cannot have two secrets.
      throw new Error(`account ${a.name}: shares its apiKey with another account but not its apiSecret`);
    }
    if (caller.accounts.some((u) => u.name === a.name))
      throw new Error(`account name ${a.name} is used twice for one key`);
    caller.accounts.push(new AccountUsage(a.name, a.limits ?? {}, now));
  }
  return callers;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Constant-time comparison of the received signature with the expected Base64 HMAC of the raw body. */
function signatureMatches(secret: string, body: Buffer, received: string): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('base64'), 'utf8');
  const got = Buffer.from(received, 'utf8');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export async function startSimulator(opts: SimOptions): Promise<RunningSimulator> {
  const now = opts.now ?? Date.now;
  const callers = buildCallers(opts.accounts, now);
  const records = opts.records ?? DEFAULT_RECORDS;
  if (!Number.isInteger(records) || records < 0) throw new Error('records must be a whole number >= 0');
  const hsPath = opts.hsCodesCsvPath ?? resolve(process.cwd(), 'resources/data/hs-codes.csv');
  const data = new SimData({ records, seed: opts.seed ?? 1, hsSubheadings: loadHsSubheadings(hsPath) });
  const engine = new QueryEngine(data);
  const faults = new FaultInjector(opts.faults);
  const setAsOf = (date: string): void => {
    if (!isCalendarDate(date))
      throw new Error(`asOf must be a calendar date written yyyy-MM-dd, got "${date}"`);
    engine.asOf = SimData.dayOf(date);
  };
  const asOfText = (): string | null =>
    engine.asOf === null ? null : new Date(Date.UTC(2021, 0, 1 + engine.asOf)).toISOString().slice(0, 10);
  const advance = (days: number): string => {
    if (!Number.isInteger(days) || days < 0) throw new Error('advance takes a whole number of days >= 0');
    if (engine.asOf === null) throw new Error('this simulator does not grow: start it with asOf');
    engine.asOf += days;
    return asOfText() as string;
  };
  if (opts.asOf !== undefined) setAsOf(opts.asOf);
  if (opts.grow && opts.asOf === undefined) throw new Error('grow needs asOf (the day the data starts from)');

  const handle = (op: OperationName, req: IncomingMessage, body: Buffer): Reply => {
    // Authentication first: nothing about the request is looked at before the caller is known.
    const key = header(req, 'x-api-key');
    const signature = header(req, 'x-signature');
    if (!key) return errorReply(401, 'unauthorized', 'missing X-API-KEY header');
    if (!signature) return errorReply(401, 'unauthorized', 'missing X-SIGNATURE header');
    const caller = callers.get(key);
    if (!caller) return errorReply(401, 'unauthorized', 'unknown API key');
    if (!signatureMatches(caller.secret, body, signature)) {
      return errorReply(401, 'unauthorized', 'invalid signature for this request body');
    }
    if ((req.url ?? '').includes('?'))
      return errorReply(400, 'invalid_request', 'this service takes no query parameters');

    if (op === 'usage') {
      if (body.length > 0) return errorReply(400, 'invalid_request', 'the usage request takes no body');
      const account = caller.accounts[0] as AccountUsage;
      return admit(account, {}, () => {
        const out: Record<string, unknown> = {};
        for (const a of caller.accounts) out[a.name] = a.summary();
        return out;
      });
    }

    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return errorReply(400, 'invalid_json', 'the request body is not valid JSON');
    }
    const checked = checkRequest(op, parsed);
    if (!checked.ok) {
      const first = checked.issues[0];
      return errorReply(
        400,
        'invalid_request',
        describeIssues(checked.issues),
        first && first.path ? { field: first.path } : {},
      );
    }
    const filter: ShipmentFilter = checked.value;
    let account = caller.accounts[0] as AccountUsage;
    if (filter.account_name !== undefined) {
      const named = caller.accounts.find((a) => a.name === filter.account_name);
      if (!named) {
        return errorReply(400, 'invalid_request', 'account_name: not one of your accounts', {
          field: 'account_name',
        });
      }
      account = named;
    }
    return runOperation(op, checked.value, account);
  };

  const runOperation = (op: BodyOperationName, request: unknown, account: AccountUsage): Reply => {
    const filter = request as ShipmentFilter;
    const hsCodes = filter.hs_codes ?? [];
    switch (op) {
      case 'shipmentSearch': {
        const { size } = request as { size: number };
        const { total, indices } = engine.shipmentSearch(filter, size);
        return admit(account, { metric: 'shipments/search', amount: indices.length, hsCodes }, () => {
          const out = new BufferWriter(4096 + indices.length * 3000);
          out.text(`{"total":${total},"shipments":[`);
          for (let k = 0; k < indices.length; k++) {
            if (k > 0) out.text(',');
            data.writeRecord(indices[k] as number, out);
          }
          out.text(']}');
          return out.bytes();
        });
      }
      case 'shipmentCount': {
        const { firm } = request as { firm: string };
        const count = engine.shipmentCount(filter, firm);
        return admit(account, { metric: 'shipments/count', amount: 1, hsCodes }, () => ({
          shipment_count: count,
        }));
      }
      case 'firmSearch': {
        const { page } = request as { page: number };
        // Rule 3: an omitted importer_countries means ALL, which the engine already treats as "any".
        const result = engine.firmSearch({ importer_countries: ['ALL'], ...filter }, page);
        return admit(account, { metric: 'firms/search', amount: result.firms_count, hsCodes }, () => result);
      }
      case 'firmCount': {
        const count = engine.firmCount({ importer_countries: ['ALL'], ...filter });
        return admit(account, { metric: 'firms/count', amount: 1, hsCodes }, () => ({ firm_count: count }));
      }
    }
  };

  /** Limits last: a request that would pass one is refused whole and nothing is counted for it. */
  const admit = (account: AccountUsage, charge: Charge, body: () => unknown): Reply => {
    const over = account.check(charge);
    if (over) {
      const headers: Record<string, string> = {};
      if (over.retryAfter !== undefined) headers['Retry-After'] = String(over.retryAfter);
      return {
        status: 429,
        body: { error: 'limit_exceeded', metric: over.metric, message: over.message },
        headers,
      };
    }
    account.record(charge);
    const out = body();
    return Buffer.isBuffer(out) ? { status: 200, body: null, bytes: out } : { status: 200, body: out };
  };

  const send = (res: ServerResponse, reply: Reply, spoil: FaultDecision['body']): void => {
    let buf = reply.bytes ?? Buffer.from(JSON.stringify(reply.body), 'utf8');
    // An XSSI-style prefix: a realistic way for a JSON body to arrive unparseable.
    if (reply.status === 200 && spoil === 'invalid') buf = Buffer.concat([Buffer.from(")]}'\n"), buf]);
    if (reply.status === 200 && spoil === 'truncated') buf = buf.subarray(0, Math.floor(buf.length / 2));
    res.writeHead(reply.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(buf.length),
      ...reply.headers,
    });
    res.end(buf);
  };

  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let growth: NodeJS.Timeout | null = null;
  if (opts.grow) {
    const { days, everySeconds } = opts.grow;
    if (!Number.isInteger(days) || days < 1 || !(everySeconds > 0))
      throw new Error('grow needs a whole number of days >= 1 and a period in seconds > 0');
    growth = setInterval(() => advance(days), everySeconds * 1000);
    growth.unref();
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const decision = faults.next();
      const respond = (): void => {
        if (res.destroyed) return;
        const { action } = decision;
        if (action.kind === 'drop') {
          req.socket.destroy();
          return;
        }
        if (action.kind === 'error') {
          const what = action.status === 503 ? 'service_unavailable' : 'server_error';
          send(res, errorReply(action.status, what, 'simulated server failure'), 'intact');
          return;
        }
        if (action.kind === 'burst429') {
          send(
            res,
            {
              ...errorReply(429, 'too_many_requests', 'simulated burst of 429'),
              headers: { 'Retry-After': String(action.retryAfter) },
            },
            'intact',
          );
          return;
        }
        if (tooLarge) {
          send(
            res,
            errorReply(413, 'payload_too_large', `request bodies are limited to ${MAX_BODY_BYTES} bytes`),
            'intact',
          );
          return;
        }
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const route = ROUTES.get(path);
        if (!route) {
          send(res, errorReply(404, 'not_found', `no operation at ${path}`), 'intact');
          return;
        }
        if (req.method !== route.method) {
          send(
            res,
            {
              ...errorReply(405, 'method_not_allowed', `use ${route.method}`),
              headers: { Allow: route.method },
            },
            'intact',
          );
          return;
        }
        let reply: Reply;
        try {
          reply = handle(route.op, req, Buffer.concat(chunks));
        } catch {
          reply = errorReply(500, 'server_error', 'internal simulator error');
        }
        send(res, reply, decision.body);
      };
      if (decision.latencyMs > 0) {
        const t = setTimeout(() => {
          timers.delete(t);
          respond();
        }, decision.latencyMs);
        timers.add(t);
      } else respond();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    accounts: opts.accounts.map((a) => ({ ...a, limits: a.limits ? { ...a.limits } : undefined })),
    dataset: data,
    setFaults: (f) => faults.set(f),
    asOf: asOfText,
    advance,
    setAsOf,
    close: () => {
      closed ??= new Promise<void>((ok) => {
        if (growth) clearInterval(growth);
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => ok());
        for (const s of sockets) s.destroy();
      });
      return closed;
    },
  };
}
