/**
 * The grid on a 1,000,000-row shipment dataset, never loading all rows into JS:
 *  - first block (100 rows, stored order) after reopening the file — goal ≤ 150 ms;
 *  - a sort on a decimal column (its typed shadow), a date column and a text column — goal ≤ 500 ms;
 *  - a filter + sort, and the quick filter;
 * next to baselines measured in the same run: a bare `LIMIT 100` scan for the first block, and the
 * top-100 sort keys on the typed shadow column vs the shared rule (and a bare TRY_CAST) on the text.
 * The rows are stored by the app's own ingest (saveShipmentSearch) and copied in SQL with every
 * column, the typed shadows included.
 * Sorted and filtered blocks are measured as the grid asks for them (the columns it shows, its 16 by
 * default, plus the row id) next to whole rows (every stored field) in the same run.
 * Then the same rows again in a library file as older versions wrote it (DuckDB's v1.0 storage format,
 * no typed shadows until opening it migrates it): opening it and every case again.
 *
 *   npm run bench -- library-grid
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../src/main/library';
import { withLibraryFile } from './library-file';
import { generateAccount, startSimulator } from '../src/main/sim';
import { DEFAULT_SHIPMENT_COLUMNS } from '../src/shared/fields';
import { dateExpression, decimalExpression, shadowColumnName } from '../src/main/library/fields';
import { SHIPMENT_SHADOWS } from '../src/main/library/shadows';
import { rowNumberFilter } from '../src/main/library/sorted-order';
import type { SqlParams } from '../src/main/library/db';
import type { GridQuery } from '../src/main/library';

const ROWS = 1_000_000;
const BASE = 20_000;
const ROUNDS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timed(fn: () => Promise<unknown>, rounds = ROUNDS): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

function line(label: string, ms: number, goal?: number, baseline?: number): void {
  const g = goal === undefined ? '' : ` (goal ≤ ${goal} ms: ${ms <= goal ? 'MET' : 'NOT MET'})`;
  const b =
    baseline === undefined ? '' : `, ${(ms / baseline).toFixed(2)}× baseline ${baseline.toFixed(1)} ms`;
  console.log(`${label.padEnd(46)} ${ms.toFixed(1).padStart(8)} ms${b}${g}`);
}

/**
 * Opens a library file and measures, on the dataset just opened: the first blocks in stored order, then
 * every sort and filter case, each as the grid asks for it (its shown columns) next to whole rows in
 * the same run.
 */
async function measureFile(dir: string, id: string): Promise<void> {
  // Reopen: the first block is what an analyst waits for when opening a saved dataset.
  const tOpen = performance.now();
  const lib = await Library.open(dir);
  const openMs = performance.now() - tOpen;
  try {
    await measureCases(lib, id, openMs);
  } finally {
    await lib.close();
  }
}

async function measureCases(lib: Library, id: string, openMs: number): Promise<void> {
  const q = (extra: Partial<GridQuery> = {}): GridQuery => ({ startRow: 0, endRow: 100, ...extra });
  let t = performance.now();
  const first = await lib.getRows(id, q());
  const coldFirst = performance.now() - t;
  if (first.rows.length !== 100 || first.lastRow !== ROWS) throw new Error('first block is wrong');
  const bare = await timed(() => lib.reader.all(`SELECT * FROM shipment_rows LIMIT 100`));
  console.log(
    `${'open library file (migrating it if it is older)'.padEnd(46)} ${openMs.toFixed(1).padStart(8)} ms`,
  );
  line('first block, cold (just opened)', coldFirst, 150, bare);
  line('first block, warm', await timed(() => lib.getRows(id, q())), 150, bare);
  line(
    'block at row 900,000 (stored order)',
    await timed(() => lib.getRows(id, q({ startRow: 900_000, endRow: 900_100 }))),
    150,
    bare,
  );

  // The grid asks for the columns it shows (its default 16), never whole rows: the path the app runs.
  // Whole rows (every stored field) are measured next to it in the same run, as the baseline.
  const shown = { columns: [...DEFAULT_SHIPMENT_COLUMNS] };
  const once = async (query: GridQuery): Promise<number> => {
    const s = performance.now();
    await lib.getRows(id, query);
    return performance.now() - s;
  };
  const sortBy = (colId: string, sort: 'asc' | 'desc'): Pick<GridQuery, 'sortModel'> => ({
    sortModel: [{ colId, sort }],
  });

  t = performance.now();
  const sorted = await lib.getRows(id, q({ ...shown, ...sortBy('fobValue', 'desc') }));
  const coldSort = performance.now() - t;
  const fobs = sorted.rows.map((r) => Number(r.fobValue));
  if (fobs.some((v, i) => i > 0 && v > fobs[i - 1]!)) throw new Error('sort is wrong');
  const allowed = new Set<string>([...DEFAULT_SHIPMENT_COLUMNS, '_row']);
  if (Object.keys(sorted.rows[0]!).some((k) => !allowed.has(k)))
    throw new Error('a shown-column block carries other fields');
  line('sort fobValue desc (decimal text), first run', coldSort, 500);
  line(
    'sort arrivalDate asc (date text), first run',
    await once(q({ ...shown, ...sortBy('arrivalDate', 'asc') })),
    500,
  );
  // What the typed shadows save: the top-100 sort keys on the stored typed column (what the app
  // sorts by) next to the shared rule applied to the text on every query (what it did before), and
  // the rule next to DuckDB's bare casts, all in the same run.
  const keys = (by: string): Promise<unknown> =>
    lib.reader.all(
      `SELECT row_no FROM shipment_rows WHERE dataset_id = $1 ORDER BY ${by} NULLS LAST, row_no LIMIT 100`,
      [id],
    );
  const shadowFob = await timed(() => keys(`"${shadowColumnName('fobValue')}" DESC`));
  const ruleFob = await timed(() => keys(`${decimalExpression('"fobValue"')} DESC`));
  const castFob = await timed(() => keys(`TRY_CAST("fobValue" AS DOUBLE) DESC`));
  line('top-100 keys: decimal rule on text vs typed shadow', ruleFob, undefined, shadowFob);
  line('top-100 keys: bare TRY_CAST(text) vs typed shadow', castFob, undefined, shadowFob);
  const shadowDay = await timed(() => keys(`"${shadowColumnName('arrivalDate')}"`));
  const ruleDay = await timed(() => keys(dateExpression('"arrivalDate"')));
  line('top-100 keys: day rule on text vs typed shadow', ruleDay, undefined, shadowDay);

  // Each case as the grid asks for it (shown columns) next to whole rows, in the same run.
  const pair = async (label: string, query: GridQuery): Promise<void> => {
    const whole = await timed(() => lib.getRows(id, query));
    line(`${label}, shown columns`, await timed(() => lib.getRows(id, { ...query, ...shown })), 500, whole);
    line(`${label}, whole rows`, whole, 500);
  };
  await pair('sort fobValue desc', q(sortBy('fobValue', 'desc')));
  await pair('sort arrivalDate asc', q(sortBy('arrivalDate', 'asc')));
  await pair('sort importerName asc', q(sortBy('importerName', 'asc')));
  // Text sorts use a collation (case and accents second, like a spreadsheet); its cost shows on a
  // column where nearly every value differs, not on names that repeat.
  await pair('sort hashId asc (every value distinct)', q(sortBy('hashId', 'asc')));
  // The first deep block of a sort reads the view's whole order (kept for its later blocks): each
  // request shape gets a sort of its own, so both are measured as a first run.
  const deep = (colId: string): GridQuery =>
    q({ startRow: 500_000, endRow: 500_100, ...sortBy(colId, 'asc') });
  const deepShown = await once({ ...deep('usdCif'), ...shown });
  const deepWhole = await once(deep('usdFob'));
  line('sorted block at row 500,000, first of its sort, shown columns', deepShown, 500, deepWhole);
  line('sorted block at row 500,000, first of its sort, whole rows', deepWhole, 500);
  await pair('sorted block at row 500,000, later', deep('usdCif'));
  // The fetch of a sorted block's rows by their row numbers, as the library reads it (a range and a bit
  // per row tested in the scan) next to the IN list it read them by before, same rows, same run.
  const nos = (await lib.getRows(id, { ...deep('usdCif'), ...shown })).rows.map((r) => Number(r._row));
  const inList = `row_no IN (${nos.join(', ')})`;
  const inScan = rowNumberFilter(nos);
  const fetch = (select: string, where: string, params: SqlParams): Promise<unknown> =>
    lib.reader.all(`SELECT row_no, ${select} FROM shipment_rows WHERE dataset_id = $1 AND ${where}`, [
      id,
      ...params,
    ]);
  const shownSql = DEFAULT_SHIPMENT_COLUMNS.map((c) => `"${c}"`).join(', ');
  for (const [label, select] of [
    ['shown columns', shownSql],
    ['whole rows', '*'],
  ] as const) {
    const before = await timed(() => fetch(select, inList, []));
    line(
      `fetch of a sorted block's 100 rows, ${label}: in-scan filter vs IN list`,
      await timed(() => fetch(select, inScan.sql, inScan.params)),
      undefined,
      before,
    );
  }
  await pair(
    'filter usdFob > 10000 + sort + count',
    q({
      filterModel: { usdFob: { filterType: 'number', type: 'greaterThan', filter: 10_000 } },
      ...sortBy('arrivalDate', 'desc'),
    }),
  );
  await pair('quick filter (2 words) + count', q({ quickFilter: 'steel ltd' }));
}

/**
 * Writes a copy of the library in `dir` into `oldDir` as a file written before typed shadows existed
 * would be: DuckDB's v1.0 storage format (the default of the DuckDB versions that wrote it), no shadow
 * columns in its row table, schema version 6.
 */
async function writeOldFormatCopy(dir: string, oldDir: string): Promise<void> {
  const instance = await DuckDBInstance.create(join(dir, 'library.duckdb'));
  const conn = await instance.connect();
  try {
    await conn.run(`ATTACH '${join(oldDir, 'library.duckdb')}' AS old (STORAGE_VERSION 'v1.0.0')`);
    await conn.run('COPY FROM DATABASE library TO old');
    for (const s of SHIPMENT_SHADOWS)
      await conn.run(`ALTER TABLE old.shipment_rows DROP COLUMN "${s.column}"`);
    await conn.run('UPDATE old.schema_version SET version = 6');
    await conn.run('DETACH old');
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-grid-'));
  try {
    const sim = await startSimulator({
      port: 0,
      records: BASE,
      seed: 5,
      accounts: [generateAccount('bench')],
    });
    const base = [...sim.dataset.records()];
    await sim.close();
    const lib = await Library.open(dir);
    const t0 = performance.now();
    const seed = await lib.saveShipmentSearch({ size: 10_000 }, { total: BASE, shipments: base });
    // Grow to 1M rows inside DuckDB (copies of the base with distinct hashIds and row numbers).
    const copies = ROWS / BASE;
    const id = await lib.write((tx) =>
      tx.createDataset(
        { kind: 'shipments', request: { start_date: '2021-01-01' }, name: 'bench 1M' },
        'complete',
      ),
    );
    await lib.close();
    await withLibraryFile(dir, async (conn) => {
      const cols = (
        await conn.runAndReadAll(
          `SELECT column_name FROM information_schema.columns WHERE table_name = 'shipment_rows' ORDER BY ordinal_position`,
        )
      )
        .getRowObjectsJson()
        .map((r) => String(r.column_name))
        .filter((c) => c !== 'dataset_id' && c !== 'row_no' && c !== 'hashId');
      await conn.run(
        `INSERT INTO shipment_rows (dataset_id, row_no, "hashId", ${cols.map((c) => `"${c}"`).join(', ')})
         SELECT $1, (k * ${BASE} + row_no)::INTEGER, "hashId" || '-' || k, ${cols.map((c) => `"${c}"`).join(', ')}
         FROM shipment_rows, range(${copies}) t(k) WHERE dataset_id = $2 ORDER BY k, row_no`,
        [id, seed.id],
      );
      await conn.run(`UPDATE datasets SET stored_rows = $2 WHERE id = $1`, [id, ROWS]);
    });
    console.log(
      `built a ${ROWS.toLocaleString('en-US')}-row dataset in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    await measureFile(dir, id);
    // A library file written before the newest storage format and before typed shadows existed: the
    // same rows in DuckDB's v1.0 storage format, without shadow columns, at schema version 6. Opening
    // it migrates it as the app does (the shadows filled from the text), then every case again.
    const oldDir = join(dir, 'old-format');
    await mkdir(oldDir);
    await writeOldFormatCopy(dir, oldDir);
    console.log(
      '\nthe same dataset in a library file of the older storage format, written before typed shadows:',
    );
    await measureFile(oldDir, id);
  } finally {
    if (process.env.KEEP_BENCH_DIR) console.log(`kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

void main();
