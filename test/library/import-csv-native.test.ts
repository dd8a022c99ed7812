import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { neutraliseCsvFormula } from '../../src/shared/csv-formula';
import { previewImport } from '../../src/main/library';
import {
  NativeCsvDeclined,
  StagedRowsChangedError,
  appendStagedRows,
  stagingTableDdl,
  type StagedSource,
} from '../../src/main/library/ingest';
import { RowConverter } from '../../src/main/library/import/convert';
import { stageCsvNatively } from '../../src/main/library/import/csv-native';
import { RowStage, type StagedPart } from '../../src/main/library/import/row-stage';
import { openTableSource } from '../../src/main/library/import/table-source';
import { useLibrary } from '../helpers/library';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-import-csv-native-');
const l = useLibrary('portolan-import-csv-native-lib-');

type Row = Record<string, unknown>;

/** Rows without the dataset id (NULL in the worker's parts, the dataset's id once stored). */
function withoutDataset(rows: readonly Row[]): Row[] {
  return rows.map(({ dataset_id: _id, ...rest }) => rest);
}

/** The Parquet parts' rows in order, each with its row number in the whole import. */
async function partRows(parts: readonly StagedSource[]): Promise<Row[]> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const out: Row[] = [];
  try {
    for (const part of parts) {
      if (!('parquet' in part)) throw new Error('the row path stages Parquet parts');
      const r = await conn.runAndReadAll(`SELECT * FROM read_parquet('${part.parquet}') ORDER BY row_no`);
      const rows = r.getRowObjectsJson();
      const first = out.length;
      for (const row of rows) out.push({ ...row, row_no: first + Number(row.row_no) });
    }
  } finally {
    conn.closeSync();
    db.closeSync();
  }
  return withoutDataset(out);
}

/**
 * Stores a plain CSV part as the library does (appendStagedRows in a transaction of its own, in a
 * table of the row table's shape): its rows, or null when it was declined and rolled back.
 */
async function storeNative(source: StagedSource, before?: () => Promise<void>): Promise<Row[] | null> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    await conn.run(stagingTableDdl('shipments', 'shipment_rows'));
    await before?.();
    await conn.run('BEGIN TRANSACTION');
    try {
      await appendStagedRows(conn, 'shipments', 'd1', 0, source);
      await conn.run('COMMIT');
    } catch (e) {
      await conn.run('ROLLBACK');
      if (e instanceof NativeCsvDeclined) {
        const left = await conn.runAndReadAll('SELECT count(*)::INTEGER FROM shipment_rows');
        expect(left.getRows()[0]![0]).toBe(0);
        return null;
      }
      throw e;
    }
    const r = await conn.runAndReadAll('SELECT * FROM shipment_rows ORDER BY row_no');
    return withoutDataset(r.getRowObjectsJson());
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** A CSV written as `name` and what the import prepares for it: its plan, its table source, a staging folder. */
async function prepareCsv(name: string, text: string) {
  const path = join(t.dir, name);
  await writeFile(path, text);
  const prepared = await previewImport(path);
  const source = await openTableSource(path, name);
  const converter = (): RowConverter =>
    new RowConverter(
      prepared.plan.kind,
      prepared.plan,
      prepared.headers,
      () => null,
      false,
      (r) => `row ${r.number}`,
    );
  // Made again when a test stages the same file name twice.
  const dir = join(t.dir, `${name}-stage`);
  await mkdir(dir, { recursive: true });
  return { path, prepared, source, converter, dir };
}

/** DuckDB's reader over a prepared CSV, as the worker runs it; `onPart` answers whether the part was kept. */
function stageNatively(
  csvFile: Awaited<ReturnType<typeof prepareCsv>>,
  onPart: (part: StagedPart) => Promise<boolean>,
): ReturnType<typeof stageCsvNatively> {
  const { path, prepared, source, converter, dir } = csvFile;
  return stageCsvNatively({
    path,
    layout: source.csv!,
    kind: prepared.plan.kind,
    headerRow: prepared.plan.headerRow,
    decimalComma: prepared.plan.locale.decimal === ',',
    columns: converter().columnPlan(),
    dir,
    signal: new AbortController().signal,
    onPart,
  });
}

/**
 * Stages a CSV both ways in this process: DuckDB's reader (null when it sends the file to the row
 * path) and the row path (Papa Parse, the row converter, the row stage), under the preview's plan.
 */
async function stageBoth(
  name: string,
  text: string,
): Promise<{ native: Row[] | null; rows: Row[]; warnings: number; blankRows: number }> {
  const csvFile = await prepareCsv(name, text);
  const { prepared, source, converter, dir } = csvFile;
  const stored: { rows: Row[] | null } = { rows: null };
  let handed = 0;
  const staged = await stageNatively(csvFile, async (part) => {
    handed += 1;
    stored.rows = await storeNative(part.source);
    return stored.rows !== null;
  });
  expect(handed).toBeLessThanOrEqual(1);
  const conv = converter();
  const stage = await RowStage.open(prepared.plan.kind, dir);
  const files: StagedSource[] = [];
  try {
    for await (const batch of source.rows(0, undefined, prepared.plan.headerRow)) {
      const converted = conv.convert(batch);
      if (converted.n > 0) await stage.append(converted);
      const part = await stage.cut();
      if (part) files.push(part.source);
    }
    const last = await stage.cut();
    if (last) files.push(last.source);
    const drained = await stage.drain();
    if (drained) files.push(drained.source);
  } finally {
    await stage.close();
  }
  const rows = await partRows(files);
  const native = staged === null ? null : stored.rows;
  if (staged === null) expect(stored.rows).toBeNull();
  if (native) expect(staged!.rows).toBe(native.length);
  return { native, rows, warnings: conv.warnings().length, blankRows: conv.blankRows };
}

const HEADER = ['Importer Name', 'HS Code', 'USD FOB', 'Arrival Date', 'Remarks', 'Quantity', 'Updated At'];

function csv(rows: unknown[][], delimiter = ','): string {
  return Papa.unparse([HEADER, ...rows], { delimiter, newline: '\n' }) + '\n';
}

describe('a CSV read by DuckDB’s reader', () => {
  it('stores exactly what the row path stores: quotes, separators, formula escapes, extra columns, empty cells', async () => {
    const rows = [
      ['Acme "Steel", Ltd', '720810', '12500.50', '2025-01-05', 'urgent, call', '3', '1767225600.123456'],
      [neutraliseCsvFormula('=HYPERLINK("x")'), '7208', '1,234.50', '', '', '', ''],
      [neutraliseCsvFormula("'=kept"), '', '-', '2024-02-29', 'ünïcödé 😀 \\ "q"', '-5', '-'],
      ['', '', '', '', '', '', '1.5e3'],
      ['N/A', '72081000', '.5', '2025-12-31', '{"json": 1}', '+7', '0'],
    ];
    const r = await stageBoth('plain.csv', csv(rows));
    expect(r.native).not.toBeNull();
    expect(r.native).toEqual(r.rows);
    expect(r.rows).toHaveLength(rows.length);
    // The row path's values, spot-checked: the escape undone, the extra column kept as JSON.
    expect(r.rows[1]!.importerName).toBe('=HYPERLINK("x")');
    expect(r.rows[2]!.importerName).toBe("'=kept");
    expect(JSON.parse(String(r.rows[0]!._extra))).toEqual({ Remarks: 'urgent, call' });
    expect(r.rows[3]!._extra).toBeNull();
  });

  it('reads CRLF lines, a `sep=` line and another separator alike', async () => {
    const rows = [
      ['Acme', '720810', '1', '2025-01-05', 'x;y', '3', ''],
      ['Beta', '7208', '2', '2025-01-06', '', '', ''],
    ];
    const text = `sep=;\r\n${csv(rows, ';').replace(/\n/g, '\r\n')}`;
    const r = await stageBoth('crlf.csv', text);
    expect(r.native).not.toBeNull();
    expect(r.native).toEqual(r.rows);
  });

  it.each([
    ['a blank line', csv([['a', '7208', '1', '', '', '', '']]) + '\n' + 'b,7208,2,,,,\n'],
    [
      'a row of empty cells',
      csv([
        ['a', '7208', '1', '', '', '', ''],
        ['', '', '', '', '', '', ''],
      ]),
    ],
    ['a line break in a quoted value', csv([['a\nb', '7208', '1', '', '', '', '']])],
    ['blanks before a quoted value', `${HEADER.join(',')}\na, "7208",1,,,,\n`],
    ['a number that is not one', csv([['a', '7208', '12,5', '', '', '', '']])],
    ['a day that is not one', csv([['a', '7208', '1', '31.12.2025', '', '', '']])],
    ['an amount with a currency sign', csv([['a', '7208', '$1,500.00', '', '', '', '']])],
    ['a day written as yyyyMMdd', csv([['a', '7208', '1', '20250105', '', '', '']])],
    ['a day number', csv([['a', '7208', '1', '45658', '', '', '']])],
    ['a day at midnight written with AM', csv([['a', '7208', '1', '1/5/2025 12:00:00 AM', '', '', '']])],
    ['an HS code that lost a leading zero', csv([['a', '30110', '1', '', '', '', '']])],
    [
      'a totals row',
      csv([
        ['a', '7208', '1', '', '', '', ''],
        ['', ' Grand Total: ', '1', '', '', '', ''],
      ]),
    ],
    ['a row of another width', `${HEADER.join(',')}\na,7208,1,,,,,extra\n`],
    ['a quote that never ends', `${HEADER.join(',')}\n"a,7208,1,,,,\n`],
    ['old Mac line breaks', csv([['a', '7208', '1', '', '', '', '']]).replace(/\n/g, '\r')],
  ])('leaves a file with %s to the row path', async (_what, text) => {
    const name = `${_what.replace(/\W+/g, '-')}.csv`;
    const path = join(t.dir, name);
    await writeFile(path, text);
    let rowPath: Awaited<ReturnType<typeof stageBoth>> | null = null;
    try {
      rowPath = await stageBoth(name, text);
    } catch {
      // The row path refuses some of these files (the import says why); DuckDB's reader must not take them either.
    }
    if (rowPath) expect(rowPath.native).toBeNull();
  });

  it('leaves a file with notes under its table (lines of other widths below a blank line) to the row path, which leaves them out', async () => {
    const r = await stageBoth(
      'notes.csv',
      csv([['a', '7208', '1', '', '', '', '']]) + '\nSource: customs declarations, 2025\nNote: in USD\n',
    );
    expect(r.native).toBeNull();
    expect(r.rows.map((x) => x.importerName)).toEqual(['a']);
    expect(r.blankRows).toBe(1);
  });

  it('leaves out a row index as the row path does: not stored, and a row filled only there is blank', async () => {
    const indexed = (rows: unknown[][]) =>
      Papa.unparse([['', ...HEADER], ...rows.map((r, i) => [i, ...r])], { newline: '\n' }) + '\n';
    const plain = await stageBoth(
      'pandas.csv',
      indexed([
        ['Acme', '720810', '1', '2025-01-05', 'urgent', '3', ''],
        ['Beta', '7208', '2', '2025-01-06', '', '', ''],
      ]),
    );
    expect(plain.native).not.toBeNull();
    expect(plain.native).toEqual(plain.rows);
    expect(plain.rows.map((r) => r._extra)).toEqual([JSON.stringify({ Remarks: 'urgent' }), null]);
    const onlyIndex = await stageBoth(
      'pandas-blank.csv',
      indexed([
        ['Acme', '720810', '1', '', '', '', ''],
        ['', '', '', '', '', '', ''],
        ['Beta', '7208', '2', '', '', '', ''],
      ]),
    );
    expect(onlyIndex.native).toBeNull();
    expect(onlyIndex.rows.map((r) => r.importerName)).toEqual(['Acme', 'Beta']);
    expect(onlyIndex.blankRows).toBe(1);
  });

  it('keeps nothing of a file saved again between the look at its bytes and its read', async () => {
    const csvFile = await prepareCsv(
      'changed.csv',
      csv([['Acme', '720810', '1', '2025-01-05', '', '3', '']]),
    );
    const { path } = csvFile;
    let refused = 0;
    const staged = await stageNatively(csvFile, async (part) => {
      // Saved again, as many lines: blanks before a quote, which DuckDB's reader reads otherwise.
      await expect(
        storeNative(part.source, () =>
          writeFile(path, `${HEADER.join(',')}\nAcme, "720810",1,2025-01-05,,3,\n`),
        ),
      ).rejects.toThrow(StagedRowsChangedError);
      refused += 1;
      return false;
    });
    expect(refused).toBe(1);
    expect(staged).toBeNull();
    // Unchanged, the same file is kept.
    await writeFile(path, csv([['Acme', '720810', '1', '2025-01-05', '', '3', '']]));
    const again = await stageBoth('changed.csv', csv([['Acme', '720810', '1', '2025-01-05', '', '3', '']]));
    expect(again.native).toEqual(again.rows);
  });

  it('agrees with the row path on random files of awkward values, most of them read natively', async () => {
    const pieces = [
      'a',
      'Z',
      ' ',
      ',',
      ';',
      '"',
      "'",
      '=',
      '+',
      '-',
      '@',
      '.',
      '0',
      '7',
      '1,234',
      'é',
      '😀',
      '\t',
      'N/A',
      '2025-01-05',
    ];
    let seed = 7;
    // mulberry32: a small seeded generator, so a failure can be replayed.
    const rand = (n: number): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) % n;
    };
    const cell = (): string => {
      const k = rand(4);
      let s = '';
      for (let i = 0; i < k; i++) s += pieces[rand(pieces.length)]!;
      return neutraliseCsvFormula(s);
    };
    let native = 0;
    for (let f = 0; f < 8; f++) {
      // Text in every column but the mapped name (typed columns would send most files to the row path).
      const rows = Array.from({ length: 8 }, () => [cell(), '', '', '', cell(), '', '']);
      const r = await stageBoth(`random-${f}.csv`, csv(rows));
      // A file left to the row path is read as before; one read natively must agree with it.
      if (r.native) {
        native += 1;
        expect(r.native).toEqual(r.rows);
      }
    }
    expect(native).toBeGreaterThan(2);
  }, 90_000);
});

describe('a CSV that changes on disk between the look at its bytes and its copy into the library', () => {
  /** The part DuckDB’s reader hands on for `text`, as the worker hands it on. */
  async function checkedPart(name: string, text: string): Promise<{ path: string; source: StagedSource }> {
    const csvFile = await prepareCsv(name, text);
    const parts: StagedSource[] = [];
    const staged = await stageNatively(csvFile, async (part) => {
      parts.push(part.source);
      return true;
    });
    expect(staged?.rows).toBe(3);
    return { path: csvFile.path, source: parts[0]! };
  }

  const rows = [
    ['Acme', '720810', '1', '2025-01-05', '', '', ''],
    ['Beta', '720851', '2', '2025-01-06', '', '', ''],
    ['Gamma', '720852', '3', '2025-01-07', '', '', ''],
  ];

  async function copy(source: StagedSource): Promise<{ stored: Promise<number>; id: string }> {
    const id = await l.lib.beginImport({
      kind: 'shipments',
      request: {},
      name: 'changing',
      source: 'import',
    });
    return { id, stored: l.lib.appendImported(id, 'shipments', 0, source) };
  }

  async function rowsOf(id: string): Promise<number> {
    return Number(
      (await l.lib.reader.one('SELECT count(*) AS n FROM shipment_rows WHERE dataset_id = $1', [id]))?.n,
    );
  }

  it('stores the rows checked when the file is as it was', async () => {
    const { source } = await checkedPart('same.csv', csv(rows));
    const { id, stored } = await copy(source);
    expect(await stored).toBe(3);
    expect(await rowsOf(id)).toBe(3);
  });

  it('stores nothing when rows were added after the check', async () => {
    const { path, source } = await checkedPart('grown.csv', csv(rows));
    await writeFile(path, csv([...rows, ['Delta', '720853', '4', '2025-01-08', '', '', '']]));
    const { id, stored } = await copy(source);
    await expect(stored).rejects.toThrow(StagedRowsChangedError);
    expect(await rowsOf(id)).toBe(0);
  });

  it('stores nothing when a value changed into one the check would not have passed', async () => {
    const { path, source } = await checkedPart('edited.csv', csv(rows));
    // The same number of rows; an HS code that lost its leading zero needs the row path's warning.
    await writeFile(path, csv([rows[0]!, ['Beta', '30110', '2', '2025-01-06', '', '', ''], rows[2]!]));
    const { id, stored } = await copy(source);
    await expect(stored).rejects.toThrow(StagedRowsChangedError);
    expect(await rowsOf(id)).toBe(0);
  });
});
