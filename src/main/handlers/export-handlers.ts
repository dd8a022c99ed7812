import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import type { ExportFormat, ExportView } from '@shared/export/export-contract';
import { AppError } from '@shared/ipc/errors';
import {
  exportCsv,
  exportParquet,
  exportXlsx,
  type ExportProgress,
  type ExportResult,
  createLibrarySummaryProvider,
  createMemorySource,
  createMemorySummaryProvider,
  libraryExportSource,
  shipmentColumns,
  type ExportSource,
  type SummaryProvider,
  checkTargetPath,
  exportFileName,
  exportsFolderPath,
} from '../export';
import type { FileHandles } from '../file-handles';
import { Library, defaultDatasetName, exportFileError, type ExportPlace } from '../library';
import type { Logger } from '../log';
import { writeFileAtomic } from '../fs';
import { EXPORT_SETTINGS_FILE, lastFolder } from './export-settings';
import type { HandlerContext } from './handler-context';
import type { KeptAnswer } from './kept-answers';
import { TEMP_FOLDER } from './host-files';
import type { ChooseSavePath, EventSink, HandlerSlice } from './types';

export type ExportChannel = 'export.start' | 'export.chooseTarget' | 'export.cancel';

export interface ExportHandlerDeps {
  /** The app's one library instance. */
  library: () => Promise<Library>;
  dataDir: string;
  events: EventSink;
  logger: Logger;
  appVersion: string;
  /** The host's save dialog; without one, files go to `<dataDir>/exports/`. */
  chooseSavePath?: ChooseSavePath;
  /** Where chosen targets are kept: the window names them by handle only. */
  files: FileHandles;
  /**
   * The finished file reaches the analyst as a browser download (the browser host): its path on the
   * host means nothing to them, so messages name the file only.
   */
  downloads?: boolean;
  /**
   * A search's answer the library could not store, kept in memory: exported from there (whole, as
   * answered), so the analyst can keep the records while saving keeps failing.
   */
  kept?: (datasetId: string) => KeptAnswer | undefined;
}

/** What an export writes and what it is called, from the library or from an answer kept in memory. */
interface ResolvedSource {
  source: ExportSource;
  name: string;
  kind: 'shipments' | 'firms';
  summaries: () => SummaryProvider;
}

function keptExportSource(kept: KeptAnswer, appVersion: string): ResolvedSource {
  const records = kept.response.shipments;
  return {
    source: createMemorySource({
      kind: 'shipments',
      columns: shipmentColumns(Library.columns('shipments')),
      rows: records,
      query: {
        profile: kept.provenance.profileName ?? '',
        account: kept.provenance.account ?? '',
        filter: kept.request,
        fetchedAt: kept.fetchedAt,
        totalReported: kept.response.total,
        appVersion,
      },
    }),
    name: defaultDatasetName('shipments', kept.request),
    kind: 'shipments',
    summaries: () => createMemorySummaryProvider(records),
  };
}

const FORMAT_LABEL: Record<ExportFormat, string> = { xlsx: 'Excel', csv: 'CSV', parquet: 'Parquet' };

/** Whole seconds left at the rate so far; null until there is a rate to go by. */
function etaSeconds(startedAt: number, done: number, total: number): number | null {
  const elapsed = (Date.now() - startedAt) / 1000;
  if (done <= 0 || total <= done || elapsed < 0.5) return done >= total && total > 0 ? 0 : null;
  return Math.ceil((elapsed / done) * (total - done));
}

/**
 * Exports a library dataset (or the grid view of one) to Excel, CSV or Parquet as a background job:
 * `export.start` answers at once with the job id, progress and the outcome arrive as `jobs.progress`
 * / `jobs.finished` events, `export.cancel` stops it and leaves no file behind.
 */
export function createExportHandlers(deps: ExportHandlerDeps): HandlerSlice<ExportChannel> & {
  /** Cancels running exports and waits for them to clean up (app shutdown). */
  disposeExports(): Promise<void>;
} {
  const log = deps.logger.child('export');
  // Without a save dialog (the browser host) a failure offers no other folder, in words or by a button.
  const place: ExportPlace = { canChooseFolder: deps.chooseSavePath !== undefined };
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  async function fromLibrary(datasetId: string, view: ExportView | undefined): Promise<ResolvedSource> {
    const library = await deps.library();
    const { source, meta } = await libraryExportSource(library, datasetId, view, deps.appVersion);
    return {
      source,
      name: meta.name,
      kind: meta.kind,
      summaries: () => createLibrarySummaryProvider(library, meta.id, view),
    };
  }

  return {
    async 'export.chooseTarget'({ suggestedName, format }) {
      const name = exportFileName(suggestedName, format);
      let path: string;
      if (!deps.chooseSavePath) {
        path = await exportsFolderPath(deps.dataDir, suggestedName, format);
      } else {
        const folder = await lastFolder(deps.dataDir);
        const chosen = await deps.chooseSavePath({ defaultPath: folder ? join(folder, name) : name, format });
        if (chosen === null) return null;
        path = await checkTargetPath(chosen, format);
        await writeFileAtomic(
          join(deps.dataDir, EXPORT_SETTINGS_FILE),
          JSON.stringify({ lastFolder: dirname(path) }, null, 2),
        ).catch((error: unknown) => log.warn('last export folder not remembered', { error }));
      }
      const handle = deps.files.issue({ purpose: 'export-target', path, format, owned: false });
      return { handle, name: basename(path), location: path };
    },

    async 'export.start'({ source: ref, format, summaries, target: targetHandle, overwrite }) {
      // Resolved before anything else: a handle that is unknown, expired or chosen for another format is refused.
      const chosen = targetHandle === undefined ? null : deps.files.resolve(targetHandle, 'export-target');
      if (chosen && chosen.format !== format) {
        throw new AppError(
          'InvalidInput',
          `That file was chosen for a ${FORMAT_LABEL[chosen.format ?? format]} export. Choose the file again.`,
        );
      }
      const kept = deps.kept?.(ref.datasetId);
      const {
        source,
        name,
        kind,
        summaries: summaryProvider,
      } = kept ? keptExportSource(kept, deps.appVersion) : await fromLibrary(ref.datasetId, ref.view);
      const target = chosen
        ? await checkTargetPath(chosen.path, format)
        : await exportsFolderPath(deps.dataDir, name, format);
      const handle =
        targetHandle ?? deps.files.issue({ purpose: 'export-target', path: target, format, owned: false });
      // Asked up front so the renderer can ask "Replace?" before any work; the writer checks again at the end.
      if (
        !overwrite &&
        (await readFile(target).then(
          () => true,
          () => false,
        ))
      ) {
        throw new AppError('Conflict', `${basename(target)} already exists. Replace it?`);
      }

      const jobId = randomUUID();
      const controller = new AbortController();
      const label = `${FORMAT_LABEL[format]} export of ${name}`;
      const startedAt = Date.now();
      const onProgress = (p: ExportProgress): void => {
        const total = p.rowCount > 0 ? p.rowCount : source.rowCount;
        deps.events.emit('jobs.progress', {
          kind: 'export',
          jobId,
          phase: p.phase,
          label:
            p.phase === 'rows'
              ? label
              : `${label}: ${p.phase === 'summaries' ? 'summary sheets' : 'finishing'}`,
          done: p.phase === 'rows' ? p.rowsWritten : total,
          total,
          unit: 'rows',
          etaSeconds: p.phase === 'rows' ? etaSeconds(startedAt, p.rowsWritten, total) : null,
        });
      };
      const options = {
        overwrite: overwrite === true,
        signal: controller.signal,
        onProgress,
        scratchDir: join(deps.dataDir, TEMP_FOLDER),
      };
      const work = async (): Promise<ExportResult> => {
        if (format === 'csv') return exportCsv(source, target, options);
        if (format === 'parquet') return exportParquet(source, target, options);
        const wantSummaries = summaries === true && kind === 'shipments';
        return exportXlsx(source, target, {
          ...options,
          ...(wantSummaries ? { summaries: { provider: summaryProvider() } } : {}),
        });
      };

      onProgress({ phase: 'rows', rowsWritten: 0, rowCount: source.rowCount });
      const done = work().then(
        (result) => {
          log.info('export finished', { jobId, format, rows: result.rowsWritten, bytes: result.bytes });
          deps.events.emit('jobs.finished', {
            kind: 'export',
            jobId,
            outcome: 'succeeded',
            message: deps.downloads
              ? `Exported ${result.rowsWritten.toLocaleString('en-US')} rows; your browser downloaded the file as ${basename(result.path)}`
              : `Exported ${result.rowsWritten.toLocaleString('en-US')} rows to ${result.path}`,
          });
        },
        (error: unknown) => {
          const cancelled =
            controller.signal.aborted || (error instanceof AppError && error.kind === 'Cancelled');
          if (!cancelled) log.error('export failed', { jobId, format, error });
          const known = error instanceof AppError ? null : exportFileError(error, place);
          const said = error instanceof AppError ? error : known?.error;
          // A failure of no kind we know is said as such, its own text kept as the detail.
          const told =
            said?.details.detail ??
            (said ? undefined : error instanceof Error ? error.message : String(error));
          // The browser host's folder is no place the analyst can open: its text names the file only.
          const detail =
            told && !place.canChooseFolder ? told.split(`${dirname(target)}${sep}`).join('') : told;
          deps.events.emit('jobs.finished', {
            kind: 'export',
            jobId,
            outcome: cancelled ? 'cancelled' : 'failed',
            message: cancelled
              ? 'The export was cancelled; no file was written.'
              : (said?.message ??
                'The export failed, and no file was written. Try again; if it fails again, the details are in the log file (Help → Show Log).'),
            ...(!cancelled && detail ? { detail } : {}),
            // The folder refused the file or its disk is full, and the host has a save dialog: the
            // window offers another folder.
            ...(!cancelled && known?.anotherFolder ? { anotherFolder: true } : {}),
          });
        },
      );
      running.set(jobId, { controller, done });
      void done.finally(() => running.delete(jobId));
      return { jobId, path: target, handle };
    },

    async 'export.cancel'({ jobId }) {
      const job = running.get(jobId);
      if (!job) throw new AppError('NotFound', 'That export is not running (it may have finished).');
      job.controller.abort();
      await job.done;
    },

    async disposeExports() {
      const jobs = [...running.values()];
      for (const j of jobs) j.controller.abort();
      await Promise.all(jobs.map((j) => j.done));
    },
  };
}

/**
 * The export calls over the shared service context, and `dispose`, which cancels running exports (their
 * temp files go) and waits for them; createHandlers' dispose calls it before the library closes.
 */
export function createExportHandlersFor(ctx: HandlerContext): {
  calls: HandlerSlice<ExportChannel>;
  dispose(): Promise<void>;
} {
  const { disposeExports, ...calls } = createExportHandlers({
    library: () => ctx.library(),
    dataDir: ctx.deps.dataDir,
    events: ctx.deps.events,
    logger: ctx.deps.logger,
    appVersion: ctx.deps.appInfo.version,
    ...(ctx.deps.chooseSavePath ? { chooseSavePath: ctx.deps.chooseSavePath } : {}),
    files: ctx.files,
    downloads: ctx.deps.appInfo.host === 'browser',
    kept: (datasetId) => ctx.kept.get(datasetId),
  });
  return { calls, dispose: disposeExports };
}
