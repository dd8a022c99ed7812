import { describe, expect, it } from 'vitest';
import { SimData, type SimFirm } from '../../src/main/sim/dataset';
import { loadHsSubheadings } from '../../src/main/sim/hs-codes';
import { HS_CSV } from './helpers';

const hsSubheadings = loadHsSubheadings(HS_CSV);
const data = new SimData({ records: 20_000, seed: 21, hsSubheadings });

/** Every firm's parties, main spelling first. */
function firmsWithSpellings(d: SimData): SimFirm[][] {
  const byFirm = new Map<number, SimFirm[]>();
  for (const f of d.firms) byFirm.set(f.firmId, [...(byFirm.get(f.firmId) ?? []), f]);
  return [...byFirm.values()];
}
const groups = firmsWithSpellings(data);
const others = groups.flatMap((g) => g.slice(1).map((v) => ({ main: g[0] as SimFirm, v })));
const share = (pred: (x: { main: SimFirm; v: SimFirm }) => boolean): number =>
  others.filter(pred).length / others.length;

describe('firms under several spellings (the truth of firm resolution)', () => {
  it('is the same for the same seed', () => {
    const again = new SimData({ records: 20_000, seed: 21, hsSubheadings });
    expect(again.firms.map((f) => [f.name, f.firmId, f.urlCode])).toEqual(
      data.firms.map((f) => [f.name, f.firmId, f.urlCode]),
    );
    const other = new SimData({ records: 20_000, seed: 22, hsSubheadings });
    expect(other.firms.map((f) => f.name)).not.toEqual(data.firms.map((f) => f.name));
  });

  it('gives many firms more than one spelling, each a party of its own in the firm’s country', () => {
    expect(data.firmCount).toBe(1000);
    expect(groups).toHaveLength(data.firmCount);
    const several = groups.filter((g) => g.length > 1).length;
    expect(several / groups.length).toBeGreaterThan(0.35);
    expect(several / groups.length).toBeLessThan(0.65);
    expect(Math.max(...groups.map((g) => g.length))).toBeGreaterThanOrEqual(4);
    for (const g of groups) {
      const main = g[0] as SimFirm;
      expect(main.index).toBe(main.firmId);
      expect(new Set(g.map((f) => f.name)).size).toBe(g.length);
      for (const f of g) {
        expect(f.countryCode).toBe(main.countryCode);
        expect(f.firmType).toBe(main.firmType);
      }
    }
    expect(new Set(data.firms.map((f) => f.urlCode)).size).toBe(data.firms.length);
    expect(new Set(data.firms.map((f) => f.cleanUrl)).size).toBe(data.firms.length);
  });

  it('writes the spellings the ways trade records do', () => {
    const names = others.map((o) => o.v.name);
    const has = (re: RegExp) => names.filter((n) => re.test(n)).length;
    // Legal forms spelled out and abbreviated.
    expect(has(/Limited|LIMITED/)).toBeGreaterThan(10);
    expect(has(/Company|COMPANY|Corporation|CORPORATION|Incorporated|INCORPORATED/)).toBeGreaterThan(5);
    expect(has(/Anonim Şirketi|ANONİM ŞİRKETİ|Limited Şirketi|LİMİTED ŞİRKETİ/)).toBeGreaterThan(0);
    // All capitals, as many customs declarations are typed.
    expect(share(({ v }) => v.name === v.name.toUpperCase() && /[A-Z]/.test(v.name))).toBeGreaterThan(0.25);
    // Punctuation dropped from a legal form that has it.
    expect(share(({ main, v }) => /[.,]/.test(main.name) && !/[.,]/.test(v.name))).toBeGreaterThan(0.1);
    // Folded to ASCII or transliterated into Latin letters.
    expect(
      others.some(({ main, v }) => /[ıİşŞğĞüÜöÖçÇ]/.test(main.name) && /^[\x20-\x7e]+$/.test(v.name)),
    ).toBe(true);
    expect(others.some(({ main, v }) => /[а-яА-Я]/.test(main.name) && !/[а-яА-Я]/.test(v.name))).toBe(true);
    expect(
      others.some(({ main, v }) => /\p{Script=Han}/u.test(main.name) !== /\p{Script=Han}/u.test(v.name)),
    ).toBe(true);
    // A branch suffix.
    expect(
      has(/\(|Branch|BRANCH|Şubesi|ŞUBESİ|Niederlassung|NIEDERLASSUNG|Sucursal|SUCURSAL|Filial/),
    ).toBeGreaterThan(10);
  });

  it('includes typing slips: one letter off the main spelling', () => {
    const letters = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');
    const oneOff = (a: string, b: string): boolean => {
      if (Math.abs(a.length - b.length) > 1 || a === b) return false;
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      const tail = (x: string, k: number) => x.slice(i + k);
      return (
        tail(a, 1) === tail(b, 1) ||
        tail(a, 1) === tail(b, 0) ||
        tail(a, 0) === tail(b, 1) ||
        (a[i] === b[i + 1] && a[i + 1] === b[i] && tail(a, 2) === tail(b, 2))
      );
    };
    const slips = others.filter(({ main, v }) => {
      const core = (s: string) => letters(s.split(' ').slice(0, 2).join(' '));
      return oneOff(core(main.name), core(v.name));
    });
    expect(slips.length).toBeGreaterThan(20);
  });

  it('keeps main names apart within a country: no two firms share a name before the legal form', () => {
    const key = (f: SimFirm) => `${f.countryCode}|${f.name.split(' ').slice(0, -1).join(' ').toLowerCase()}`;
    const mains = groups.map((g) => g[0] as SimFirm).filter((f) => !f.name.includes('.'));
    // Legal forms of one word are the name's last word: what is left must be unique within the country.
    expect(new Set(mains.map(key)).size).toBe(mains.length);
  });

  it('lets spellings share some of their firm’s evidence, written their own way, and some none of it', () => {
    const digits = (s: string) => s.replace(/\D/g, '');
    const sameTax = share(
      ({ main, v }) => digits(main.taxId).length > 5 && digits(main.taxId) === digits(v.taxId),
    );
    expect(sameTax).toBeGreaterThan(0.3);
    expect(sameTax).toBeLessThan(0.7);
    expect(
      others.some(({ main, v }) => main.taxId !== v.taxId && digits(main.taxId) === digits(v.taxId)),
    ).toBe(true);
    const samePhone = share(
      ({ main, v }) => digits(main.tel).length > 5 && digits(v.tel).endsWith(digits(main.tel)),
    );
    expect(samePhone).toBeGreaterThan(0.2);
    expect(others.some(({ main, v }) => main.tel !== v.tel && digits(v.tel).endsWith(digits(main.tel)))).toBe(
      true,
    );
    const nothing = share(
      ({ main, v }) =>
        digits(main.taxId) !== digits(v.taxId) &&
        !digits(v.tel).endsWith(digits(main.tel) || 'x') &&
        v.email.toLowerCase() !== main.email.toLowerCase() &&
        !v.web.toLowerCase().includes(main.web.toLowerCase().replace(/^www\./, '') || 'x'),
    );
    expect(nothing).toBeGreaterThan(0.04);
    // Traps: placeholder tax ids and free mailboxes say nothing about who a firm is.
    expect(others.some(({ v }) => /^0+$/.test(v.taxId))).toBe(true);
    expect(others.some(({ v }) => /@(gmail|hotmail|yahoo|outlook|163|qq)\./.test(v.email))).toBe(true);
  });

  it('puts every spelling on records, the main one most often', () => {
    const uses = new Map<string, number>();
    for (const r of data.records()) {
      for (const code of [r.importerUrlCode, r.exporterUrlCode]) uses.set(code, (uses.get(code) ?? 0) + 1);
    }
    const mainUses = groups.reduce((s, g) => s + (uses.get((g[0] as SimFirm).urlCode) ?? 0), 0);
    const otherUses = others.reduce((s, o) => s + (uses.get(o.v.urlCode) ?? 0), 0);
    expect(otherUses).toBeGreaterThan(0);
    expect(mainUses).toBeGreaterThan(otherUses);
    const used = others.filter((o) => (uses.get(o.v.urlCode) ?? 0) > 0).length;
    expect(used / others.length).toBeGreaterThan(0.5);
  });

  it('can make many more firms than the default, for resolution at scale', () => {
    const big = new SimData({ records: 100, seed: 3, hsSubheadings, firms: 12_000 });
    expect(big.firmCount).toBe(12_000);
    expect(big.firms.length).toBeGreaterThan(20_000);
    expect(() => new SimData({ records: 100, seed: 3, hsSubheadings, firms: 0 })).toThrow(RangeError);
  });
});
