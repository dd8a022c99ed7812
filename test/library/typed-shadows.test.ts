import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDecimalText, parseIsoDay } from '@shared/fields';
import { Library, MIGRATIONS, SCHEMA_VERSION, importFile } from '../../src/main/library';
import { SHIPMENT_SHADOWS, dateShadow, daysFromCivil, decimalShadow } from '../../src/main/library/shadows';
import { shipment, tempDir } from './helpers';
import { writeFile } from 'node:fs/promises';

/** The migration that added the typed shadows. */
const SHADOWS_VERSION = MIGRATIONS.find((m) => m.description.startsWith('typed shadows'))!.version;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** Texts that stress the rules: fillers, commas, blanks, exponents, signs, overflow, odd days. */
const TRICKY_DECIMALS = [
  '1234.50',
  '1,234.50',
  '-1,234',
  '  42 ',
  '.5',
  '5.',
  '+3',
  '-0',
  '1.5e3',
  '0012',
  '12,5',
  '1,23',
  '1_000',
  'inf',
  'NaN',
  '1e309',
  '-',
  'N/A',
  '',
  '12345678901234567890',
  '123456789012345678901',
  '-.5',
  '.',
  '1.2.3',
  '9007199254740993',
];
const TRICKY_DAYS = [
  '2024-02-29',
  '2023-02-29',
  '2023-02-30',
  ' 2024-01-05 ',
  '2024/01/05',
  '2024-1-5',
  '0050-03-01',
  '1600-02-29',
  '1900-02-29',
  '9999-12-31',
  '2024-01-05T10:00:00',
  '',
  '-',
];

async function shadowsOf(lib: Library, id: string): Promise<Record<string, unknown>[]> {
  const cols = SHIPMENT_SHADOWS.map(
    (s) => `${s.sqlType === 'DATE' ? `CAST("${s.column}" AS VARCHAR)` : `"${s.column}"`} AS "${s.field}"`,
  );
  return lib.reader.all(
    `SELECT row_no, ${cols.join(', ')} FROM shipment_rows WHERE dataset_id = $1 ORDER BY row_no`,
    [id],
  );
}

/** -0 and 0 are one number to a sort and a filter (JSON reads back either as 0). */
const zeroed = (n: number | null): number | null => (n === 0 ? 0 : n);
function expectedDecimal(text: string): number | null {
  return zeroed(parseDecimalText(text));
}

function expectedDay(text: string): string | null {
  const d = parseIsoDay(text);
  if (!d) return null;
  const y = String(d.year).padStart(4, '0');
  return `${y}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

function records(): Record<string, string>[] {
  const n = Math.max(TRICKY_DECIMALS.length, TRICKY_DAYS.length);
  return Array.from({ length: n }, (_, i) =>
    shipment(i, {
      fobValue: TRICKY_DECIMALS[i % TRICKY_DECIMALS.length]!,
      usdFob: TRICKY_DECIMALS[(i + 3) % TRICKY_DECIMALS.length]!,
      createdAt: i % 2 === 0 ? '1700000000.123456' : TRICKY_DECIMALS[i % TRICKY_DECIMALS.length]!,
      arrivalDate: TRICKY_DAYS[i % TRICKY_DAYS.length]!,
    }),
  );
}

describe('typed shadows of decimal, date and epoch fields', () => {
  it('read every text as the shared rules do, in JavaScript', () => {
    for (const t of TRICKY_DECIMALS) {
      const n = decimalShadow(t);
      expect(Number.isNaN(n) ? null : n).toBe(parseDecimalText(t));
    }
    const texts = fc.sample(
      fc
        .array(fc.constantFrom('0', '1', '9', '12', '.', '-', '+', ',', 'e', ' ', 'x', '234'), {
          minLength: 1,
          maxLength: 12,
        })
        .map((p) => p.join('')),
      5000,
    );
    const off = texts.filter((t) => {
      const n = decimalShadow(t);
      return !Object.is(Number.isNaN(n) ? null : n, parseDecimalText(t));
    });
    expect(off).toEqual([]);
    for (const t of TRICKY_DAYS) {
      const day = expectedDay(t);
      expect(dateShadow(t)).toBe(day === null ? null : new Date(`${day}T00:00:00Z`).getTime() / 86_400_000);
    }
    // Years before 100 (which Date.UTC would move to the 1900s) and far ones.
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(daysFromCivil(50, 3, 1)).toBe(new Date('0050-03-01T00:00:00Z').getTime() / 86_400_000);
    expect(daysFromCivil(9999, 12, 31)).toBe(new Date('9999-12-31T00:00:00Z').getTime() / 86_400_000);
  });

  it('are filled at ingest, the text kept as it came', async () => {
    const lib = await Library.open(dir);
    try {
      const recs = records();
      const d = await lib.saveRecords({ kind: 'shipments', request: {} }, recs);
      const rows = await shadowsOf(lib, d.id);
      expect(rows).toHaveLength(recs.length);
      rows.forEach((r, i) => {
        const rec = recs[i]!;
        for (const s of SHIPMENT_SHADOWS) {
          const text = rec[s.field]!;
          const got = r[s.field];
          if (s.sqlType === 'DATE') expect(got, `${s.field} of ${text}`).toBe(expectedDay(text));
          else
            expect(got === null ? null : zeroed(Number(got)), `${s.field} of ${JSON.stringify(text)}`).toBe(
              expectedDecimal(text),
            );
        }
      });
      const block = await lib.getRows(d.id, { startRow: 0, endRow: 100 });
      expect(block.rows.map((r) => r.fobValue)).toEqual(recs.map((r) => r.fobValue));
    } finally {
      await lib.close();
    }
  });

  it('are filled by an import as by a search', async () => {
    const lib = await Library.open(dir);
    try {
      const csv = join(dir, 'tricky.csv');
      const q = (t: string): string => `"${t.replace(/"/g, '""')}"`;
      await writeFile(
        csv,
        [
          'hashId,fobValue,arrivalDate',
          ...TRICKY_DAYS.map((day, i) => `h${i},${q(TRICKY_DECIMALS[i]!)},${q(day)}`),
        ].join('\n'),
      );
      const r = await importFile(lib, csv);
      const rows = await shadowsOf(lib, r.dataset.id);
      const stored = await lib.getRows(r.dataset.id, { startRow: 0, endRow: 100 });
      rows.forEach((row, i) => {
        const rec = stored.rows[i]!;
        expect(row.fobValue === null ? null : zeroed(Number(row.fobValue))).toBe(
          expectedDecimal(String(rec.fobValue ?? '')),
        );
        expect(row.arrivalDate).toBe(expectedDay(String(rec.arrivalDate ?? '')));
      });
      expect(rows.some((row) => row.fobValue !== null)).toBe(true);
      expect(rows.some((row) => row.arrivalDate !== null)).toBe(true);
    } finally {
      await lib.close();
    }
  });

  it('agree with the rules in SQL, so a library written before them migrates to the same values', async () => {
    const lib = await Library.open(dir);
    const recs = records();
    const d = await lib.saveRecords({ kind: 'shipments', request: {} }, recs);
    const fromIngest = await shadowsOf(lib, d.id);
    await lib.close();

    // The same rows as the version before left them (no typed columns), then opened by this one.
    const inst = await DuckDBInstance.create(join(dir, 'library.duckdb'));
    const c = await inst.connect();
    for (const sh of SHIPMENT_SHADOWS) await c.run(`ALTER TABLE shipment_rows DROP COLUMN "${sh.column}"`);
    await c.run('UPDATE schema_version SET version = $1', [SHADOWS_VERSION - 1]);
    const left = await c.runAndReadAll(
      `SELECT count(*) AS n FROM information_schema.columns WHERE table_name = 'shipment_rows' AND column_name LIKE '%typed'`,
    );
    expect(Number(left.getRowObjectsJson()[0]?.n)).toBe(0);
    c.closeSync();
    inst.closeSync();

    const upgraded = await Library.open(dir);
    try {
      const v = await upgraded.reader.one('SELECT max(version) AS v FROM schema_version');
      expect(Number(v?.v)).toBe(SCHEMA_VERSION);
      expect(await shadowsOf(upgraded, d.id)).toEqual(fromIngest);
      // Sorted and filtered on the filled columns as a new dataset is.
      const sorted = await upgraded.getRows(d.id, {
        startRow: 0,
        endRow: 100,
        sortModel: [{ colId: 'fobValue', sort: 'desc' }],
      });
      const numbers = sorted.rows.map((r) => parseDecimalText(r.fobValue));
      const firstText = numbers.indexOf(null);
      expect(firstText).toBeGreaterThan(0);
      expect(numbers.slice(firstText).every((n) => n === null)).toBe(true);
      const head = numbers.slice(0, firstText) as number[];
      expect(head).toEqual([...head].sort((a, b) => b - a));
      const filtered = await upgraded.getRows(d.id, {
        startRow: 0,
        endRow: 100,
        filterModel: { arrivalDate: { filterType: 'date', type: 'equals', dateFrom: '2024-02-29' } },
      });
      expect(filtered.rows.length).toBeGreaterThan(0);
      expect(filtered.rows.every((r) => String(r.arrivalDate).trim() === '2024-02-29')).toBe(true);
    } finally {
      await upgraded.close();
    }
  });
});
