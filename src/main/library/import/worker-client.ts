import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportPlan, ImportPreviewChoices } from '@shared/library/import-contract';
import type { StagedSource } from '../ingest';
import { importFormatOf } from './file-type';
import type { FileHeaders } from './mapping';
import type { PreparedImport, RememberedMapping } from './preview';
import { ImportRefusal } from './table-source';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './table-types';
import type { CheckProgress, FromWorker, PlannedRead, RunSummary, ToWorker } from './worker-protocol';

/**
 * The worker's heap: an import that needs more (a workbook whose shared strings alone are huge) stops
 * the worker with an out-of-memory error and is refused; the app's own heap is never at risk.
 */
const WORKER_HEAP_MB = 768;
/**
 * The worker's young generation, smaller than V8's default: reading a sheet makes millions of
 * short-lived values per second, and a small nursery is swept while it is still in the processor's
 * cache. Measured on the app's own 100,000-row workbook: the process's peak about 40 MB lower, and
 * the import no slower.
 */
const WORKER_YOUNG_MB = 12;

/** The worker script: the built bundle next to the app's main file, or the source under tsx (tests, browser host). */
function workerScript(): { file: string; eval: boolean } {
  const here = dirname(fileURLToPath(import.meta.url));
  // Built: next to the main bundle (this code may sit in a shared chunk one folder down).
  for (const dir of [here, dirname(here)]) {
    const built = join(dir, 'import-worker.js');
    if (existsSync(built)) return { file: built, eval: false };
  }
  // A test run compiles the worker once for all its imports (test/helpers/import-worker-setup.ts);
  // a benchmark names the built app's (bench/built-import-worker.ts).
  const compiled = process.env['PORTOLAN_TEST_IMPORT_WORKER'];
  if (compiled && existsSync(compiled)) return { file: compiled, eval: false };
  const source = join(here, 'import-worker.ts');
  if (existsSync(source)) {
    // Source form: load TypeScript through tsx, which the development setup has. Its require hook
    // alone leaves the worker's import() of a reader (csv-native, row-stage, parquet-source…) to
    // Node's own loader, which finds no such file: its module hooks are registered too, from the
    // package's ESM build (the CommonJS build of tsx/esm/api names its hooks by a path that is not
    // there).
    return {
      file: `
        const { createRequire } = require('node:module');
        const { pathToFileURL } = require('node:url');
        const from = createRequire(${JSON.stringify(source)});
        from('tsx/cjs/api').register();
        const esmApi = from.resolve('tsx/esm/api').replace(/\\.cjs$/, '.mjs');
        import(pathToFileURL(esmApi).href).then((tsx) => {
          tsx.register();
          from(${JSON.stringify(source)});
        });`,
      eval: true,
    };
  }
  throw new Error('the import worker is missing from this build');
}

function start(): Worker {
  const script = workerScript();
  return new Worker(script.file, {
    eval: script.eval,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    stdout: false,
    stderr: false,
  });
}

function tooBig(): ImportRefusal {
  return new ImportRefusal(
    'it needs more memory than Portolan gives one import (the file is too large or holds too much text at once); ' +
      'split it into smaller files, or save it as CSV, and import those',
  );
}

function workerError(e: Error): Error {
  const code = (e as Error & { code?: string }).code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return tooBig();
  return e;
}

/** Whether a worker reading this file for a preview works with DuckDB (a Parquet file is read by it). */
function previewUsesDuckDb(fileName: string): boolean {
  const format = importFormatOf(fileName);
  return format.ok && format.format === 'parquet';
}

/**
 * Ends a worker the caller gave up on. DuckDB's native work (reading a Parquet file, staging an
 * import's rows) must not be cut off by ending its thread (that aborts the whole process): such a
 * worker is asked to stop and is ended once it answers that it holds nothing open. A worker that
 * runs plain JavaScript only (a preview of a CSV or workbook) is ended at once.
 */
function abandon(worker: Worker, usesDuckDb: boolean): void {
  if (!usesDuckDb) {
    void worker.terminate();
    return;
  }
  worker.removeAllListeners('message');
  // Parts and a check's progress are sent while DuckDB is still open; every other message comes
  // after it is closed.
  worker.on('message', (msg: FromWorker) => {
    const working = msg.type === 'part' || (msg.type === 'checked' && !msg.final);
    if (!working) void worker.terminate();
  });
  worker.unref();
  worker.postMessage({ type: 'stop' } satisfies ToWorker);
}

function cancelled(): Error {
  const e = new Error('cancelled');
  e.name = 'AbortError';
  return e;
}

/**
 * Starts a worker whose outcome is settled once: by its answer, its error or exit, or the signal
 * (which abandons it, letting a DuckDB read close first). Later events are ignored.
 */
function startSettledOnce(
  usesDuckDb: boolean,
  signal: AbortSignal | undefined,
  reject: (e: unknown) => void,
): { worker: Worker; finish: (f: () => void, abandoned?: boolean) => void; settled: () => boolean } {
  const worker = start();
  let done = false;
  const finish = (f: () => void, abandoned = false): void => {
    if (done) return;
    done = true;
    signal?.removeEventListener('abort', onAbort);
    if (abandoned) abandon(worker, usesDuckDb);
    else void worker.terminate();
    f();
  };
  const onAbort = (): void => finish(() => reject(cancelled()), true);
  signal?.addEventListener('abort', onAbort, { once: true });
  worker.on('error', (e) => finish(() => reject(workerError(e))));
  worker.on('exit', () => finish(() => reject(new Error('the import worker stopped'))));
  return { worker, finish, settled: () => done };
}

interface PlannedReadOptions {
  limits?: ImportLimits;
  signal?: AbortSignal;
  hsHeadings?: readonly string[];
}

/** What the worker is told of a read under a plan, by a check and by an import alike. */
function plannedRead(
  path: string,
  fileName: string,
  plan: ImportPlan,
  { headers, blank }: FileHeaders,
  opts: PlannedReadOptions,
): PlannedRead {
  return {
    path,
    fileName,
    plan,
    headers: [...headers],
    blank: [...blank],
    limits: opts.limits ?? DEFAULT_IMPORT_LIMITS,
    hsHeadings: [...(opts.hsHeadings ?? [])],
  };
}

/**
 * Reads the head of a file and prepares its preview in a worker (nothing is stored): the main thread
 * only answers which mapping `remembered` holds for the file's columns.
 */
export function preparePreview(
  path: string,
  fileName: string,
  opts: {
    choices: ImportPreviewChoices;
    remembered: (shapeKey: string) => RememberedMapping | null;
    hsHeadings?: readonly string[];
    limits?: ImportLimits;
    signal?: AbortSignal;
    /** Hears the packages the worker had loaded when it answered. */
    onPackages?: (names: readonly string[]) => void;
  },
): Promise<PreparedImport> {
  return new Promise<PreparedImport>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(cancelled());
    const { worker, finish, settled } = startSettledOnce(previewUsesDuckDb(fileName), opts.signal, reject);
    worker.on('message', (msg: FromWorker) => {
      if (settled()) return;
      if (msg.type === 'recall') {
        let mapping: RememberedMapping | null;
        try {
          mapping = opts.remembered(msg.shapeKey);
        } catch (e) {
          finish(() => reject(e));
          return;
        }
        worker.postMessage({ type: 'recalled', mapping } satisfies ToWorker);
      } else if (msg.type === 'preview') {
        opts.onPackages?.(msg.packages);
        finish(() => resolve(msg.prepared));
      } else if (msg.type === 'refused') finish(() => reject(new ImportRefusal(msg.message, msg.detail)));
      else if (msg.type === 'failed') finish(() => reject(new Error(msg.message)));
    });
    const msg: ToWorker = {
      type: 'preview',
      path,
      fileName,
      choices: opts.choices,
      limits: opts.limits ?? DEFAULT_IMPORT_LIMITS,
      hsHeadings: [...(opts.hsHeadings ?? [])],
    };
    worker.postMessage(msg);
  });
}

/**
 * Reads every row of a file under a plan in a worker and counts what would not import as it is;
 * nothing is stored. `onProgress` hears how far it got as it goes; the answer is the finished check.
 * Aborting stops the worker (once a Parquet read has closed, as for a preview).
 */
export function checkInWorker(
  path: string,
  fileName: string,
  plan: ImportPlan,
  headers: FileHeaders,
  onProgress: (p: CheckProgress) => void,
  opts: PlannedReadOptions = {},
): Promise<CheckProgress> {
  return new Promise<CheckProgress>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(cancelled());
    const { worker, finish, settled } = startSettledOnce(previewUsesDuckDb(fileName), opts.signal, reject);
    worker.on('message', (msg: FromWorker) => {
      if (settled()) return;
      if (msg.type === 'checked') {
        if (msg.final) finish(() => resolve(msg.progress));
        else onProgress(msg.progress);
      } else if (msg.type === 'refused') finish(() => reject(new ImportRefusal(msg.message, msg.detail)));
      else if (msg.type === 'failed') finish(() => reject(new Error(msg.message)));
    });
    const msg: ToWorker = { type: 'check', ...plannedRead(path, fileName, plan, headers, opts) };
    worker.postMessage(msg);
  });
}

/**
 * The staging folder's name names its process: a process killed mid-import leaves the folder (rows of
 * the file, in Parquet) behind, and the start-up sweep removes it once that process is gone.
 */
export const IMPORT_STAGING_PREFIX = 'portolan-import-';

/** Rows the worker staged for the library (row-stage.ts); the file is removed once `store` returns. */
export interface WorkerPart {
  source: StagedSource;
  rows: number;
  rowsRead: number;
}

/**
 * Reads and converts the whole file in a worker, handing each staged part to `store` (awaited before
 * the worker is allowed further ahead). Aborting asks the worker to stop; its staged files are
 * removed once it has ended.
 */
export async function runInWorker(
  path: string,
  fileName: string,
  plan: ImportPlan,
  headers: FileHeaders,
  /** Answers whether the part was kept (a plain CSV's may be declined: the worker then reads it row by row). */
  store: (part: WorkerPart) => Promise<boolean>,
  opts: PlannedReadOptions = {},
): Promise<RunSummary> {
  if (opts.signal?.aborted) throw cancelled();
  const stagingDir = await mkdtemp(join(tmpdir(), `${IMPORT_STAGING_PREFIX}${process.pid}-`));
  const removeStaging = (): void =>
    void rm(stagingDir, { recursive: true, force: true }).catch(() => undefined);
  return new Promise<RunSummary>((resolve, reject) => {
    let started: ReturnType<typeof startSettledOnce>;
    try {
      started = startSettledOnce(true, opts.signal, reject);
    } catch (e) {
      removeStaging();
      throw e;
    }
    const { worker, finish, settled } = started;
    // Only once the worker has ended: an abandoned one may still be writing a part.
    worker.once('exit', removeStaging);
    let queue = Promise.resolve();
    worker.on('message', (msg: FromWorker) => {
      if (settled()) return;
      switch (msg.type) {
        case 'part':
          queue = queue.then(async () => {
            if (settled()) return;
            const kept = await store({ source: msg.source, rows: msg.rows, rowsRead: msg.rowsRead });
            if ('parquet' in msg.source) await rm(msg.source.parquet, { force: true });
            if (!settled())
              worker.postMessage(
                (kept ? { type: 'ack' } : { type: 'ack', declined: true }) satisfies ToWorker,
              );
          });
          // The library failed to store a part: the worker may be mid-read, so it is asked to stop.
          queue.catch((e: unknown) => finish(() => reject(e), true));
          break;
        case 'done':
          // The worker closed its stage before answering: the folder goes before the answer does, so
          // a process that ends right after the import leaves nothing behind.
          void queue
            .then(() => rm(stagingDir, { recursive: true, force: true }))
            .catch(() => undefined)
            .then(() => finish(() => resolve(msg.summary)));
          break;
        case 'refused':
          finish(() => reject(new ImportRefusal(msg.message, msg.detail)));
          break;
        case 'failed':
          finish(() => reject(new Error(msg.message)));
          break;
        case 'preview':
        case 'recall':
        case 'checked':
        case 'stopped':
          // A run is never answered with a preview, and `stopped` only after abandon() took over.
          break;
      }
    });
    const msg: ToWorker = { type: 'run', stagingDir, ...plannedRead(path, fileName, plan, headers, opts) };
    worker.postMessage(msg);
  });
}
