import type { BodyOperationName, OperationName } from './operations';
import {
  checkFirmRecordList,
  checkShipmentRecordList,
  isPlainObject,
  requireInteger,
  typeName,
  type FirmRecord,
  type Parsed,
  type ShipmentRecord,
} from './records';
import type { MetricSummary, UsageSummary } from './usage';

export interface ShipmentSearchResponse {
  total: number;
  shipments: ShipmentRecord[];
  [extra: string]: unknown;
}
export interface ShipmentCountResponse {
  shipment_count: number;
  [extra: string]: unknown;
}
export interface FirmSearchResponse {
  total_shipment: number;
  total_pages: number;
  page: number;
  firms_count: number;
  firms: FirmRecord[];
  [extra: string]: unknown;
}
export interface FirmCountResponse {
  firm_count: number;
  [extra: string]: unknown;
}

export interface Responses {
  shipmentSearch: ShipmentSearchResponse;
  shipmentCount: ShipmentCountResponse;
  firmSearch: FirmSearchResponse;
  firmCount: FirmCountResponse;
  usage: UsageSummary;
}

const fail = (path: string, message: string) => ({ ok: false as const, issue: { path, message } });

function integers<K extends string>(
  obj: Record<string, unknown>,
  fields: readonly K[],
): Parsed<Record<K, number>> {
  const out = {} as Record<K, number>;
  for (const f of fields) {
    const r = requireInteger(obj, f, 'response');
    if (!r.ok) return r;
    out[f] = r.value;
  }
  return { ok: true, value: out };
}

function parseList<T>(
  obj: Record<string, unknown>,
  field: string,
  check: (list: unknown[], path: string) => Parsed<T[]>,
): Parsed<T[]> {
  const list = obj[field];
  if (list === undefined || list === null) return check([], `response.${field}`);
  if (!Array.isArray(list)) return fail(`response.${field}`, `must be a list, got ${typeName(list)}`);
  return check(list, `response.${field}`);
}

export function parseUsageSummary(body: unknown): Parsed<UsageSummary> {
  if (!isPlainObject(body)) return fail('response', `must be an object, got ${typeName(body)}`);
  const out: UsageSummary = {};
  for (const [account, metrics] of Object.entries(body)) {
    if (!isPlainObject(metrics)) return fail(`response.${account}`, `must be an object of metrics`);
    const acc: Record<string, MetricSummary> = {};
    for (const [metric, summary] of Object.entries(metrics)) {
      const path = `response.${account}.${metric}`;
      if (!isPlainObject(summary)) return fail(path, 'must be an object');
      const current = requireInteger(summary, 'current', path);
      if (!current.ok) return current;
      const limit = requireInteger(summary, 'limit', path);
      if (!limit.ok) return limit;
      const notes = summary.notes;
      if (notes !== undefined && notes !== null && typeof notes !== 'string') {
        return fail(`${path}.notes`, `must be text, got ${typeName(notes)}`);
      }
      const m: MetricSummary = { ...summary, current: current.value, limit: limit.value };
      if (typeof notes === 'string') m.notes = notes;
      else delete m.notes;
      acc[metric] = m;
    }
    out[account] = acc;
  }
  return { ok: true, value: out };
}

/**
 * Parses a decoded JSON body as the response of `op`; never throws. The body is the caller's own freshly
 * parsed JSON: shipment records are checked and normalised in place (not copied), and the record list is
 * vouched for, so the library stores it without a second check (`checkedRecordList`).
 */
export function parseResponse<K extends OperationName>(op: K, body: unknown): Parsed<Responses[K]> {
  if (op === 'usage') return parseUsageSummary(body) as Parsed<Responses[K]>;
  if (!isPlainObject(body)) return fail('response', `must be an object, got ${typeName(body)}`);
  let r: Parsed<unknown>;
  switch (op as BodyOperationName) {
    case 'shipmentSearch': {
      const n = integers(body, ['total']);
      if (!n.ok) return n;
      const list = parseList(body, 'shipments', checkShipmentRecordList);
      r = list.ok ? { ok: true, value: { ...body, ...n.value, shipments: list.value } } : list;
      break;
    }
    case 'shipmentCount':
      r = mergeInts(body, ['shipment_count']);
      break;
    case 'firmSearch': {
      const n = integers(body, ['total_shipment', 'total_pages', 'page', 'firms_count']);
      if (!n.ok) return n;
      const list = parseList(body, 'firms', checkFirmRecordList);
      r = list.ok ? { ok: true, value: { ...body, ...n.value, firms: list.value } } : list;
      break;
    }
    case 'firmCount':
      r = mergeInts(body, ['firm_count']);
      break;
  }
  return r as Parsed<Responses[K]>;
}

function mergeInts(body: Record<string, unknown>, fields: readonly string[]): Parsed<unknown> {
  const n = integers(body, fields);
  return n.ok ? { ok: true, value: { ...body, ...n.value } } : n;
}
