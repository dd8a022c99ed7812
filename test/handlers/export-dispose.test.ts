import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobFinished, JobProgress } from '@shared/jobs/jobs-contract';
import { Library, type DatasetMeta } from '../../src/main/library';
import { nullLogger } from '../../src/main/log';
import { createMemorySecretStore } from '../../src/main/secrets';
import { createFileHandles, type FileHandles } from '../../src/main/file-handles';
import { createHandlers, type HandlersHandle } from '../../src/main/handlers';
import { shipment, tempDir } from '../library/helpers';

/** Big enough that an Excel export of it is still writing rows when the handlers are disposed. */
const ROWS = 20_000;

let t: Awaited<ReturnType<typeof tempDir>>;
let dataset: DatasetMeta;
let handlers: HandlersHandle | null;
let progress: JobProgress[];
let finished: JobFinished[];
let files: FileHandles;

function until<T>(find: () => T | undefined, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = (): void => {
      const found = find();
      if (found !== undefined) resolve(found);
      else if (Date.now() - started > 30_000) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

beforeEach(async () => {
  t = await tempDir();
  const dataDir = join(t.dir, 'data');
  // The dataset is saved by a library of its own, closed before the handlers open theirs (DuckDB allows
  // one writer per file).
  const library = await Library.open(dataDir);
  dataset = await library.saveShipmentSearch(
    { hs_codes: ['7208'], start_date: '2024-01-01', end_date: '2024-09-30', size: 1000 },
    { total: ROWS, shipments: Array.from({ length: ROWS }, (_, i) => shipment(i)) },
    { profileName: 'desk', account: 'acme' },
  );
  await library.close();
  progress = [];
  finished = [];
  files = createFileHandles();
  handlers = createHandlers({
    dataDir,
    resourcesDir: join(t.dir, 'resources'),
    logger: nullLogger,
    events: {
      emit: (event, payload) => {
        if (event === 'jobs.progress') progress.push(payload as JobProgress);
        if (event === 'jobs.finished') finished.push(payload as JobFinished);
      },
    },
    secrets: createMemorySecretStore(),
    appInfo: { version: '0.0.0-test', host: 'browser' },
    fileHandles: files,
  });
  await mkdir(join(t.dir, 'out'));
});

afterEach(async () => {
  await handlers?.dispose();
  await t.cleanup();
});

describe('createHandlers(...).dispose', () => {
  it('cancels an export still writing rows, waits for it, and leaves no file (not even the temp file)', async () => {
    const handle = handlers as HandlersHandle;
    const path = join(t.dir, 'out', 'big.xlsx');
    const { jobId } = await handle['export.start'](
      {
        source: { datasetId: dataset.id },
        format: 'xlsx',
        target: files.issue({ purpose: 'export-target', path, format: 'xlsx', owned: false }),
      },
      {},
    );
    // Rows are being written: the temp file exists and the job has reported progress past zero.
    await until(
      () => progress.find((p) => p.jobId === jobId && p.done > 0 && p.done < ROWS),
      'rows progress',
    );
    expect(finished).toEqual([]);
    expect((await readdir(join(t.dir, 'out'))).some((f) => f.endsWith('.partial'))).toBe(true);

    await handle.dispose();
    handlers = null;

    // dispose resolved only after the export had stopped and cleaned up.
    expect(finished.map((f) => [f.jobId, f.outcome])).toEqual([[jobId, 'cancelled']]);
    expect(await readdir(join(t.dir, 'out'))).toEqual([]);
  });
});
