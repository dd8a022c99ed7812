/**
 * Excel export speed and memory against a plain CSV write of the same rows (same run, same machine),
 * and against SheetJS (in-memory writer) at 20,000 rows. Every case runs in a fresh child process so
 * that one case's memory peak cannot hide in another's, after warming its writer on 5,000 rows (the
 * steady state of a main process that has exported before; the cold warm-up time is printed too).
 *
 *   npm run bench -- export-xlsx            100,000 rows (all columns, and the default 16)
 *   npm run bench -- export-xlsx --full     also 1,000,000 rows, to show memory stays flat
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import {
  DEFAULT_SHIPMENT_COLUMNS,
  exportCsv,
  exportXlsx,
  shipmentColumns,
  toExportRows,
  toSheetJsCell,
  type ExportColumn,
  type ExportRow,
  type ExportSource,
} from './export-bench-support';

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
}

const POOL = 1_000;
const WARM_UP_ROWS = 5_000;
const BATCH = 2_000;

/** Rows cycle through a fixed pool, so the source itself holds constant memory at any row count. */
function benchSource(
  rows: number,
  columns: readonly ExportColumn[],
  pool: readonly ExportRow[],
): ExportSource {
  return {
    kind: 'shipments',
    columns,
    rowCount: rows,
    query: {
      profile: 'bench',
      account: 'bench',
      filter: { hs_codes: ['8471'] },
      fetchedAt: new Date(0).toISOString(),
      totalReported: rows,
      appVersion: 'bench',
    },
    async *batches() {
      for (let start = 0; start < rows; start += BATCH) {
        const n = Math.min(BATCH, rows - start);
        const batch: ExportRow[] = new Array<ExportRow>(n);
        for (let i = 0; i < n; i++) batch[i] = pool[(start + i) % pool.length] as ExportRow;
        yield batch;
      }
    },
  };
}

async function runCase(kind: string, rows: number, columnSet: string): Promise<CaseResult> {
  const { makeShipments } = await import('../test/helpers/export-records');
  const columns = columnSet === 'all' ? shipmentColumns() : shipmentColumns(DEFAULT_SHIPMENT_COLUMNS);
  const pool = makeShipments(POOL, 11);
  const poolRows = toExportRows(columns, pool);
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-'));
  const out = join(dir, `out.${kind === 'csv' ? 'csv' : 'xlsx'}`);
  // Warm the writer on a small export first, as a main process that has exported before would be:
  // the figures compare steady-state writers, not JIT warm-up (reported separately as `warmMs`).
  const warm0 = performance.now();
  if (kind === 'csv') await exportCsv(benchSource(WARM_UP_ROWS, columns, poolRows), `${out}.warm`);
  else if (kind === 'xlsx') await exportXlsx(benchSource(WARM_UP_ROWS, columns, poolRows), `${out}.warm`);
  const warmMs = performance.now() - warm0;
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
    if (kind === 'csv') await exportCsv(benchSource(rows, columns, poolRows), out);
    else if (kind === 'xlsx') await exportXlsx(benchSource(rows, columns, poolRows), out);
    else if (kind === 'sheetjs') {
      const { default: XLSX } = await import('xlsx');
      const aoa: unknown[][] = [columns.map((c) => c.header)];
      for (let i = 0; i < rows; i++) {
        const r = pool[i % pool.length] as Record<string, string>;
        aoa.push(columns.map((c) => toSheetJsCell(r[c.field], c.type)));
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
    };
  } finally {
    clearInterval(sampler);
    await rm(dir, { recursive: true, force: true });
  }
}

function spawnCase(kind: string, rows: number, columnSet: string): CaseResult {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', import.meta.filename, '--case', kind, String(rows), columnSet],
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
    `${r.name.padEnd(14)} ${r.rows.toLocaleString('en-US').padStart(9)} rows × ${String(r.columns).padStart(2)} cols  ` +
      `${r.seconds.toFixed(2).padStart(6)} s (cpu ${r.cpuSeconds.toFixed(2)} s)  ` +
      `${Math.round(cells / r.seconds)
        .toLocaleString('en-US')
        .padStart(10)} cells/s  ` +
      `peak RSS ${r.peakRssMb.toFixed(0).padStart(4)} MB (before ${r.baseRssMb.toFixed(0)} MB)  ` +
      `max loop stall ${r.maxLoopDelayMs.toFixed(0)} ms  file ${r.fileMb.toFixed(1)} MB  ` +
      `(warm-up: ${r.warmMs.toFixed(0)} ms)${ratio}`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--case') {
    const result = await runCase(args[1] ?? 'xlsx', Number(args[2]), args[3] ?? 'all');
    console.log(`RESULT ${JSON.stringify(result)}`);
    return;
  }
  const full = args.includes('--full');
  const sizes = full ? [100_000, 1_000_000] : [100_000];
  const goals: string[] = [];
  const peaks = new Map<string, number>();
  for (const rows of sizes) {
    for (const set of ['all', 'default16']) {
      const csv = spawnCase('csv', rows, set);
      const xlsx = spawnCase('xlsx', rows, set);
      show(csv);
      show(xlsx, csv);
      peaks.set(`${rows} ${set}`, xlsx.peakRssMb);
      const ratio = xlsx.seconds / csv.seconds;
      goals.push(
        `${rows.toLocaleString('en-US')} rows, ${set}: xlsx/csv ${ratio.toFixed(2)}× wall, ` +
          `${(xlsx.cpuSeconds / csv.cpuSeconds).toFixed(2)}× cpu (goal ≤ 2.5: ${ratio <= 2.5 ? 'met' : 'NOT met'}); ` +
          `peak ${xlsx.peakRssMb.toFixed(0)} MB (goal ≤ 250: ${xlsx.peakRssMb <= 250 ? 'met' : 'NOT met'})`,
      );
    }
  }
  const sheetjs = spawnCase('sheetjs', 20_000, 'all');
  const ours = spawnCase('xlsx', 20_000, 'all');
  show(sheetjs);
  show(ours, sheetjs);
  console.log('\n' + goals.join('\n'));
  for (const set of ['all', 'default16']) {
    const small = peaks.get(`100000 ${set}`);
    const big = peaks.get(`1000000 ${set}`);
    if (small !== undefined && big !== undefined) {
      console.log(
        `memory, ${set}: peak ${small.toFixed(0)} MB at 100,000 rows vs ${big.toFixed(0)} MB at 1,000,000 (${(big / small).toFixed(2)}×; flat is ≈ 1)`,
      );
    }
  }
  if (!full) console.log('(run with --full for 1,000,000 rows and the memory-flatness comparison)');
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
