import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { JobFinished } from '@shared/jobs/jobs-contract';
import { createDispatcher, createHandlers } from '../../src/main/handlers';
import { Library } from '../../src/main/library';
import { nullLogger } from '../../src/main/log';
import { createMemorySecretStore } from '../../src/main/secrets';
import { shipment } from '../library/helpers';
import { exportJobsOver } from './export-jobs';

/** Mounting (a bind mount, a small or read-only tmpfs) needs root, as on CI's machine. */
export const mountable = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;

/**
 * What the tests of the system's refusals (a held, full or read-only disk, a refusing folder) share:
 * fresh folders, mounts and whatever else they open, undone after each test of the calling file (the
 * latest first, then the folders), the real handlers over a data folder, and the real export handlers.
 */
export function useDiskTrouble(prefix: string) {
  const dirs: string[] = [];
  const undo: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const u of undo.splice(0).reverse()) await u();
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });
  const later = (u: () => Promise<void> | void): void => void undo.push(u);

  return {
    later,

    async freshDir(): Promise<string> {
      const d = await mkdtemp(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },

    /** `mount` with `args`, whose last is the mount point, unmounted after the test. */
    mount(args: string[]): void {
      const r = spawnSync('mount', args, { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`mount ${args.join(' ')} failed: ${r.stderr}`);
      later(() => void spawnSync('umount', [args.at(-1)!]));
    },

    /** The real handlers over `dataDir` (memory keychain: nothing here needs a profile), as the window calls them. */
    handlers(dataDir: string, host: 'browser' | 'electron' = 'browser') {
      const handlers = createHandlers({
        dataDir,
        resourcesDir: join(dataDir, 'resources'),
        logger: nullLogger,
        events: { emit: () => undefined },
        secrets: createMemorySecretStore(),
        appInfo: { version: '0.0.0-test', host },
      });
      const dispatch = createDispatcher<'app'>({ handlers, logger: nullLogger, isTrustedSender: () => true });
      later(() => handlers.dispose());
      return (channel: string, input?: unknown) => dispatch(channel, input, 'app');
    },

    /**
     * The real export handlers over a real library in `dir` holding one search of `rows`, as the
     * desktop app (whose save dialog can choose another place) runs them; `run` exports it as CSV.
     */
    async exporter(dir: string, rows = Array.from({ length: 20 }, (_, i) => shipment(i))) {
      const library = await Library.open(join(dir, 'data'));
      later(() => library.close());
      const dataset = await library.saveShipmentSearch(
        { importer_countries: ['TR'], start_date: '2024-01-01', end_date: '2024-03-31', size: rows.length },
        { total: rows.length, shipments: rows },
        { profileName: 'Work', account: 'acme' },
      );
      const jobs = exportJobsOver(library, join(dir, 'data'));
      const service = jobs.handlers({ chooseSavePath: async () => null });
      return {
        async run(path: string, overwrite = false): Promise<JobFinished> {
          const target = jobs.files.issue({ purpose: 'export-target', path, format: 'csv', owned: false });
          const { jobId } = await service['export.start'](
            { source: { datasetId: dataset.id }, format: 'csv', target, ...(overwrite ? { overwrite } : {}) },
            {},
          );
          return jobs.ended(jobId);
        },
      };
    },
  };
}
