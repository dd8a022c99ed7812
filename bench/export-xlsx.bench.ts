/**
 * Excel export speed and memory on the app's path: a dataset in the library, read through
 * `libraryExportSource` (DuckDB streaming the rows in the view's order) into the writer, as the export
 * handler does; the baseline is the app's CSV export of the same dataset in the same run. Also our
 * Excel writer against SheetJS (in-memory writer) at 20,000 rows. Every case runs in a fresh child
 * process on a library built beforehand, so that one case's memory peak cannot hide in another's, after
 * warming the export on a 5,000-row dataset (the steady state of a main process that has exported
 * before; the cold warm-up time is printed too). The child runs this file bundled, under plain `node`,
 * as the app's main process runs its bundle (tsx's loader would add ~45 MB to every figure). Memory is
 * shown as the process's peak and as the export's own growth, peak minus the process before it, and
 * what the process still holds 10 s after the export, idle.
 *
 *   npm run bench -- export-xlsx            100,000 rows (all columns, the default columns, and all
 *                                           columns in a view sorted by a column)
 *   npm run bench -- export-xlsx --full     also 1,000,000 rows, to show memory stays flat
 *   npm run bench -- export-xlsx --sorted   only the sorted view's cases (with --full: at both sizes)
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { DEFAULT_SHIPMENT_COLUMNS } from '../src/shared/fields';
import { exportCsv, exportXlsx, libraryExportSource, shipmentColumns } from '../src/main/export';
import { toExcelValue } from '../src/main/export/cell-values';
import { Library } from '../src/main/library';
import { POOL, buildPooledLibrary } from './library-file';
import { bundleForNode } from './node-bundle';

interface CaseResult {
  name: string;
  rows: number;
  columns: number;
  seconds: number;
  /** CPU time of all the process's threads (zlib runs off the main thread): steadier than wall time on a busy machine. */
  cpuSeconds: number;
  peakRssMb: number;
  /** Longest the event loop waited during the export: how long the main process would stall. */
  maxLoopDelayMs: number;
  baseRssMb: number;
  fileMb: number;
  /** The warm-up export of WARM_UP_ROWS rows, cold (first use in the process). */
  warmMs: number;
  /** The process SETTLE_MS after the export, idle: what the main process keeps once an export is done. */
  settledRssMb: number;
}

/** A grid view sorted by a column (every column shown): DuckDB sorts the whole dataset before the first row. */
const SORTED = 'all-sorted';
const WARM_UP_ROWS = 5_000;
/** How long a case waits, idle, after its export before it reads what the process still holds. */
const SETTLE_MS = 10_000;
/** The app's export of a library dataset, as the export handler runs it. */
async function exportDataset(
  lib: Library,
  datasetId: string,
  kind: 'csv' | 'xlsx',
  columnSet: string,
  target: string,
): Promise<void> {
  const view =
    columnSet === 'all'
      ? undefined
      : columnSet === SORTED
        ? { sortModel: [{ colId: 'usdFob', sort: 'asc' as const }] }
        : { columns: [...DEFAULT_SHIPMENT_COLUMNS] };
  const { source } = await libraryExportSource(lib, datasetId, view, 'bench');
  if (kind === 'csv') await exportCsv(source, target);
  else await exportXlsx(source, target);
}

async function runCase(
  kind: string,
  rows: number,
  columnSet: string,
  libDir: string,
  ids: Record<number, string>,
): Promise<CaseResult> {
  const columns = columnSet === 'default16' ? shipmentColumns(DEFAULT_SHIPMENT_COLUMNS) : shipmentColumns();
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-'));
  const out = join(dir, `out.${kind === 'csv' ? 'csv' : 'xlsx'}`);
  // SheetJS gets its rows from memory (it has no streaming source); ours come from the library.
  const lib = kind === 'sheetjs' ? null : await Library.open(libDir);
  // Warm the export on a small dataset first, as a main process that has exported before would be:
  // the figures compare steady-state exports, not JIT warm-up (reported separately as `warmMs`).
  const warm0 = performance.now();
  if (lib) await exportDataset(lib, ids[WARM_UP_ROWS]!, kind as 'csv' | 'xlsx', columnSet, `${out}.warm`);
  const warmMs = performance.now() - warm0;
  const pool =
    kind === 'sheetjs' ? (await import('../test/helpers/export-records')).makeShipments(POOL, 11) : [];
  (globalThis as { gc?: () => void }).gc?.();
  const baseRss = process.memoryUsage.rss();
  let peak = baseRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  try {
    if (lib) await exportDataset(lib, ids[rows]!, kind as 'csv' | 'xlsx', columnSet, out);
    else {
      const { default: XLSX } = await import('xlsx');
      // SheetJS gets the same typed values our writer produces, so both do the same work.
      const aoa: unknown[][] = [columns.map((c) => c.header)];
      for (let i = 0; i < rows; i++) {
        const r = pool[i % pool.length]!;
        aoa.push(columns.map((c) => toExcelValue(r[c.field], c.type)));
      }
      const ws = XLSX.utils.aoa_to_sheet(aoa, { cellDates: true });
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, ws, 'Shipments');
      XLSX.writeFile(wb, out, { compression: true });
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    // One more turn of the loop, so that a writer that blocked until the end has its stall recorded.
    await new Promise((resolve) => setTimeout(resolve, 30));
    loop.disable();
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    clearInterval(sampler);
    // maxRSS is the kernel's own peak for this process, catching spikes between samples.
    peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
    const size = (await stat(out)).size;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    (globalThis as { gc?: () => void }).gc?.();
    const settledRssMb = process.memoryUsage.rss() / 2 ** 20;
    return {
      name: `${kind}-${columnSet}`,
      rows,
      columns: columns.length,
      seconds,
      cpuSeconds,
      peakRssMb: peak / 2 ** 20,
      maxLoopDelayMs: loop.max / 1e6,
      baseRssMb: baseRss / 2 ** 20,
      fileMb: size / 2 ** 20,
      warmMs,
      settledRssMb,
    };
  } finally {
    clearInterval(sampler);
    await lib?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Where the cases find the library the parent built, its datasets by size, and this file bundled. */
interface Built {
  dir: string;
  ids: Record<number, string>;
  bundle: string;
}

function spawnCase(built: Built, kind: string, rows: number, columnSet: string): CaseResult {
  const run = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      built.bundle,
      '--case',
      kind,
      String(rows),
      columnSet,
      built.dir,
      JSON.stringify(built.ids),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (run.status !== 0 || !line) throw new Error(`case ${kind} ${rows} ${columnSet} failed: ${run.stderr}`);
  return JSON.parse(line.slice('RESULT '.length)) as CaseResult;
}

function show(r: CaseResult, baseline?: CaseResult): void {
  const cells = r.rows * r.columns;
  const ratio = baseline
    ? `  = ${(r.seconds / baseline.seconds).toFixed(2)}× ${baseline.name} (cpu ${(r.cpuSeconds / baseline.cpuSeconds).toFixed(2)}×)`
    : '';
  console.log(
    `${r.name.padEnd(16)} ${r.rows.toLocaleString('en-US').padStart(9)} rows × ${String(r.columns).padStart(2)} cols  ` +
      `${r.seconds.toFixed(2).padStart(6)} s (cpu ${r.cpuSeconds.toFixed(2)} s)  ` +
      `${Math.round(cells / r.seconds)
        .toLocaleString('en-US')
        .padStart(10)} cells/s  ` +
      `peak RSS ${r.peakRssMb.toFixed(0).padStart(4)} MB (before ${r.baseRssMb.toFixed(0)} MB, ` +
      `+${(r.peakRssMb - r.baseRssMb).toFixed(0)} MB)  ` +
      `${(SETTLE_MS / 1000).toFixed(0)} s later ${r.settledRssMb.toFixed(0)} MB  ` +
      `max loop stall ${r.maxLoopDelayMs.toFixed(0)} ms  file ${r.fileMb.toFixed(1)} MB  ` +
      `(warm-up: ${r.warmMs.toFixed(0)} ms)${ratio}`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--case') {
    const ids = JSON.parse(args[5] ?? '{}') as Record<number, string>;
    const result = await runCase(args[1] ?? 'xlsx', Number(args[2]), args[3] ?? 'all', args[4] ?? '', ids);
    console.log(`RESULT ${JSON.stringify(result)}`);
    return;
  }
  const full = args.includes('--full');
  const sets = args.includes('--sorted') ? [SORTED] : ['all', 'default16', SORTED];
  const sizes = full ? [100_000, 1_000_000] : [100_000];
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-library-'));
  const bundle = await bundleForNode(import.meta.filename);
  try {
    const built0 = performance.now();
    const ids = await buildPooledLibrary(dir, [WARM_UP_ROWS, 20_000, ...sizes]);
    const built = { dir, ids, bundle: bundle.file };
    console.log(
      `library with ${sizes.join(' and ')} rows built in ${((performance.now() - built0) / 1000).toFixed(1)} s`,
    );
    report(built, sizes, sets, full);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await bundle.dispose();
  }
}

function report(built: Built, sizes: readonly number[], sets: readonly string[], full: boolean): void {
  const goals: string[] = [];
  const peaks = new Map<string, CaseResult>();
  for (const rows of sizes) {
    for (const set of sets) {
      const csv = spawnCase(built, 'csv', rows, set);
      const xlsx = spawnCase(built, 'xlsx', rows, set);
      show(csv);
      show(xlsx, csv);
      peaks.set(`${rows} ${set}`, xlsx);
      const ratio = xlsx.seconds / csv.seconds;
      goals.push(
        `${rows.toLocaleString('en-US')} rows, ${set}: xlsx/csv ${ratio.toFixed(2)}× wall, ` +
          `${(xlsx.cpuSeconds / csv.cpuSeconds).toFixed(2)}× cpu (goal ≤ 2.5: ${ratio <= 2.5 ? 'met' : 'NOT met'}); ` +
          `peak ${xlsx.peakRssMb.toFixed(0)} MB (goal ≤ 250: ${xlsx.peakRssMb <= 250 ? 'met' : 'NOT met'}), ` +
          `the export's own +${(xlsx.peakRssMb - xlsx.baseRssMb).toFixed(0)} MB over ${xlsx.baseRssMb.toFixed(0)} MB before`,
      );
    }
  }
  if (sets.includes('all')) {
    const sheetjs = spawnCase(built, 'sheetjs', 20_000, 'all');
    const ours = spawnCase(built, 'xlsx', 20_000, 'all');
    show(sheetjs);
    show(ours, sheetjs);
  }
  console.log('\n' + goals.join('\n'));
  for (const set of sets) {
    const small = peaks.get(`100000 ${set}`);
    const big = peaks.get(`1000000 ${set}`);
    if (small !== undefined && big !== undefined) {
      const grown = (r: CaseResult): number => r.peakRssMb - r.baseRssMb;
      console.log(
        `memory, ${set}: peak ${small.peakRssMb.toFixed(0)} MB at 100,000 rows vs ${big.peakRssMb.toFixed(0)} MB at 1,000,000 ` +
          `(${(big.peakRssMb / small.peakRssMb).toFixed(2)}×; flat is ≈ 1); the export's own +${grown(small).toFixed(0)} vs +${grown(big).toFixed(0)} MB`,
      );
    }
  }
  if (!full) console.log('(run with --full for 1,000,000 rows and the memory-flatness comparison)');
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
