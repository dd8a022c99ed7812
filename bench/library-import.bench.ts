/**
 * File import on the path the app runs (library.import: preview and import in the built app's import
 * worker, batches stored by the library in the main thread), each case in a fresh process for a clean
 * memory peak, next to a baseline measured in the same run:
 *  - the app's own 100,000-row Excel export — goal ≤ 15 s, peak ≤ 600 MB; baseline: inflating and
 *    decoding the same sheet (what any reader of the file must do);
 *  - its 100,000-row CSV export — goal ≤ 5 s; baseline: reading, decoding and Papa-parsing the file;
 *  - a 500,000 × 20 workbook — imported or refused, the process alive and under 1.5 GB;
 *  - open → preview of a 2,000-row CSV export (the file handed to the app, `library.previewImport`
 *    answered by the handler and a new import worker); baseline: reading, decoding and Papa-parsing
 *    the whole file, alternating with it in the same process.
 * The main thread's longest event-loop stall during each import is printed (goal < 100 ms). Nothing is
 * measured until the app is built (built-import-worker.ts).
 *
 *   npm run build && npm run bench -- library-import
 *   npm run build && npm run bench -- library-import --only-preview     (the preview case alone)
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import Papa from 'papaparse';
import yauzl from 'yauzl';
import { createMemorySource, exportCsv, exportXlsx, shipmentColumns } from '../src/main/export';
import { createDispatcher, createHandlers } from '../src/main/handlers';
import { Library, importFile } from '../src/main/library';
import { nullLogger } from '../src/main/log';
import { createMemorySecretStore } from '../src/main/secrets';
import { useBuiltImportWorker } from './built-import-worker';
import { benchQuery, writeOwnExports } from './own-exports';

/** Rows of the CSV export the preview case opens: an analyst's everyday file (about 2 MB). */
const PREVIEW_FILE_ROWS = 2000;
/** Rounds of the preview case, after one of each not counted (the handler's first call reads its files). */
const PREVIEW_ROUNDS = 15;

interface Spread {
  min: number;
  median: number;
  max: number;
}

interface PreviewResult {
  preview: Spread;
  papaparse: Spread;
  /** Each round's preview over its own baseline: steadier than a ratio of medians on a busy machine. */
  ratio: Spread;
  columns: number;
}

function spread(ms: number[]): Spread {
  const sorted = [...ms].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! };
}

/**
 * Open → preview as the window asks it: the file handed to the app, then `library.previewImport`,
 * answered once the worker (a new one each time, as for every preview) has read the file's head.
 * Alternates with the baseline, so both see the same machine.
 */
async function runPreviewCase(file: string): Promise<PreviewResult> {
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-preview-'));
  const handlers = createHandlers({
    dataDir: join(dir, 'data'),
    resourcesDir: join(import.meta.dirname, '..', 'resources'),
    logger: nullLogger,
    events: { emit: () => undefined },
    secrets: createMemorySecretStore(),
    appInfo: { version: 'bench', host: 'electron' },
  });
  const dispatch = createDispatcher<'app'>({
    handlers,
    logger: nullLogger,
    isTrustedSender: (s) => s === 'app',
  });
  const previews: number[] = [];
  const parses: number[] = [];
  let columns = 0;
  try {
    for (let round = 0; round <= PREVIEW_ROUNDS; round++) {
      let t = performance.now();
      const chosen = await handlers.droppedFiles.adoptImport(file);
      const r = (await dispatch('library.previewImport', { file: chosen.handle }, 'app')) as
        { ok: true; value: { columns: unknown[] } } | { ok: false; error: { message: string } };
      if (!r.ok) throw new Error(`the preview failed: ${r.error.message}`);
      const previewMs = performance.now() - t;
      columns = r.value.columns.length;
      t = performance.now();
      const text = (await readFile(file)).toString('utf8');
      Papa.parse<string[]>(text, { delimiter: ',' });
      const parseMs = performance.now() - t;
      if (round === 0) continue;
      previews.push(previewMs);
      parses.push(parseMs);
    }
  } finally {
    await handlers.dispose();
    await rm(dir, { recursive: true, force: true });
  }
  return {
    preview: spread(previews),
    papaparse: spread(parses),
    ratio: spread(previews.map((p, i) => p / parses[i]!)),
    columns,
  };
}

interface CaseResult {
  seconds: number;
  peakRssMb: number;
  maxLoopDelayMs: number;
  rows: number;
  outcome: string;
}

async function inflateSheet(path: string): Promise<number> {
  const zip = await new Promise<yauzl.ZipFile>((res, rej) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (e, z) => (e || !z ? rej(e) : res(z))),
  );
  let chars = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName !== 'xl/worksheets/sheet1.xml') return zip.readEntry();
      zip.openReadStream(entry, (err, s) => {
        if (err || !s) return reject(err);
        const d = new StringDecoder('utf8');
        s.on('data', (c: Buffer) => (chars += d.write(c).length));
        s.on('end', () => resolve());
      });
    });
    zip.on('end', () => resolve());
    zip.readEntry();
  });
  zip.close();
  return chars;
}

async function runCase(kind: string, file: string): Promise<CaseResult> {
  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let rows = 0;
  let outcome = 'ok';
  let lib: Library | null = null;
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-import-lib-'));
  if (kind === 'import') lib = await Library.open(dir);
  loop.enable();
  const t = performance.now();
  try {
    if (kind === 'import') {
      const r = await importFile(lib!, file);
      rows = r.rows;
    } else if (kind === 'inflate') {
      rows = await inflateSheet(file);
    } else if (kind === 'papaparse') {
      const text = (await readFile(file)).toString('utf8');
      rows = Papa.parse<string[]>(text, { delimiter: ',' }).data.length;
    }
  } catch (e) {
    outcome = `refused: ${(e as Error).message.slice(0, 160)}`;
  }
  const seconds = (performance.now() - t) / 1000;
  loop.disable();
  clearInterval(sample);
  peak = Math.max(peak, process.memoryUsage().rss);
  await lib?.close();
  await rm(dir, { recursive: true, force: true });
  return { seconds, peakRssMb: peak / 1e6, maxLoopDelayMs: loop.max / 1e6, rows, outcome };
}

/** A case in a process of its own, which inherits the worker named by useBuiltImportWorker. */
function spawnCase<T = CaseResult>(kind: string, file: string): T {
  const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--case', kind, file], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`case ${kind} failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(line.slice(7)) as T;
}

function previewCase(file: string): void {
  const r = spawnCase<PreviewResult>('preview', file);
  const ms = (s: Spread): string =>
    `median ${s.median.toFixed(0)} ms (${s.min.toFixed(0)}–${s.max.toFixed(0)})`;
  console.log(
    `open → preview of a ${PREVIEW_FILE_ROWS.toLocaleString('en-US')}-row CSV (${r.columns} columns), ${PREVIEW_ROUNDS} rounds: ${ms(r.preview)}, ` +
      `${r.ratio.median.toFixed(2)}× (${r.ratio.min.toFixed(2)}–${r.ratio.max.toFixed(2)}, round by round) the baseline read + decode + Papa.parse of the whole file ${ms(r.papaparse)}`,
  );
}

function show(label: string, r: CaseResult, base?: CaseResult): void {
  const ratio = base
    ? `, ${(r.seconds / base.seconds).toFixed(2)}× baseline ${base.seconds.toFixed(1)} s`
    : '';
  console.log(
    `${label.padEnd(44)} ${r.seconds.toFixed(1).padStart(6)} s${ratio}; peak ${r.peakRssMb.toFixed(0)} MB; ` +
      `longest main-thread stall ${r.maxLoopDelayMs.toFixed(0)} ms; ${r.outcome === 'ok' ? `${r.rows.toLocaleString('en-US')} rows` : r.outcome}`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--case') {
    const result = args[1] === 'preview' ? await runPreviewCase(args[2]!) : await runCase(args[1]!, args[2]!);
    console.log(`RESULT ${JSON.stringify(result)}`);
    return;
  }
  if (!useBuiltImportWorker('library-import')) {
    process.exitCode = 1;
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-import-'));
  try {
    // `--only-preview`: the preview case alone, from a 2,000-row export written for it.
    if (args.includes('--only-preview')) {
      previewCase((await writeOwnExports(dir, PREVIEW_FILE_ROWS)).csv);
      return;
    }
    const { csv, xlsx, rows } = await writeOwnExports(dir, 100_000);
    const query = benchQuery(rows.length);
    const small = join(dir, 'shipments-preview.csv');
    await exportCsv(
      createMemorySource({
        kind: 'shipments',
        columns: shipmentColumns(),
        rows: rows.slice(0, PREVIEW_FILE_ROWS),
        query: benchQuery(PREVIEW_FILE_ROWS),
      }),
      small,
    );
    // 500,000 rows × 20 columns (10 M cells), cycling the records.
    const wide = join(dir, 'wide.xlsx');
    const twenty = shipmentColumns().slice(0, 20);
    const big = Array.from({ length: 500_000 }, (_, i) => rows[i % rows.length]!);
    await exportXlsx(createMemorySource({ kind: 'shipments', columns: twenty, rows: big, query }), wide);
    big.length = 0;
    const mb = async (p: string): Promise<string> => `${((await stat(p)).size / 1e6).toFixed(0)} MB`;
    console.log(`files: xlsx ${await mb(xlsx)}, csv ${await mb(csv)}, 500,000 × 20 xlsx ${await mb(wide)}`);

    previewCase(small);
    const inflate = spawnCase('inflate', xlsx);
    const importXlsx = spawnCase('import', xlsx);
    const papa = spawnCase('papaparse', csv);
    const importCsv = spawnCase('import', csv);
    const importWide = spawnCase('import', wide);
    show('xlsx baseline: inflate + decode the sheet', inflate);
    show('import of the 100,000-row xlsx export', importXlsx, inflate);
    show('csv baseline: read + decode + Papa.parse', papa);
    show('import of the 100,000-row CSV export', importCsv, papa);
    show('import of a 500,000 × 20 workbook', importWide);
    const met = (ok: boolean): string => (ok ? 'MET' : 'NOT MET');
    console.log(
      `\nxlsx: ${importXlsx.seconds.toFixed(1)} s (goal ≤ 15 s: ${met(importXlsx.seconds <= 15)}), ` +
        `peak ${importXlsx.peakRssMb.toFixed(0)} MB (goal ≤ 600 MB: ${met(importXlsx.peakRssMb <= 600)})`,
    );
    console.log(`csv: ${importCsv.seconds.toFixed(1)} s (goal ≤ 5 s: ${met(importCsv.seconds <= 5)})`);
    console.log(
      `500,000 × 20: ${importWide.outcome === 'ok' ? 'imported' : importWide.outcome}, peak ${importWide.peakRssMb.toFixed(0)} MB ` +
        `(goal: process up and ≤ 1,500 MB: ${met(importWide.peakRssMb <= 1500)})`,
    );
    const stall = Math.max(importXlsx.maxLoopDelayMs, importCsv.maxLoopDelayMs, importWide.maxLoopDelayMs);
    console.log(
      `longest main-thread stall during an import: ${stall.toFixed(0)} ms (goal < 100 ms: ${met(stall < 100)})`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
