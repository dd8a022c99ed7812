import type { EventChannel } from '@shared/ipc/channels';
import type { Events } from '@shared/ipc/contract';
import type { JobFinished, JobProgress } from '@shared/jobs/jobs-contract';
import { createFileHandles } from '../../src/main/file-handles';
import { createExportHandlers, type ExportHandlerDeps } from '../../src/main/handlers/export-handlers';
import type { Library } from '../../src/main/library';
import { nullLogger } from '../../src/main/log';

/**
 * The real export handlers over `library`, whose data folder is `dataDir`, as main builds them (version
 * `appVersion`, nothing logged): every host's handlers made here share the file handles and keep each
 * export's progress and end, oldest first, in `progress` and `finished`.
 */
export function exportJobsOver(library: Library, dataDir: string, appVersion = '0.0.0-test') {
  const files = createFileHandles();
  const progress: JobProgress[] = [];
  const finished: JobFinished[] = [];
  return {
    files,
    progress,
    finished,

    /** The handlers as a host builds them: with its save dialog, or as downloads, where it has them. */
    handlers(host: Pick<ExportHandlerDeps, 'chooseSavePath' | 'downloads'> = {}) {
      return createExportHandlers({
        files,
        library: async () => library,
        dataDir,
        logger: nullLogger,
        appVersion,
        ...host,
        events: {
          emit<E extends EventChannel>(event: E, payload: Events[E]) {
            if (event === 'jobs.progress') progress.push(payload as JobProgress);
            if (event === 'jobs.finished') finished.push(payload as JobFinished);
          },
        },
      });
    },

    /** How export `jobId` ended, once main has said so; a throw when it has not within 30 s. */
    ended(jobId: string): Promise<JobFinished> {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = (): void => {
          const f = finished.find((x) => x.jobId === jobId);
          if (f) resolve(f);
          else if (Date.now() - started > 30_000) reject(new Error('export did not finish'));
          else setTimeout(poll, 10);
        };
        poll();
      });
    },
  };
}
