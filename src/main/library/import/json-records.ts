import { isPlainObject } from '@shared/spec/records';
import type { RecordObject } from '../ingest';
import { detectKind } from './detect';
import { NO_RECORDS, refuse, type Parsed } from './parsed';

function wholeNumber(v: unknown): number | null {
  return Number.isInteger(v) ? (v as number) : null;
}

/**
 * A JSON array of shipment or firm records, or a saved service response (`{ total, shipments }` or a
 * firm search page `{ firms, page, total_pages, … }`), whose totals decide whether it is whole.
 */
export function parseJsonRecords(text: string, file: string): Parsed {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    // The parser's message quotes the text around the fault; only where it is may be repeated.
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    const where = at === undefined ? '' : ` (at character ${Number(at) + 1})`;
    throw refuse(file, `it is not valid JSON${where}; it may be cut off`);
  }
  let list: unknown = body;
  const parsed: Omit<Parsed, 'kind' | 'records'> = { locate: (i) => `record ${i + 1}` };
  if (isPlainObject(body)) {
    if (Array.isArray(body.shipments)) {
      list = body.shipments;
      const total = wholeNumber(body.total);
      if (total !== null) {
        parsed.reportedTotal = total;
        parsed.reported = { total };
      }
    } else if (Array.isArray(body.firms)) {
      list = body.firms;
      const page = wholeNumber(body.page);
      const pages = wholeNumber(body.total_pages);
      if (page !== null && pages !== null) {
        parsed.reported = { page, total_pages: pages, total_shipment: wholeNumber(body.total_shipment) };
        // The same rule as a fetched firm page: one page of several is only part of the answer.
        if (pages > 1) parsed.partOnly = [`it is page ${page} of ${pages} of a firm search`];
      }
    }
  }
  if (!Array.isArray(list)) throw refuse(file, 'expected a JSON array of shipment or firm records');
  if (list.length === 0) throw refuse(file, NO_RECORDS);
  const keys = new Set<string>();
  for (const r of list.slice(0, 50)) if (isPlainObject(r)) for (const k of Object.keys(r)) keys.add(k);
  const kind = detectKind([...keys]);
  if (!kind) throw refuse(file, 'its records are neither shipment nor firm records (unknown field names)');
  return { ...parsed, kind, records: list as RecordObject[] };
}
