import { parseDecimalText } from './cell-values';
import type { SummaryColumn, SummaryKind, SummaryProvider, SummaryTable } from './types';

/** Rows kept in a "top" table. */
export const TOP_N = 100;

/**
 * What each summary sheet holds, so that the library's SQL and the in-memory version agree. Sums are
 * over the values that are numbers; fillers count as shipments but add nothing.
 */
export const SUMMARY_DEFINITIONS: Record<SummaryKind, { title: string; columns: readonly SummaryColumn[] }> =
  {
    topImporters: {
      title: 'Top importers',
      columns: [
        { header: 'importerName', type: 'text' },
        { header: 'importerCountry', type: 'text' },
        { header: 'shipments', type: 'integer' },
        { header: 'usdCif', type: 'decimal' },
      ],
    },
    topExporters: {
      title: 'Top exporters',
      columns: [
        { header: 'exporterName', type: 'text' },
        { header: 'exporterCountry', type: 'text' },
        { header: 'shipments', type: 'integer' },
        { header: 'usdFob', type: 'decimal' },
      ],
    },
    byHsCode: {
      title: 'By HS code',
      columns: [
        { header: 'hsCode', type: 'text' },
        { header: 'shipments', type: 'integer' },
        { header: 'usdFob', type: 'decimal' },
        { header: 'usdCif', type: 'decimal' },
      ],
    },
    byMonth: {
      title: 'By month',
      columns: [
        { header: 'month', type: 'text' },
        { header: 'shipments', type: 'integer' },
        { header: 'usdFob', type: 'decimal' },
        { header: 'usdCif', type: 'decimal' },
      ],
    },
  };

interface Group {
  key: string[];
  shipments: number;
  fob: number;
  cif: number;
}

const text = (v: unknown): string =>
  typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
const num = (v: unknown): number => parseDecimalText(text(v)) ?? 0;
/** Float sums drift in the last digits; cents are what an analyst reads. */
const cents = (n: number): number => Math.round(n * 100) / 100;

function group(
  records: readonly Record<string, unknown>[],
  keyOf: (r: Record<string, unknown>) => string[],
): Group[] {
  const groups = new Map<string, Group>();
  for (const r of records) {
    const key = keyOf(r);
    const id = JSON.stringify(key);
    let g = groups.get(id);
    if (!g) {
      g = { key, shipments: 0, fob: 0, cif: 0 };
      groups.set(id, g);
    }
    g.shipments += 1;
    g.fob += num(r['usdFob']);
    g.cif += num(r['usdCif']);
  }
  return [...groups.values()];
}

const byCountThenKey = (a: Group, b: Group): number =>
  b.shipments - a.shipments || a.key.join('\u0000').localeCompare(b.key.join('\u0000'));

/** Computes the summaries from rows in memory: for tests and for small sources without a database. */
export function summarizeRecords(
  records: readonly Record<string, unknown>[],
  kind: SummaryKind,
): SummaryTable {
  const def = SUMMARY_DEFINITIONS[kind];
  let rows: (string | number | null)[][];
  switch (kind) {
    case 'topImporters':
      rows = group(records, (r) => [text(r['importerName']), text(r['importerCountry'])])
        .sort(byCountThenKey)
        .slice(0, TOP_N)
        .map((g) => [...g.key, g.shipments, cents(g.cif)]);
      break;
    case 'topExporters':
      rows = group(records, (r) => [text(r['exporterName']), text(r['exporterCountry'])])
        .sort(byCountThenKey)
        .slice(0, TOP_N)
        .map((g) => [...g.key, g.shipments, cents(g.fob)]);
      break;
    case 'byHsCode':
      rows = group(records, (r) => [text(r['hsCode'])])
        .sort(byCountThenKey)
        .map((g) => [...g.key, g.shipments, cents(g.fob), cents(g.cif)]);
      break;
    case 'byMonth':
      rows = group(records, (r) => {
        const d = text(r['arrivalDate']);
        return [/^\d{4}-\d{2}/.test(d) ? d.slice(0, 7) : 'unknown'];
      })
        .sort((a, b) => (a.key[0] ?? '').localeCompare(b.key[0] ?? ''))
        .map((g) => [...g.key, g.shipments, cents(g.fob), cents(g.cif)]);
      break;
  }
  return { kind, title: def.title, columns: def.columns, rows };
}

export function createMemorySummaryProvider(records: readonly Record<string, unknown>[]): SummaryProvider {
  return {
    summaries: async (kinds) => kinds.map((k) => summarizeRecords(records, k)),
  };
}
