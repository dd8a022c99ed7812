import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createAnalysis, type Analysis } from '../../src/main/analysis';
import { Library } from '../../src/main/library';
import { SimData } from '../../src/main/sim/dataset';
import { loadHsSubheadings } from '../../src/main/sim/hs-codes';

export const HS_CSV = resolve(import.meta.dirname, '../../resources/data/hs-codes.csv');

export type Rec = Record<string, string>;

/** Simulator records, deterministically, as plain objects. */
export function simRecords(count: number, seed: number): Rec[] {
  const data = new SimData({ records: count, seed, hsSubheadings: loadHsSubheadings(HS_CSV) });
  return [...data.records()].map((r) => ({ ...r }) as Rec);
}

/**
 * The simulator always fills amounts, units and dates; real data does not. Every k-th record gets a
 * filler or an odd unit, so the summaries' handling of unusable values is exercised.
 */
export function withGaps(records: Rec[]): Rec[] {
  return records.map((r, i) => {
    const out = { ...r };
    if (i % 11 === 0) out.usdFob = '-';
    if (i % 13 === 0) out.usdCif = 'N/A';
    if (i % 17 === 0) out.usdFob = '';
    if (i % 19 === 0) out.grossWeightUnit = 'LB';
    if (i % 23 === 0) out.grossWeightUnit = 'TON';
    if (i % 29 === 0) out.grossWeightUnit = '';
    if (i % 31 === 0) out.grossWeight = 'N/A';
    if (i % 37 === 0) out.arrivalDate = '-';
    if (i % 41 === 0) out.hsCode = out.hsCode!.slice(0, 4);
    if (i % 43 === 0) out.portOfDeparture = '';
    if (i % 47 === 0) out.usdFob = 'nan';
    return out;
  });
}

export interface Fixture {
  library: Library;
  analysis: Analysis;
  cleanup(): Promise<void>;
}

export async function openFixture(): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'portolan-analysis-test-'));
  const library = await Library.open(dir);
  const analysis = createAnalysis(library, { hsCodesCsvPath: HS_CSV });
  return {
    library,
    analysis,
    async cleanup() {
      await library.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function save(library: Library, records: Rec[], name: string): Promise<string> {
  const meta = await library.saveRecords(
    { kind: 'shipments', request: { size: records.length }, name },
    records,
  );
  return meta.id;
}

// ---- the expected values, computed in plain TypeScript from the records ----

/** A usable amount: a finite decimal; fillers and "nan" are not. */
export function amountOf(text: string | undefined): number | null {
  const s = (text ?? '').trim();
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

const KG: Record<string, number> = { KG: 1, LB: 0.45359237 };
export function kgOf(r: Rec): number | null {
  const w = amountOf(r.grossWeight);
  const f = KG[(r.grossWeightUnit ?? '').trim().toUpperCase()];
  return w === null || f === undefined ? null : w * f;
}

export interface Expected {
  shipments: number;
  usdFob: number | null;
  usdCif: number | null;
  grossWeightKg: number | null;
  usdFobMissing: number;
  usdCifMissing: number;
  grossWeightMissing: number;
}

export function measure(records: readonly Rec[]): Expected {
  const add = (acc: number | null, v: number | null) => (v === null ? acc : (acc ?? 0) + v);
  const e: Expected = {
    shipments: 0,
    usdFob: null,
    usdCif: null,
    grossWeightKg: null,
    usdFobMissing: 0,
    usdCifMissing: 0,
    grossWeightMissing: 0,
  };
  for (const r of records) {
    e.shipments++;
    const fob = amountOf(r.usdFob);
    const cif = amountOf(r.usdCif);
    const kg = kgOf(r);
    e.usdFob = add(e.usdFob, fob);
    e.usdCif = add(e.usdCif, cif);
    e.grossWeightKg = add(e.grossWeightKg, kg);
    if (fob === null) e.usdFobMissing++;
    if (cif === null) e.usdCifMissing++;
    if (kg === null) e.grossWeightMissing++;
  }
  return e;
}

export function groupBy(records: readonly Rec[], key: (r: Rec) => string | null): Map<string | null, Rec[]> {
  const m = new Map<string | null, Rec[]>();
  for (const r of records) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

export const blankToNull = (v: string | undefined): string | null =>
  v === undefined || v.trim() === '' ? null : v;

export function validMonth(date: string | undefined): string | null {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? null : date.slice(0, 7);
}
