/**
 * Parquet on the paths the app runs, each case in a fresh process for a clean memory peak:
 *  - export of a 100,000-row library dataset (every field) as the export job runs it
 *    (libraryExportSource + exportParquet: one typed COPY in the library's DuckDB), next to three
 *    baselines from the same run: the same typed file written from rows read into JavaScript and
 *    appended to a scratch DuckDB (the writer before), the rows written all as text (the same
 *    appender into an on-disk scratch table, a plain COPY) and the CSV export of the same dataset;
 *  - import of that Parquet file (library.import: preview and import in the import worker), next to
 *    the import of the CSV export of the same dataset (the issue's goal for a 100,000-row CSV: ≤ 5 s).
 * Each line prints the time, the ratio to its baseline, the peak RSS and the main thread's longest
 * event-loop stall (goal < 100 ms).
 *
 * With --full, also the memory of the app's Parquet export at 100,000 and 1,000,000 × 88 (a library
 * of pooled records, as the export-xlsx bench builds it), in stored order and in a grid view sorted by
 * USD FOB, each next to the app's CSV export of the same view in the same run; each case in a fresh
 * process after a 5,000-row warm-up export, its peak the kernel's maxRSS (goal: roughly flat, ≤ ~1 GB).
 *
 * The imports start the built app's import worker: nothing but --only-full is measured until the app
 * is built (built-import-worker.ts).
 *
 *   npm run build && npm run bench -- parquet
 *   npm run build && npm run bench -- parquet --full
 *   npm run build && npm run bench -- parquet --only-full     (just the --full cases)
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { exportCsv, exportParquet, libraryExportSource, type ExportSource } from '../src/main/export';
import { Library, importFile, quoteIdentifier, quoteLiteral } from '../src/main/library';
import { generateAccount, startSimulator } from '../src/main/sim';
import { useBuiltImportWorker } from './built-import-worker';
import { buildPooledLibrary } from './library-file';

const ROWS = 100_000;
/** The --full cases: dataset sizes, and the warm-up export's size before each measured export. */
const FULL_SIZES = [100_000, 1_000_000];
const WARM_UP_ROWS = 5_000;
const VIEWS = {
  stored: undefined,
  sorted: { sortModel: [{ colId: 'usdFob', sort: 'asc' as const }] },
};
type ViewName = keyof typeof VIEWS;

interface SizeResult {
  kind: 'parquet' | 'csv';
  rows: number;
  view: ViewName;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  baseRssMb: number;
  fileMb: number;
}

interface CaseResult {
  seconds: number;
  peakRssMb: number;
  maxLoopDelayMs: number;
  rows: number;
}

/** The baseline writer: every value as text through the same appender, then a plain COPY. */
async function exportUntyped(source: ExportSource, target: string): Promise<number> {
  const scratch = await mkdtemp(join(tmpdir(), 'portolan-bench-parquet-scratch-'));
  const instance = await DuckDBInstance.create(join(scratch, 'export.duckdb'));
  const conn = await instance.connect();
  try {
    const columns = source.columns;
    await conn.run(
      `CREATE TABLE export_rows (${columns.map((c) => `${quoteIdentifier(c.field)} VARCHAR`).join(', ')})`,
    );
    const appender = await conn.createAppender('export_rows');
    let rows = 0;
    for await (const batch of source.batches()) {
      for (const row of batch) {
        for (let i = 0; i < columns.length; i++) {
          const v = row[i];
          if (v === null || v === undefined) appender.appendNull();
          else appender.appendVarchar(typeof v === 'string' ? v : String(v));
        }
        appender.endRow();
        rows += 1;
        if (rows % 1000 === 0) await new Promise((r) => setImmediate(r));
      }
    }
    appender.flushSync();
    appender.closeSync();
    await conn.run(
      `COPY (SELECT * FROM export_rows) TO ${quoteLiteral(target)} (FORMAT parquet, COMPRESSION zstd)`,
    );
    return rows;
  } finally {
    conn.closeSync();
    instance.closeSync();
    await rm(scratch, { recursive: true, force: true });
  }
}

async function runCase(kind: string, arg: string, out: string): Promise<CaseResult> {
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const libDir = kind === 'import' ? await mkdtemp(join(tmpdir(), 'portolan-bench-parquet-lib-')) : arg;
  const lib = await Library.open(libDir);
  let rows = 0;
  loop.enable();
  const t = performance.now();
  if (kind === 'import') {
    rows = (await importFile(lib, arg)).rows;
  } else {
    const [dataset] = await lib.list();
    const { source } = await libraryExportSource(lib, dataset!.id, undefined, 'bench');
    if (kind === 'export-typed') rows = (await exportParquet(source, out, { overwrite: true })).rowsWritten;
    else if (kind === 'export-appender') {
      // The writer before: every row read into JavaScript and appended to a scratch DuckDB, then COPY.
      const appended: ExportSource = { ...source };
      delete appended.copyParquet;
      rows = (await exportParquet(appended, out, { overwrite: true })).rowsWritten;
    } else if (kind === 'export-text') rows = await exportUntyped(source, out);
    else rows = (await exportCsv(source, out, { overwrite: true })).rowsWritten;
  }
  const seconds = (performance.now() - t) / 1000;
  loop.disable();
  clearInterval(sample);
  peak = Math.max(peak, process.memoryUsage().rss);
  await lib.close();
  if (kind === 'import') await rm(libDir, { recursive: true, force: true });
  return { seconds, peakRssMb: peak / 1e6, maxLoopDelayMs: loop.max / 1e6, rows };
}

function spawnCase(kind: string, arg: string, out = ''): CaseResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--case', kind, arg, out], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`case ${kind} failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(line.slice(7)) as CaseResult;
}

function show(label: string, r: CaseResult, base?: CaseResult): void {
  const ratio = base
    ? `, ${(r.seconds / base.seconds).toFixed(2)}× baseline ${base.seconds.toFixed(1)} s`
    : '';
  console.log(
    `${label.padEnd(46)} ${r.seconds.toFixed(1).padStart(6)} s${ratio}; peak ${r.peakRssMb.toFixed(0)} MB; ` +
      `longest main-thread stall ${r.maxLoopDelayMs.toFixed(0)} ms; ${r.rows.toLocaleString('en-US')} rows`,
  );
}

/** One export of a --full case as the export job runs it, after a warm-up export of the same view. */
async function runSizeCase(
  kind: SizeResult['kind'],
  libDir: string,
  ids: Record<number, string>,
  rows: number,
  view: ViewName,
): Promise<SizeResult> {
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-parquet-out-'));
  const lib = await Library.open(libDir);
  const run = async (id: string, out: string): Promise<void> => {
    const { source } = await libraryExportSource(lib, id, VIEWS[view], 'bench');
    if (kind === 'parquet') await exportParquet(source, out, { scratchDir: dir });
    else await exportCsv(source, out);
  };
  try {
    await run(ids[WARM_UP_ROWS]!, join(dir, `warm.${kind}`));
    (globalThis as { gc?: () => void }).gc?.();
    const baseRss = process.memoryUsage.rss();
    let peak = baseRss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
    const out = join(dir, `out.${kind}`);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await run(ids[rows]!, out);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(sampler);
    // The kernel's own peak for the process catches what falls between samples.
    peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
    return {
      kind,
      rows,
      view,
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      peakRssMb: peak / 1e6,
      baseRssMb: baseRss / 1e6,
      fileMb: (await stat(out)).size / 1e6,
    };
  } finally {
    await lib.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function spawnSizeCase(
  libDir: string,
  ids: Record<number, string>,
  args: [string, number, ViewName],
): SizeResult {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--expose-gc',
      import.meta.filename,
      '--size-case',
      libDir,
      JSON.stringify(ids),
      ...args.map(String),
    ],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`case ${args.join(' ')} failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(line.slice(7)) as SizeResult;
}

/** --full: the app's Parquet and CSV exports of both views at each size, and how the peaks grow. */
async function fullCases(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-parquet-full-'));
  try {
    const ids = await buildPooledLibrary(dir, [WARM_UP_ROWS, ...FULL_SIZES]);
    const peaks = new Map<string, number>();
    console.log(
      `\nthe app's export, ${FULL_SIZES.map((n) => n.toLocaleString('en-US')).join(' and ')} × 88 (pooled records):`,
    );
    for (const rows of FULL_SIZES) {
      for (const view of Object.keys(VIEWS) as ViewName[]) {
        const csv = spawnSizeCase(dir, ids, ['csv', rows, view]);
        const parquet = spawnSizeCase(dir, ids, ['parquet', rows, view]);
        peaks.set(`${rows} ${view}`, parquet.peakRssMb);
        for (const r of [csv, parquet]) {
          console.log(
            `${r.kind.padEnd(8)} ${view.padEnd(7)} ${r.rows.toLocaleString('en-US').padStart(9)} rows ` +
              `${r.seconds.toFixed(1).padStart(6)} s (cpu ${r.cpuSeconds.toFixed(1)} s)  peak RSS ${r.peakRssMb.toFixed(0).padStart(5)} MB ` +
              `(before ${r.baseRssMb.toFixed(0)} MB)  file ${r.fileMb.toFixed(1)} MB` +
              (r === parquet
                ? `  = ${(r.seconds / csv.seconds).toFixed(2)}× CSV (cpu ${(r.cpuSeconds / csv.cpuSeconds).toFixed(2)}×)`
                : ''),
          );
        }
      }
    }
    for (const view of Object.keys(VIEWS)) {
      const [small, big] = FULL_SIZES.map((n) => peaks.get(`${n} ${view}`) ?? 0);
      console.log(
        `Parquet memory, ${view}: peak ${small!.toFixed(0)} MB at ${FULL_SIZES[0]!.toLocaleString('en-US')} rows, ` +
          `${big!.toFixed(0)} MB at ${FULL_SIZES[1]!.toLocaleString('en-US')} (${(big! / small!).toFixed(2)}×; flat is ≈ 1; ` +
          `goal ≤ ~1 GB: ${big! <= 1000 ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--case') {
    console.log(`RESULT ${JSON.stringify(await runCase(args[1]!, args[2]!, args[3] ?? ''))}`);
    return;
  }
  if (args[0] === '--size-case') {
    const [libDir, ids, kind, rows, view] = args.slice(1);
    const result = await runSizeCase(
      kind as SizeResult['kind'],
      libDir!,
      JSON.parse(ids!) as Record<number, string>,
      Number(rows),
      view as ViewName,
    );
    console.log(`RESULT ${JSON.stringify(result)}`);
    return;
  }
  if (args.includes('--only-full')) return fullCases();
  if (!useBuiltImportWorker('parquet')) {
    process.exitCode = 1;
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-parquet-'));
  try {
    const sim = await startSimulator({ port: 0, records: ROWS, seed: 5, accounts: [generateAccount('b')] });
    const records = [...sim.dataset.records()];
    await sim.close();
    const libDir = join(dir, 'library');
    const lib = await Library.open(libDir);
    await lib.saveShipmentSearch({ hs_codes: ['7208'] }, { total: records.length, shipments: records });
    await lib.close();
    records.length = 0;

    const typedFile = join(dir, 'typed.parquet');
    const textFile = join(dir, 'text.parquet');
    const csvFile = join(dir, 'shipments.csv');
    const text = spawnCase('export-text', libDir, textFile);
    const appenderFile = join(dir, 'appender.parquet');
    const appender = spawnCase('export-appender', libDir, appenderFile);
    const typed = spawnCase('export-typed', libDir, typedFile);
    const csv = spawnCase('export-csv', libDir, csvFile);
    const importCsv = spawnCase('import', csvFile);
    const importParquet = spawnCase('import', typedFile);
    const mb = async (p: string): Promise<string> => `${((await stat(p)).size / 1e6).toFixed(1)} MB`;
    console.log(
      `files: typed Parquet ${await mb(typedFile)}, all-text Parquet ${await mb(textFile)}, CSV ${await mb(csvFile)}`,
    );
    show('export baseline: all text (appender + COPY)', text);
    show('export baseline: CSV', csv);
    show('export typed Parquet, rows through an appender', appender, text);
    show('export typed Parquet, COPY in the library', typed, appender);
    show('import baseline: the CSV export', importCsv);
    show('import of the typed Parquet export', importParquet, importCsv);
    const stall = Math.max(typed.maxLoopDelayMs, importParquet.maxLoopDelayMs);
    console.log(
      `\ntyped export: ${(typed.seconds / appender.seconds).toFixed(2)}× the appender path, ${(typed.seconds / text.seconds).toFixed(2)}× the all-text writer, ${(typed.seconds / csv.seconds).toFixed(2)}× CSV; ` +
        `import: ${(importParquet.seconds / importCsv.seconds).toFixed(2)}× the CSV import; ` +
        `longest main-thread stall ${stall.toFixed(0)} ms (goal < 100 ms: ${stall < 100 ? 'MET' : 'NOT MET'})`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (args.includes('--full')) await fullCases();
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
