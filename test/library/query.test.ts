import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Library, type DatasetMeta } from '../../src/main/library';
import { DEEP_BLOCK_ROW, rowNumberFilter } from '../../src/main/library/sorted-order';
import { TextOrder } from '../../src/main/library/text-order';
import { firm, shipment, tempDir } from './helpers';

let lib: Library;
let cleanup: () => Promise<void>;
let ds: DatasetMeta;
let firms: DatasetMeta;
let records: Record<string, string>[];

beforeAll(async () => {
  const t = await tempDir();
  cleanup = t.cleanup;
  lib = await Library.open(t.dir);
  const values = ['9.5', '10', '100', '', '-', '2.25', '-3', '1e3', '10', '0.5'];
  const dates = [
    '2024-03-01',
    '2023-12-31',
    '2024-01-15',
    '',
    'n/a',
    '2024-02-29',
    '2022-07-04',
    '2024-03-02',
    '2024-01-01',
    '2024-12-31',
  ];
  records = values.map((v, i) =>
    shipment(i, {
      fobValue: v,
      arrivalDate: dates[i]!,
      importerName: i % 2 ? `Ünal Tekstil ${i}` : `O'Brien "Steel" ${i}`,
      productDetails: i === 3 ? '' : `cotton 100% lot_${i}`,
    }),
  );
  ds = await lib.saveShipmentSearch({}, { total: records.length, shipments: records });
  firms = await lib.saveRecords({ kind: 'firms', request: { product_detail: 'cotton' } }, [
    firm(1),
    firm(2, { shipment_count: null }),
    firm(3),
  ]);
});
afterAll(async () => {
  await lib.close();
  await cleanup();
});

const hashes = (rows: Record<string, unknown>[]): string[] => rows.map((r) => String(r.hashId));
const expectedOrder = (pick: (r: Record<string, string>) => number | null, desc = false): string[] =>
  records
    .map((r, i) => ({ v: pick(r), i, h: r.hashId! }))
    .sort((a, b) => {
      if (a.v === null && b.v === null) return a.i - b.i;
      if (a.v === null) return 1;
      if (b.v === null) return -1;
      return (desc ? b.v - a.v : a.v - b.v) || a.i - b.i;
    })
    .map((x) => x.h);

describe('sorting on typed columns', () => {
  it('sorts decimal text as numbers, non-numbers last, ties in stored order', async () => {
    const num = (r: Record<string, string>): number | null => {
      const s = r.fobValue!;
      return s === '' || Number.isNaN(Number(s)) ? null : Number(s);
    };
    const asc = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      sortModel: [{ colId: 'fobValue', sort: 'asc' }],
    });
    expect(hashes(asc.rows)).toEqual(expectedOrder(num));
    const desc = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      sortModel: [{ colId: 'fobValue', sort: 'desc' }],
    });
    expect(hashes(desc.rows)).toEqual(expectedOrder(num, true));
  });

  it('sorts dates as dates and pages through the sorted order', async () => {
    const day = (r: Record<string, string>): number | null =>
      /^\d{4}-\d{2}-\d{2}$/.test(r.arrivalDate!) ? Date.parse(r.arrivalDate!) : null;
    const all = expectedOrder(day);
    const a = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 4,
      sortModel: [{ colId: 'arrivalDate', sort: 'asc' }],
    });
    const b = await lib.getRows(ds.id, {
      startRow: 4,
      endRow: 8,
      sortModel: [{ colId: 'arrivalDate', sort: 'asc' }],
    });
    expect([...hashes(a.rows), ...hashes(b.rows)]).toEqual(all.slice(0, 8));
    expect(a.lastRow).toBe(10);
  });

  it('sorts firm integers, nulls last', async () => {
    const r = await lib.getRows(firms.id, {
      startRow: 0,
      endRow: 10,
      sortModel: [{ colId: 'shipment_count', sort: 'desc' }],
    });
    expect(r.rows.map((x) => x.shipment_count)).toEqual([9, 3, null]);
  });
});

describe('sorting text like a spreadsheet', () => {
  const names = [
    'Beta Trading',
    'Zulu Ltd',
    'alpha trading',
    '',
    'zeta imports',
    'Émile SARL',
    'Ørsted A/S',
    'Beta Trading',
    'Emile SARL',
  ];
  let people: DatasetMeta;
  beforeAll(async () => {
    people = await lib.saveShipmentSearch(
      {},
      { total: names.length, shipments: names.map((n, i) => shipment(i, { importerName: n })) },
    );
  });
  const sorted = async (sort: 'asc' | 'desc'): Promise<string[]> =>
    (
      await lib.getRows(people.id, { startRow: 0, endRow: 100, sortModel: [{ colId: 'importerName', sort }] })
    ).rows.map((r) => `${String(r.importerName)}#${String(r._row)}`);

  it('ignores case, sorts accented and Nordic letters with their base letter, keeps ties in stored order and empties last', async () => {
    expect(await sorted('asc')).toEqual([
      'alpha trading#2',
      'Beta Trading#0',
      'Beta Trading#7',
      'Emile SARL#8',
      'Émile SARL#5',
      'Ørsted A/S#6',
      'zeta imports#4',
      'Zulu Ltd#1',
      '#3',
    ]);
    expect(await sorted('desc')).toEqual([
      'Zulu Ltd#1',
      'zeta imports#4',
      'Ørsted A/S#6',
      'Émile SARL#5',
      'Emile SARL#8',
      'Beta Trading#0',
      'Beta Trading#7',
      'alpha trading#2',
      '#3',
    ]);
  });

  it('sorts firm text the same way and pages through that order', async () => {
    const f = await lib.saveRecords(
      { kind: 'firms', request: { product_detail: 'x' } },
      ['zeta', 'Alpha', 'beta', 'Ünal', 'Uzun'].map((name, i) => firm(i, { name })),
    );
    const page = async (startRow: number, endRow: number): Promise<unknown[]> =>
      (await lib.getRows(f.id, { startRow, endRow, sortModel: [{ colId: 'name', sort: 'asc' }] })).rows.map(
        (r) => r.name,
      );
    expect([...(await page(0, 2)), ...(await page(2, 5))]).toEqual(['Alpha', 'beta', 'Ünal', 'Uzun', 'zeta']);
  });
});

describe('sorting ids by their bytes where that is the collation order', () => {
  // Digits, letters of one case and hyphens, in lengths that make prefixes and near ties likely.
  const ids = (alphabet: string, n: number): string[] => {
    let x = 7;
    return Array.from({ length: n }, () => {
      let s = '';
      x = (x * 1103515245 + 12345) % 2147483648;
      for (let len = 1 + (x % 5); len > 0; len--) {
        x = (x * 1103515245 + 12345) % 2147483648;
        s += alphabet[x % alphabet.length];
      }
      return s;
    });
  };
  const saved = (values: string[]): Promise<DatasetMeta> =>
    lib.saveShipmentSearch(
      {},
      { total: values.length, shipments: values.map((v, i) => shipment(i, { billOfLadingNo: v })) },
    );
  const viaGrid = async (d: DatasetMeta, sort: 'asc' | 'desc'): Promise<number[]> =>
    (
      await lib.getRows(d.id, { startRow: 0, endRow: 1000, sortModel: [{ colId: 'billOfLadingNo', sort }] })
    ).rows.map((r) => Number(r._row));
  const collated = async (d: DatasetMeta, sort: 'asc' | 'desc'): Promise<number[]> =>
    (
      await lib.reader.all(
        `SELECT row_no FROM shipment_rows WHERE dataset_id = $1
         ORDER BY "billOfLadingNo" COLLATE en ${sort === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, row_no`,
        [d.id],
      )
    ).map((r) => Number(r.row_no));
  const byteOrdered = async (d: DatasetMeta): Promise<boolean> =>
    (
      await new TextOrder(async (sql, params) => lib.reader.one(sql, params)).byteOrdered(
        'shipments',
        'shipment_rows',
        d.id,
        ['billOfLadingNo'],
      )
    ).has('billOfLadingNo');

  it.each([
    ['digits, lower-case letters and hyphens (by bytes)', '0123456789abcdefghijklmnopqrstuvwxyz-', true],
    ['digits, upper-case letters and hyphens (by bytes)', '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-', true],
    ['both cases (collated)', '0123456789abcABC-', false],
    ['two punctuation marks (collated)', '0123456789ab-_', false],
  ])('sorts ids of %s in the collation order', async (_, alphabet, bytes) => {
    const one = alphabet[10]!;
    const values = [...ids(alphabet, 400), '', one, one, '-'];
    const d = await saved(values);
    expect(await byteOrdered(d)).toBe(bytes);
    for (const sort of ['asc', 'desc'] as const) {
      const rows = await viaGrid(d, sort);
      expect(rows).toHaveLength(values.length);
      expect(rows).toEqual(await collated(d, sort));
    }
  });
});

describe('deep blocks of a sorted view', () => {
  const n = DEEP_BLOCK_ROW + 2_000;
  let big: DatasetMeta;
  beforeAll(async () => {
    const rows = Array.from({ length: n }, (_, i) => shipment(i));
    big = await lib.saveShipmentSearch({}, { total: n, shipments: rows });
  });
  // fobValue is (i * 37) % 1000 (helpers.shipment): many ties, kept in stored order.
  const fob = (i: number): number => (i * 37) % 1000;
  const expected = (keep: (i: number) => boolean): number[] =>
    Array.from({ length: n }, (_, i) => i)
      .filter(keep)
      .sort((a, b) => fob(b) - fob(a) || a - b);
  const block = async (startRow: number, endRow: number, filtered = false): Promise<number[]> =>
    (
      await lib.getRows(big.id, {
        startRow,
        endRow,
        sortModel: [{ colId: 'fobValue', sort: 'desc' }],
        ...(filtered
          ? { filterModel: { fobValue: { filterType: 'number', type: 'lessThan', filter: 900 } } }
          : {}),
      })
    ).rows.map((r) => Number(r._row));

  it('are the sorted order from the first block to the last, before and after a write', async () => {
    const all = expected(() => true);
    const at = DEEP_BLOCK_ROW + 500;
    expect(await block(at, at + 200)).toEqual(all.slice(at, at + 200));
    expect(await block(at + 200, at + 400)).toEqual(all.slice(at + 200, at + 400));
    expect(await block(n - 50, n + 50)).toEqual(all.slice(n - 50));
    expect(await block(0, 200)).toEqual(all.slice(0, 200));
    await lib.rename(big.id, 'renamed');
    expect(await block(at, at + 200)).toEqual(all.slice(at, at + 200));
  });

  it("apply the view's filter", async () => {
    const kept = expected((i) => fob(i) < 900);
    const at = DEEP_BLOCK_ROW + 100;
    expect(kept.length).toBeGreaterThan(at + 200);
    expect(await block(at, at + 200, true)).toEqual(kept.slice(at, at + 200));
    expect(await block(0, 100, true)).toEqual(kept.slice(0, 100));
  });

  it('carry the very rows and values a plain read of the same order gives, shown columns and whole rows', async () => {
    // The plain read: the view's order in SQL, every field of each row, by LIMIT and OFFSET. Other
    // datasets of the library hold the same row numbers: only this dataset's rows may come back.
    const plain = async (offset: number, limit: number): Promise<Record<string, unknown>[]> =>
      lib.reader.all(
        `SELECT * FROM shipment_rows WHERE dataset_id = $1 ORDER BY "fobValue__typed" DESC NULLS LAST, row_no LIMIT ${limit} OFFSET ${offset}`,
        [big.id],
      );
    for (const at of [DEEP_BLOCK_ROW + 700, 20, n - 3]) {
      const want = await plain(at, 100);
      const view = {
        startRow: at,
        endRow: at + 100,
        sortModel: [{ colId: 'fobValue', sort: 'desc' as const }],
      };
      const whole = (await lib.getRows(big.id, view)).rows;
      const shownCols = (
        await lib.getRows(big.id, { ...view, columns: ['hashId', 'importerName', 'fobValue'] })
      ).rows;
      expect(whole.map((r) => r._row)).toEqual(want.map((r) => Number(r.row_no)));
      expect(
        whole.map((r) => [r.hashId, r.importerName, r.fobValue, r.productDetails, r.arrivalDate]),
      ).toEqual(want.map((r) => [r.hashId, r.importerName, r.fobValue, r.productDetails, r.arrivalDate]));
      expect(shownCols).toEqual(
        want.map((r) => ({
          _row: Number(r.row_no),
          hashId: r.hashId,
          importerName: r.importerName,
          fobValue: r.fobValue,
        })),
      );
    }
  });
});

describe('the condition a block of scattered rows is read by', () => {
  it('keeps exactly the given row numbers, in any order, one or many, near or far apart', () => {
    const one = rowNumberFilter([42]);
    expect(one.params).toEqual([42, 42, '1']);
    const some = rowNumberFilter([7, 3, 12, 3]);
    expect(some.params).toEqual([3, 12, '1000100001']);
    expect(rowNumberFilter([0, 999_999]).params[2]).toHaveLength(1_000_000);
  });

  it('refuses what is no row number, and a block of no rows', () => {
    expect(() => rowNumberFilter([1, 2.5])).toThrow();
    expect(() => rowNumberFilter([-1])).toThrow();
    expect(() => rowNumberFilter([Number.NaN])).toThrow();
    expect(() => rowNumberFilter([])).toThrow();
  });
});

describe('quick filter over what the grid shows', () => {
  let shown: DatasetMeta;
  const cells: Record<string, string>[] = [
    { arrivalDate: '2021-01-01', quantity: '8.752' },
    { arrivalDate: '2021-01-01T08:30:00', usdFob: '1234.50' },
    { arrivalDate: 'n/a', netWeight: '-', usdCif: '8.75' },
    { arrivalDate: '2022-12-31', quantity: '18.7520', usdCif: '1E3' },
  ];
  beforeAll(async () => {
    shown = await lib.saveShipmentSearch(
      {},
      { total: cells.length, shipments: cells.map((c, i) => shipment(i, c)) },
    );
  });
  const rowsFor = async (quickFilter: string): Promise<number[]> =>
    (await lib.getRows(shown.id, { startRow: 0, endRow: 100, quickFilter })).rows.map((r) => Number(r._row));

  it('finds dates as the grid shows them (yyyy-MM-dd), not a time part it does not show', async () => {
    expect(await rowsFor('2021-01-01')).toEqual([0, 1]);
    expect(await rowsFor('2022-12')).toEqual([3]);
    expect(await rowsFor('T08')).toEqual([]);
    // Text that is not a date is shown, and found, as it was sent.
    expect(await rowsFor('N/A')).toEqual([2]);
  });

  it('finds numbers in the visible number columns as the text the grid shows', async () => {
    expect(await rowsFor('8.752')).toEqual([0, 3]);
    expect(await rowsFor('1234.5')).toEqual([1]);
    expect(await rowsFor('1e3')).toEqual([3]);
    expect(await rowsFor('2021 8.752')).toEqual([0]);
  });

  it('finds firm counts as the numbers shown', async () => {
    const r = await lib.getRows(firms.id, { startRow: 0, endRow: 10, quickFilter: '9' });
    expect(r.rows.map((x) => x.name)).toEqual(['Firm 3']);
    expect(r.lastRow).toBe(1);
  });
});

describe('filters', () => {
  it('number filters compare numerically; inRange excludes its ends', async () => {
    const gt = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      filterModel: { fobValue: { filterType: 'number', type: 'greaterThan', filter: 9.5 } },
    });
    expect(hashes(gt.rows).sort()).toEqual(
      records
        .filter((r) => Number(r.fobValue) > 9.5 && r.fobValue !== '')
        .map((r) => r.hashId)
        .sort(),
    );
    expect(gt.lastRow).toBe(gt.rows.length);
    const range = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      filterModel: { fobValue: { filterType: 'number', type: 'inRange', filter: 0.5, filterTo: 10 } },
    });
    expect(range.rows.map((r) => r.fobValue).sort()).toEqual(['2.25', '9.5']);
  });

  it('date filters use the day; blank finds empty and missing text', async () => {
    const before = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      filterModel: { arrivalDate: { filterType: 'date', type: 'lessThan', dateFrom: '2024-01-01 00:00:00' } },
    });
    expect(before.rows.map((r) => r.arrivalDate).sort()).toEqual(['2022-07-04', '2023-12-31']);
    const blank = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      filterModel: { productDetails: { filterType: 'text', type: 'blank' } },
    });
    expect(hashes(blank.rows)).toEqual([records[3]!.hashId]);
  });

  it('text filters are case-insensitive and treat % _ and quotes as plain characters', async () => {
    const pct = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      filterModel: { productDetails: { filterType: 'text', type: 'contains', filter: '100%' } },
    });
    expect(pct.lastRow).toBe(9);
    const under = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      filterModel: { productDetails: { filterType: 'text', type: 'endsWith', filter: 'LOT_7' } },
    });
    expect(hashes(under.rows)).toEqual([records[7]!.hashId]);
    const quote = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      filterModel: { importerName: { filterType: 'text', type: 'startsWith', filter: `o'brien "steel"` } },
    });
    expect(quote.lastRow).toBe(5);
    const combined = await lib.getRows(ds.id, {
      startRow: 0,
      endRow: 100,
      filterModel: {
        importerName: {
          filterType: 'text',
          operator: 'OR',
          conditions: [
            { filterType: 'text', type: 'equals', filter: 'ünal tekstil 1' },
            { filterType: 'text', type: 'equals', filter: 'ÜNAL TEKSTIL 3' },
          ],
        },
      },
    });
    expect(hashes(combined.rows)).toEqual([records[1]!.hashId, records[3]!.hashId]);
  });

  it('quick filter needs every word somewhere in the searched columns', async () => {
    const q = await lib.getRows(ds.id, { startRow: 0, endRow: 100, quickFilter: 'ünal lot_5' });
    expect(hashes(q.rows)).toEqual([records[5]!.hashId]);
  });
});

describe('no SQL injection', () => {
  const evilNames = [
    'fobValue; DROP TABLE datasets; --',
    '"hashId"',
    'row_no',
    '_extra',
    'dataset_id',
    "fobValue' OR '1'='1",
  ];
  it.each(evilNames)('refuses a colId that is not a field: %s', async (colId) => {
    await expect(
      lib.getRows(ds.id, { startRow: 0, endRow: 10, sortModel: [{ colId, sort: 'asc' }] }),
    ).rejects.toMatchObject({ kind: 'InvalidInput' });
    await expect(
      lib.getRows(ds.id, {
        startRow: 0,
        endRow: 10,
        filterModel: { [colId]: { filterType: 'text', type: 'contains', filter: 'x' } },
      }),
    ).rejects.toMatchObject({ kind: 'InvalidInput' });
  });

  it('treats hostile filter values as data', async () => {
    const hostile = ["x'); DROP TABLE shipment_rows; --", "' OR 1=1 --", '%', '\\', "'"];
    for (const filter of hostile) {
      // What a literal substring match finds, computed independently of SQL.
      const expected = records.filter((x) =>
        x.importerName!.toLowerCase().includes(filter.toLowerCase()),
      ).length;
      const r = await lib.getRows(ds.id, {
        startRow: 0,
        endRow: 100,
        filterModel: { importerName: { filterType: 'text', type: 'contains', filter } },
      });
      expect(r.lastRow).toBe(expected);
      const inProduct = records.filter(
        (x) => x.productDetails!.includes(filter) || x.importerName!.toLowerCase().includes(filter),
      ).length;
      const q = await lib.getRows(ds.id, { startRow: 0, endRow: 100, quickFilter: filter });
      expect(q.lastRow).toBe(inProduct);
    }
    // The quote really matched something: O'Brien rows.
    expect((await lib.getRows(ds.id, { startRow: 0, endRow: 100, quickFilter: "o'brien" })).lastRow).toBe(5);
    expect((await lib.get(ds.id)).storedRows).toBe(10);
    expect((await lib.getRows(ds.id, { startRow: 0, endRow: 100 })).rows).toHaveLength(10);
  });

  it('refuses malformed models and oversized blocks', async () => {
    await expect(
      lib.getRows(ds.id, {
        startRow: 0,
        endRow: 100,
        sortModel: [{ colId: 'fobValue', sort: 'asc; DROP' as 'asc' }],
      }),
    ).rejects.toMatchObject({ kind: 'InvalidInput' });
    await expect(lib.getRows(ds.id, { startRow: 0, endRow: 100_000 })).rejects.toMatchObject({
      kind: 'InvalidInput',
    });
    await expect(
      lib.getRows(ds.id, {
        startRow: 0,
        endRow: 10,
        filterModel: { importerName: { filterType: 'number', type: 'equals', filter: 1 } },
      }),
    ).rejects.toMatchObject({ kind: 'InvalidInput' });
  });
});
