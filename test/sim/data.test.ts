import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { EPOCH_SHIPMENT_FIELDS, SHIPMENT_FIELDS, type ShipmentRecord } from '@shared/spec';
import { DATA_END, DATA_START, type RunningSimulator } from '../../src/main/sim';
import { HS_CSV, start } from './helpers';

async function records(seed: number, n = 2000): Promise<{ sim: RunningSimulator; all: ShipmentRecord[] }> {
  const sim = await start({ seed, records: n });
  return { sim, all: [...sim.dataset.records()] };
}

describe('generated data', () => {
  it('is the same for the same seed and different for another seed', async () => {
    const a = await records(5);
    const b = await records(5);
    const c = await records(6);
    try {
      expect(b.all).toEqual(a.all);
      expect(c.all.map((r) => r.hashId)).not.toEqual(a.all.map((r) => r.hashId));
      expect(c.all.map((r) => r.importerName)).not.toEqual(a.all.map((r) => r.importerName));
    } finally {
      await Promise.all([a.sim.close(), b.sim.close(), c.sim.close()]);
    }
  });

  it('has every field of the spec as text, with valid formats', async () => {
    const { sim, all } = await records(3);
    await sim.close();
    // Every rule of every record is checked in plain code and the breaches collected, then asserted
    // once: 2,000 records × 100 expect() calls took over 30 s on a loaded 2-core machine.
    const breaches: string[] = [];
    const check = (ok: boolean, what: string, r: ShipmentRecord) => {
      if (!ok && breaches.length < 20) breaches.push(`${r.hashId}: ${what}`);
    };
    const hashIds = new Set<string>();
    const fieldList = JSON.stringify(SHIPMENT_FIELDS);
    for (const r of all) {
      for (const f of SHIPMENT_FIELDS) check(typeof r[f] === 'string', `${f} is not text`, r);
      check(JSON.stringify(Object.keys(r)) === fieldList, 'fields not in the spec order', r);
      check(r.arrivalDate >= DATA_START && r.arrivalDate <= DATA_END, 'arrivalDate out of range', r);
      check(r.year === r.arrivalDate.slice(0, 4), 'year', r);
      check(r.month === String(Number(r.arrivalDate.slice(5, 7))), 'month', r);
      for (const f of EPOCH_SHIPMENT_FIELDS) check(/^\d{10}\.\d{6}$/.test(r[f]), `${f} format`, r);
      check(Number(r.createdAt) * 1000 > Date.parse(r.arrivalDate), 'createdAt before arrival', r);
      check(Number(r.updatedAt) >= Number(r.createdAt), 'updatedAt before createdAt', r);
      check(/^\d{6}(\d{2}|\d{4})?$/.test(r.hsCode), 'hsCode format', r);
      check(r.hsCode.startsWith(r.hsCodeKeyword), 'hsCodeKeyword not a prefix', r);
      check(r.hsCodeKeyword.length < r.hsCode.length, 'hsCodeKeyword as long as hsCode', r);
      check(r.hsCodeDescription.length > 0, 'hsCodeDescription empty', r);
      for (const f of [
        'fobValue',
        'cifValue',
        'usdFob',
        'usdCif',
        'freightAmount',
        'insuranceAmount',
      ] as const) {
        check(/^\d+\.\d{2}$/.test(r[f]), `${f} format`, r);
      }
      check(/^[A-Z]{2}$/.test(r.importerCountryCode), 'importerCountryCode format', r);
      check(/^[A-Z]{2}$/.test(r.exporterCountryCode), 'exporterCountryCode format', r);
      const cif = Number(r.fobValue) + Number(r.freightAmount) + Number(r.insuranceAmount);
      // toBeCloseTo(…, 1): within 0.05.
      check(Math.abs(Number(r.cifValue) - cif) < 0.05, 'cifValue is not fob + freight + insurance', r);
      hashIds.add(r.hashId);
    }
    expect(breaches).toEqual([]);
    expect(all.length).toBe(2000);
    expect(hashIds.size).toBe(all.length);
  });

  it('converts to USD with one rate per currency, the same for FOB and CIF', async () => {
    const { sim, all } = await records(4);
    await sim.close();
    const rates = new Map<string, number[]>();
    for (const r of all) {
      const fob = Number(r.fobValue);
      if (fob < 1000) continue; // rounding to cents dominates for small values
      const list = rates.get(r.fobCurrency) ?? [];
      list.push(Number(r.usdFob) / fob, Number(r.usdCif) / Number(r.cifValue));
      rates.set(r.fobCurrency, list);
    }
    expect(rates.get('USD')?.every((x) => Math.abs(x - 1) < 1e-9)).toBe(true);
    expect(rates.size).toBeGreaterThan(5);
    for (const [, list] of rates) {
      const first = list[0] as number;
      for (const x of list) expect(Math.abs(x - first) / first).toBeLessThan(0.01);
    }
  });

  it('reuses firms across shipments with stable attributes', async () => {
    const { sim, all } = await records(8);
    await sim.close();
    const seen = new Map<string, string>();
    const uses = new Map<string, number>();
    for (const r of all) {
      for (const p of ['importer', 'exporter'] as const) {
        const code = r[`${p}UrlCode`];
        const attrs = JSON.stringify(
          ['Name', 'CleanUrl', 'TaCode', 'CountryCode', 'Address', 'CompanyTypeCode'].map(
            (s) => r[`${p}${s}` as keyof ShipmentRecord],
          ),
        );
        expect(seen.get(code) ?? attrs).toBe(attrs);
        seen.set(code, attrs);
        uses.set(code, (uses.get(code) ?? 0) + 1);
      }
    }
    const recurring = [...uses.values()].filter((n) => n >= 5).length;
    expect(recurring).toBeGreaterThan(20);
    expect(new Set(all.map((r) => r.importerCountryCode)).size).toBeGreaterThan(30);
  });

  it('uses the HS nomenclature file, several languages and some filler values', async () => {
    const { sim, all } = await records(9);
    await sim.close();
    const hs6 = new Set(
      readFileSync(HS_CSV, 'utf8')
        .match(/^[IVXL]+,(\d{6}),/gm)
        ?.map((l) => l.split(',')[1]),
    );
    for (const r of all) expect(hs6.has(r.hsCode.slice(0, 6))).toBe(true);
    const text = all.map((r) => r.productDetails).join('\n');
    expect(text).toMatch(/[\u4e00-\u9fff]/); // Chinese
    expect(text).toMatch(/[ÇĞİŞÜÖ]/); // Turkish
    expect(text).toMatch(/[ÁÉÍÓÚÑ]/); // Spanish
    expect(all.some((r) => r.importerFax === '-' || r.importerFax === 'N/A')).toBe(true);
    expect(all.some((r) => r.brandName === '')).toBe(true);
  });

  it('record(i) and records() agree and follow the stored order', async () => {
    const { sim, all } = await records(10, 500);
    await sim.close();
    expect(sim.dataset.record(123)).toEqual(all[123]);
    expect(() => sim.dataset.record(500)).toThrow(RangeError);
    expect(sim.dataset.firmByUrlCode(all[0]?.importerUrlCode ?? '')?.name).toBe(all[0]?.importerName);
  });
});
