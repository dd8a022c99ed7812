import { createHmac } from 'node:crypto';
import { resolve } from 'node:path';
import type { ShipmentRecord } from '@shared/spec';
import { startSimulator, type RunningSimulator, type SimAccount, type SimOptions } from '../../src/main/sim';

export const HS_CSV = resolve(import.meta.dirname, '../../resources/data/hs-codes.csv');

export const ALICE: SimAccount = { name: 'alice', apiKey: 'key-alice', apiSecret: 'secret-alice-0123456789' };

export function start(opts: Partial<SimOptions> = {}): Promise<RunningSimulator> {
  return startSimulator({ records: 5000, seed: 11, accounts: [ALICE], hsCodesCsvPath: HS_CSV, ...opts });
}

/** Signed independently of the project's client: Base64(HMAC-SHA256(raw body, secret)). */
export function signature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface CallOptions {
  method?: string;
  account?: SimAccount;
  /** Override the headers entirely (missing ones stay missing). */
  headers?: Record<string, string>;
}

export async function call(
  sim: RunningSimulator,
  path: string,
  body?: string,
  o: CallOptions = {},
): Promise<CallResult> {
  const account = o.account ?? ALICE;
  const method = o.method ?? (body === undefined ? 'GET' : 'POST');
  const headers = o.headers ?? {
    'Content-Type': 'application/json',
    'X-API-KEY': account.apiKey,
    'X-SIGNATURE': signature(body ?? '', account.apiSecret),
  };
  const res = await fetch(new URL(path, sim.url), { method, headers, body });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** POSTs `request` as JSON to one of the operations and expects it to succeed. */
export async function ok<T = Record<string, unknown>>(
  sim: RunningSimulator,
  path: string,
  request: unknown,
  account?: SimAccount,
): Promise<T> {
  const r = await call(sim, path, JSON.stringify(request), account ? { account } : {});
  if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${r.text}`);
  return r.json as T;
}

export const PATHS = {
  shipmentSearch: 'api/v1/shipment/search',
  shipmentCount: 'api/v1/shipment/count',
  firmSearch: 'api/v1/firms/search',
  firmCount: 'api/v1/firms/count',
  usage: 'api/v1/statistics/usage',
} as const;

/** The documented order, computed here without the simulator's index: arrivalDate desc, hashId asc. */
export function documentedOrder(a: ShipmentRecord, b: ShipmentRecord): number {
  if (a.arrivalDate !== b.arrivalDate) return a.arrivalDate < b.arrivalDate ? 1 : -1;
  return a.hashId < b.hashId ? -1 : a.hashId > b.hashId ? 1 : 0;
}
