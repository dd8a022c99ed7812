import type { Json } from '@duckdb/node-api';
import type { Measure, Measures, SummaryRow } from '@shared/analysis/analysis-contract';
import { toNumber, type Row } from '../library';

/** Sums are rounded for reading: cents for money, grams for weight (float sums drift in the last digits). */
function rounded(v: Json | undefined, digits: number): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) return null;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function measuresOf(r: Row | undefined): Measures {
  return {
    shipments: toNumber(r?.shipments),
    usdFob: rounded(r?.usd_fob, 2),
    usdCif: rounded(r?.usd_cif, 2),
    grossWeightKg: rounded(r?.kg, 3),
    usdFobMissing: toNumber(r?.fob_missing),
    usdCifMissing: toNumber(r?.cif_missing),
    grossWeightMissing: toNumber(r?.kg_missing),
  };
}

export const EMPTY_MEASURES: Measures = measuresOf(undefined);

export function sharesOf(m: Measures, totals: Measures): Record<Measure, number> {
  const share = (a: number | null, b: number | null): number =>
    a === null || b === null || b === 0 ? 0 : a / b;
  return {
    shipments: share(m.shipments, totals.shipments),
    usdFob: share(m.usdFob, totals.usdFob),
    usdCif: share(m.usdCif, totals.usdCif),
    grossWeightKg: share(m.grossWeightKg, totals.grossWeightKg),
  };
}

export function textOrNull(v: Json | undefined): string | null {
  return v === null || v === undefined ? null : String(v);
}

/** The ORDER BY column of a measure in the grouped selects. */
export const MEASURE_COLUMN: Record<Measure, string> = {
  shipments: 'shipments',
  usdFob: 'usd_fob',
  usdCif: 'usd_cif',
  grossWeightKg: 'kg',
};

export type RowParts = Omit<SummaryRow, keyof Measures | 'shares'>;

export function summaryRow(r: Row, totals: Measures, parts: RowParts): SummaryRow {
  const m = measuresOf(r);
  return { ...parts, ...m, shares: sharesOf(m, totals) };
}
