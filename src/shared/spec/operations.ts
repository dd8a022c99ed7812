import { z } from 'zod';
import {
  SHIPMENT_SEARCH_MAX_SIZE,
  SHIPMENT_SEARCH_MIN_SIZE,
  activeFilterFields,
  checkDateOrder,
  shipmentFilterShape,
  type ShipmentFilter,
} from './filter';
import { formatPath, type SpecIssue } from './issues';

/** "required" only when the field is absent; a present value of the wrong type is "must be". */
const missingOr = (missing: string, wrong: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? missing : wrong;

const wholeNumber = (what: string) =>
  z
    .number({ error: missingOr(`required: a whole number (${what})`, 'must be a whole number') })
    .int({ error: 'must be a whole number' });

/** A count as the form shows counts (10,000), so a message about the field reads as the field does. */
const count = (n: number) => n.toLocaleString('en-US');

/**
 * `size`: the range is judged before wholeness, so a huge entry (1e20, which is no safe integer) is
 * told the allowed range rather than "must be a whole number", and each bad value gets one message.
 * NaN is what an emptied number field yields: it reads as missing, not as a wrong type.
 */
const shipmentSize = z
  .number({
    error: (iss: { input?: unknown }) =>
      iss.input === undefined
        ? 'required: a whole number (size)'
        : typeof iss.input === 'number' && Number.isNaN(iss.input)
          ? `required: a whole number from ${count(SHIPMENT_SEARCH_MIN_SIZE)} to ${count(SHIPMENT_SEARCH_MAX_SIZE)}`
          : 'must be a whole number',
  })
  .superRefine((n, ctx) => {
    if (n < SHIPMENT_SEARCH_MIN_SIZE)
      ctx.addIssue({ code: 'custom', message: `at least ${count(SHIPMENT_SEARCH_MIN_SIZE)}` });
    else if (n > SHIPMENT_SEARCH_MAX_SIZE)
      ctx.addIssue({ code: 'custom', message: `at most ${count(SHIPMENT_SEARCH_MAX_SIZE)}` });
    else if (!Number.isInteger(n)) ctx.addIssue({ code: 'custom', message: 'must be a whole number' });
  });

export const shipmentSearchRequestSchema = z
  .strictObject({
    ...shipmentFilterShape,
    size: shipmentSize,
  })
  .superRefine(checkDateOrder);

export const shipmentCountRequestSchema = z
  .strictObject({
    ...shipmentFilterShape,
    firm: z
      .string({ error: missingOr('firm is required: a firm UrlCode', 'must be text: a firm UrlCode') })
      .min(1, { error: 'must not be empty: a firm UrlCode' }),
  })
  .superRefine(checkDateOrder);

/**
 * Firm-search rules 1 and 2. Rule 3 (importer_countries defaults to ALL) is the service's to apply;
 * rule 4 concerns NOT-operator parameters whose syntax the spec does not show, so the model defines
 * none and the strict schema rejects any field it does not know.
 */
function checkFirmSearchRules(value: ShipmentFilter, ctx: z.RefinementCtx): void {
  const active = activeFilterFields(value);
  if (active.length === 0) {
    ctx.addIssue({ code: 'custom', path: [], message: 'firm search needs at least one filter' });
  } else if (active.includes('exporter_countries') && active.length === 1) {
    ctx.addIssue({
      code: 'custom',
      path: ['exporter_countries'],
      message: 'exporter_countries needs at least one other filter',
    });
  }
}

export const firmSearchRequestSchema = z
  .strictObject({
    ...shipmentFilterShape,
    page: wholeNumber('page').min(1, { error: 'at least 1' }),
  })
  .superRefine((v, ctx) => {
    checkDateOrder(v, ctx);
    checkFirmSearchRules(v, ctx);
  });

/** Firm count: "the same filter fields as firms search, without page. All are optional." */
export const firmCountRequestSchema = z.strictObject(shipmentFilterShape).superRefine(checkDateOrder);

export type ShipmentSearchRequest = ShipmentFilter & { size: number };
export type ShipmentCountRequest = ShipmentFilter & { firm: string };
export type FirmSearchRequest = ShipmentFilter & { page: number };
export type FirmCountRequest = ShipmentFilter;

export const OPERATIONS = {
  shipmentSearch: { method: 'POST', path: 'api/v1/shipment/search', schema: shipmentSearchRequestSchema },
  shipmentCount: { method: 'POST', path: 'api/v1/shipment/count', schema: shipmentCountRequestSchema },
  firmSearch: { method: 'POST', path: 'api/v1/firms/search', schema: firmSearchRequestSchema },
  firmCount: { method: 'POST', path: 'api/v1/firms/count', schema: firmCountRequestSchema },
  usage: { method: 'GET', path: 'api/v1/statistics/usage', schema: null },
} as const;

export type OperationName = keyof typeof OPERATIONS;
export type BodyOperationName = Exclude<OperationName, 'usage'>;

export interface RequestBodies {
  shipmentSearch: ShipmentSearchRequest;
  shipmentCount: ShipmentCountRequest;
  firmSearch: FirmSearchRequest;
  firmCount: FirmCountRequest;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: SpecIssue[] };

/** Turns zod's issues into spec issues; an unknown key becomes one issue at that key. */
export function toSpecIssues(error: z.ZodError): SpecIssue[] {
  const out: SpecIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: formatPath([...issue.path, key]), message: 'unknown field' });
      }
    } else {
      out.push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return out;
}

export function checkWith<T>(schema: z.ZodType, input: unknown): Checked<T> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, issues: [{ path: '', message: 'the request body must be a JSON object' }] };
  }
  const parsed = schema.safeParse(input);
  return parsed.success
    ? { ok: true, value: parsed.data as T }
    : { ok: false, issues: toSpecIssues(parsed.error) };
}

/** Checks a request body against every constraint of the spec for that operation. */
export function checkRequest<K extends BodyOperationName>(op: K, input: unknown): Checked<RequestBodies[K]> {
  return checkWith<RequestBodies[K]>(OPERATIONS[op].schema, input);
}

export function checkFilter(input: unknown): Checked<ShipmentFilter> {
  return checkWith<ShipmentFilter>(z.strictObject(shipmentFilterShape).superRefine(checkDateOrder), input);
}
