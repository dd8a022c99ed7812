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
 *   npm run bench -- parquet
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

const ROWS = 100_000;

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

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--case') {
    console.log(`RESULT ${JSON.stringify(await runCase(args[1]!, args[2]!, args[3] ?? ''))}`);
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
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
