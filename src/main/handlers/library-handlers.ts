import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AppError } from '@shared/ipc/errors';
import type { DatasetKind, DatasetRow, DatasetView } from '@shared/library/library-contract';
import { SEARCH_HEAD_ROWS, type ShipmentSearchHead } from '@shared/query/query-contract';
import type { FirmSearchResponse, ShipmentSearchResponse } from '@shared/spec/responses';
import { checkShipmentRecordList, type ShipmentField } from '@shared/spec/records';
import {
  checkImport,
  defaultDatasetName,
  describeSource,
  loadHsHeadings,
  previewImport,
  runImport,
  seriesKey,
  storageError,
  whyNotStored,
  type AnswerStage,
  type DatasetMeta,
  type Library,
  type Provenance,
} from '../library';
import { readAnswerHead } from '../api';
import { loadImportMappings, type ImportMappings } from './import-mappings';
import type { KeptAnswer } from './kept-answers';
import type { HandlerContext } from './handler-context';
import { openProfileSession, type ProfileSession } from './profile-session';
import type { QueryHandlers } from './query-handlers';
import type { HandlerSlice } from './types';

export type LibraryChannel =
  | 'library.status'
  | 'library.list'
  | 'library.get'
  | 'library.rename'
  | 'library.setTags'
  | 'library.setNotes'
  | 'library.delete'
  | 'library.getRows'
  | 'library.findEquivalent'
  | 'library.chooseImportFile'
  | 'library.import'
  | 'library.previewImport'
  | 'library.checkImport'
  | 'library.cancelImportCheck'
  | 'library.cancelImport'
  | 'library.versions'
  | 'library.saveAgain'
  | 'library.keptRecords';

/** Said when an answer is asked for that main no longer keeps (saved since, pushed out, or the app restarted). */
const NOT_KEPT =
  'This answer is no longer kept in memory: Portolan keeps the last two answers it could not save, until it ' +
  'closes. Search again to fetch it.';

/** The library's metadata is already JSON-safe; this pins the bridge shape to it. */
export function toDatasetView(m: DatasetMeta): DatasetView {
  return {
    id: m.id,
    name: m.name,
    kind: m.kind,
    request: m.request,
    profileId: m.profileId,
    profileName: m.profileName,
    account: m.account,
    fetchedAt: m.fetchedAt,
    reportedTotal: m.reportedTotal,
    storedRows: m.storedRows,
    notes: m.notes,
    tags: m.tags,
    status: m.status,
    windows: m.windows,
    reported: m.reported,
    source: m.source,
    missingFields: m.missingFields,
    extraColumns: m.extraColumns,
    series: seriesKey(m),
    query: describeSource(m),
  };
}

function rowValue(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * Who a result belongs to, for provenance and for "the same question" lookups: the profile, and the
 * account the request named (or the profile's default account).
 */
export function createLibraryHandlers(ctx: HandlerContext): HandlerSlice<LibraryChannel> {
  const lib = () => ctx.library();
  const events = ctx.deps.events;
  const log = ctx.deps.logger.child('import');
  let mappingsLoaded: Promise<ImportMappings> | null = null;
  const importMappings = (): Promise<ImportMappings> =>
    (mappingsLoaded ??= loadImportMappings(ctx.deps.dataDir));
  let headingsLoaded: Promise<string[]> | null = null;
  /** The HS headings an import restores lost leading zeros by; none (5 and 7 digits only) if the file is missing. */
  const hsHeadings = (): Promise<string[]> =>
    (headingsLoaded ??= loadHsHeadings(join(ctx.deps.resourcesDir, 'data', 'hs-codes.csv')).catch(
      (e: unknown) => {
        log.warn('HS headings not read; lost leading zeros are restored by length only', {
          error: e instanceof Error ? e.message : String(e),
        });
        return [];
      },
    ));
  let runningImport: AbortController | null = null;
  /** "Save again" under way by dataset id: a second press waits for the first instead of storing twice. */
  const savingAgain = new Map<string, Promise<DatasetView>>();
  async function saveAgain(kept: KeptAnswer): Promise<DatasetView> {
    try {
      // Inside: a library that still cannot be opened is a save that still failed.
      const library = await lib();
      const meta = await library.saveShipmentSearch(kept.request, kept.response, {
        ...kept.provenance,
        id: kept.datasetId,
        fetchedAt: kept.fetchedAt,
      });
      ctx.kept.drop(kept.datasetId);
      events.emit('library.changed', { change: 'saved', datasetId: kept.datasetId });
      return toDatasetView(meta);
    } catch (e) {
      const typed = e instanceof AppError ? e : storageError(e);
      throw new AppError(
        typed?.kind ?? 'Conflict',
        `It still could not be saved, and it is still kept. ${whyNotStored(e)}`,
      );
    }
  }
  /** The one whole-file check under way: the dialog checks one plan of one file at a time. */
  let runningCheck: { id: string; controller: AbortController } | null = null;
  return {
    'library.status': async () => {
      const { recovery } = await lib();
      return {
        recovered: recovery
          ? {
              keptAs: recovery.keptAs,
              notice:
                `Portolan could not read its library file (it is damaged), so it kept it aside as ${recovery.keptAs} ` +
                'in its data folder and started a fresh, empty library. Datasets saved before are in that file.',
            }
          : null,
      };
    },
    'library.list': async (input) => (await (await lib()).list(input ?? {})).map(toDatasetView),
    'library.get': async ({ id }) => {
      const library = await lib();
      const view = toDatasetView(await library.get(id));
      return view.extraColumns?.length
        ? { ...view, extraColumnTypes: (await library.extrasOf(id)).types }
        : view;
    },
    'library.rename': async ({ id, name }) => toDatasetView(await (await lib()).rename(id, name)),
    'library.setTags': async ({ id, tags }) => toDatasetView(await (await lib()).setTags(id, tags)),
    'library.setNotes': async ({ id, notes }) => toDatasetView(await (await lib()).setNotes(id, notes)),
    'library.delete': async ({ id }) => {
      await (await lib()).delete(id);
    },
    'library.getRows': async ({
      id,
      startRow,
      endRow,
      sortModel,
      filterModel,
      quickFilter,
      columns,
      resolvedFirms,
    }) => {
      const block = await (
        await lib()
      ).getRows(id, {
        startRow,
        endRow,
        sortModel: sortModel ?? [],
        filterModel: filterModel ?? null,
        quickFilter: quickFilter ?? null,
        columns: columns ?? null,
        ...(resolvedFirms ? { resolvedFirms } : {}),
      });
      return {
        lastRow: block.lastRow,
        rows: block.rows.map((r) => {
          const out: DatasetRow = { _row: Number(r._row) };
          for (const [k, v] of Object.entries(r)) if (k !== '_row') out[k] = rowValue(v);
          return out;
        }),
      };
    },
    'library.findEquivalent': async ({ profileId, kind, request }) => {
      // No profile (first run, keychain trouble) simply means nothing was fetched for it yet.
      const session = await openProfileSession(ctx, profileId, request).catch(() => null);
      if (!session) return null;
      const datasetKind: DatasetKind = kind ?? ('page' in request ? 'firms' : 'shipments');
      const { profileId: pid, account } = session.provenance;
      const hit = await (await lib()).findEquivalent(request, { kind: datasetKind, profileId: pid, account });
      return hit ? { dataset: toDatasetView(hit.dataset), ageSeconds: hit.ageSeconds } : null;
    },
    'library.chooseImportFile': async () => {
      const choose = ctx.deps.chooseOpenPath;
      if (!choose) {
        throw new AppError('Conflict', 'Choose the file with "Import a file" on the Library page.');
      }
      const path = await choose({ purpose: 'import' });
      if (path === null) return null;
      const info = await stat(path).catch(() => null);
      if (!info?.isFile())
        throw new AppError('NotFound', `${basename(path)} is not a file; choose another one.`);
      const handle = ctx.files.issue({ purpose: 'import-source', path, owned: false });
      return { handle, name: basename(path), location: dirname(path), size: info.size };
    },
    'library.previewImport': async ({ file, choices }, call) => {
      // Resolved, not used up: the analyst may preview again (another sheet) before importing.
      const chosen = ctx.files.resolve(file, 'import-source');
      const mappings = await importMappings();
      const headings = await hsHeadings();
      const asked = performance.now();
      let packages: readonly string[] = [];
      const prepared = await previewImport(chosen.path, {
        fileName: basename(chosen.path),
        ...(choices ? { choices } : {}),
        remembered: (key) => mappings.recall(key),
        hsHeadings: headings,
        ...(call.signal ? { signal: call.signal } : {}),
        onPackages: (names) => (packages = names),
      });
      // What a slow preview spent its start on: the worker loads each reader's packages as a file needs them.
      log.debug('preview prepared', {
        format: prepared.view.format,
        ms: Math.round(performance.now() - asked),
        packages,
      });
      return prepared.view;
    },
    'library.checkImport': async ({ file, plan, checkId }, call) => {
      // A newer plan's check replaces the one before: only what the dialog shows is worth the work.
      runningCheck?.controller.abort();
      const controller = new AbortController();
      const running = { id: checkId, controller };
      runningCheck = running;
      const onCallAbort = (): void => controller.abort();
      call.signal?.addEventListener('abort', onCallAbort, { once: true });
      try {
        // Resolved, not used up: the import of the same choice comes after.
        const chosen = ctx.files.resolve(file, 'import-source');
        const mappings = await importMappings();
        const prepared = await previewImport(chosen.path, {
          fileName: basename(chosen.path),
          choices: { sheet: plan.sheet, headerRow: plan.headerRow, kind: plan.kind },
          remembered: (key) => mappings.recall(key),
          hsHeadings: await hsHeadings(),
          signal: controller.signal,
        });
        if (plan.mapping.length > prepared.headers.length) {
          throw new AppError(
            'InvalidInput',
            'The mapping names more columns than the file has; preview the file again.',
          );
        }
        const checked = await checkImport(chosen.path, prepared, {
          plan,
          signal: controller.signal,
          onProgress: (p) => events.emit('library.importCheck', { checkId, ...p, done: false }),
        });
        return { checkId, ...checked, done: true };
      } finally {
        call.signal?.removeEventListener('abort', onCallAbort);
        if (runningCheck === running) runningCheck = null;
      }
    },
    'library.cancelImportCheck': async ({ checkId }) => {
      if (runningCheck?.id === checkId) runningCheck.controller.abort();
    },
    'library.import': async ({ file, name, plan }, call) => {
      // The import reads the file itself: a check still under way would only slow it down.
      runningCheck?.controller.abort();
      if (runningImport)
        throw new AppError('Conflict', 'Another import is running; wait for it to finish or cancel it.');
      // Used up here: one choice of a file is one import, and an uploaded copy goes once it is read.
      const chosen = ctx.files.take(file, 'import-source');
      const controller = new AbortController();
      const onCallAbort = (): void => controller.abort();
      call.signal?.addEventListener('abort', onCallAbort, { once: true });
      runningImport = controller;
      const fileName = basename(chosen.path);
      const jobId = `import-${randomUUID()}`;
      try {
        const library = await lib();
        const mappings = await importMappings();
        const prepared = await previewImport(chosen.path, {
          fileName,
          ...(plan ? { choices: { sheet: plan.sheet, headerRow: plan.headerRow, kind: plan.kind } } : {}),
          remembered: (key) => mappings.recall(key),
          hsHeadings: await hsHeadings(),
          signal: controller.signal,
        });
        const chosenPlan = plan ?? prepared.plan;
        if (chosenPlan.mapping.length > prepared.headers.length) {
          throw new AppError(
            'InvalidInput',
            'The mapping names more columns than the file has; preview the file again.',
          );
        }
        const label = `Import of ${fileName}`;
        const r = await runImport(library, chosen.path, prepared, {
          plan: chosenPlan,
          ...(name ? { name } : {}),
          signal: controller.signal,
          onProgress: (p) =>
            events.emit('jobs.progress', {
              kind: 'import',
              jobId,
              label: p.step ? `${label}: ${p.step}` : label,
              done: p.rowsStored,
              total: p.rowsTotal,
              unit: 'rows',
              etaSeconds: null,
              step: p.step,
            }),
        });
        // A mapping the analyst confirmed is offered again for files with the same columns.
        if (plan && !prepared.view.fromPortolan) {
          await mappings
            .remember(prepared.shapeKey, {
              kind: plan.kind,
              mapping: plan.mapping,
              ...(plan.leftOut?.length ? { leftOut: plan.leftOut } : {}),
              locale: plan.locale,
            })
            .catch((error: unknown) => log.warn('import mapping not remembered', { error }));
        }
        events.emit('jobs.finished', {
          kind: 'import',
          jobId,
          outcome: 'succeeded',
          message: `Imported ${r.rows.toLocaleString('en-US')} rows from ${fileName}`,
          datasetId: r.dataset.id,
        });
        return { ...r, dataset: toDatasetView(r.dataset) };
      } catch (e) {
        events.emit('jobs.finished', {
          kind: 'import',
          jobId,
          outcome: controller.signal.aborted ? 'cancelled' : 'failed',
          message: e instanceof AppError ? e.message : 'The import failed; the library was not changed.',
          datasetId: null,
        });
        throw e;
      } finally {
        call.signal?.removeEventListener('abort', onCallAbort);
        runningImport = null;
        await ctx.files.release(chosen);
      }
    },
    'library.cancelImport': async () => {
      runningImport?.abort();
    },
    'library.versions': async ({ id }) => {
      const library = await lib();
      const series = seriesKey(await library.get(id));
      // Newest first, as the list is: the dataset's metadata only, a few hundred rows at most.
      return (await library.list({})).filter((d) => seriesKey(d) === series).map(toDatasetView);
    },
    'library.saveAgain': async ({ id }) => {
      const kept = ctx.kept.get(id);
      if (!kept) {
        // Saved already (a second press after the first succeeded): the stored dataset is the answer.
        const stored = await (await lib()).get(id).catch(() => null);
        if (stored) return toDatasetView(stored);
        throw new AppError('NotFound', NOT_KEPT);
      }
      const running = savingAgain.get(id) ?? saveAgain(kept);
      savingAgain.set(id, running);
      try {
        return await running;
      } finally {
        savingAgain.delete(id);
      }
    },
    'library.keptRecords': async ({ id }) => {
      const kept = ctx.kept.get(id);
      if (!kept) throw new AppError('NotFound', NOT_KEPT);
      return kept.response.shipments;
    },
  };
}

/**
 * The first rows of an answer as the library stores them (`_row` from 0), for the grid's first block:
 * with only `columns` when the grid named the ones it shows. Every field in them is converted and
 * crosses to the window before the first rows can show, so the fields the grid does not show are left
 * to the library.
 */
function headRows(
  records: readonly Record<string, unknown>[],
  columns: readonly ShipmentField[] | undefined,
): DatasetRow[] {
  const value = (v: unknown) => (v === null || v === undefined ? null : rowValue(v));
  return records.slice(0, SEARCH_HEAD_ROWS).map((r, i) => {
    const out: DatasetRow = { _row: i };
    if (columns) for (const k of columns) out[k] = value(r[k]);
    else for (const [k, v] of Object.entries(r)) if (k !== '_row') out[k] = value(v);
    return out;
  });
}

/**
 * A search's first rows as `headRows` gives them, read from the start of its answer's bytes
 * (`readAnswerHead`; `whole` when these are all of them) while the rest still arrives, or at least
 * before the whole answer is parsed and checked. Null where they cannot be vouched for so early: not
 * found there, not records the spec allows, or no match at all. `returned` is what a whole answer
 * holds: every record its list ended with, or all of `total` that `size` allows.
 */
function headOf(
  bytes: Uint8Array,
  whole: boolean,
  size: number,
  columns: readonly ShipmentField[] | undefined,
): Omit<ShipmentSearchHead, 'headId' | 'datasetId'> | null {
  const read = readAnswerHead(bytes, SEARCH_HEAD_ROWS, whole);
  if (!read || read.total === 0) return null;
  const returned = read.complete ? read.records.length : Math.min(size, read.total);
  if (read.records.length !== Math.min(returned, SEARCH_HEAD_ROWS)) return null;
  const checked = checkShipmentRecordList(read.records, 'response.shipments');
  if (!checked.ok) return null;
  return {
    total: read.total,
    returned,
    head: headRows(checked.value, columns),
    ...(columns ? { headColumns: [...columns] } : {}),
  };
}

/**
 * Every search result goes to the library in main, right where it arrives, so the response never
 * crosses the bridge whole. A save that fails is logged and the result is still returned.
 *
 * A shipment search answers as soon as the service has: its dataset id is given before the save ends,
 * with the first block of rows, and the save goes on (a read of the dataset waits for it); the
 * library announces the dataset once it is stored. When that save fails, the answer is kept in main
 * (kept-answers.ts) and `library.saveFailed` says so: the window offers "Save again" (`library.saveAgain`)
 * and the records from memory (`library.keptRecords`). Only when the library cannot be opened at all do
 * the records themselves cross with the answer, so what was paid for is still shown.
 */
export function withLibrarySaving(
  ctx: HandlerContext,
  slice: QueryHandlers,
): Omit<QueryHandlers, 'searchShipments'> & HandlerSlice<'shipments.search'> {
  const log = ctx.deps.logger.child('library');
  const warn = (e: unknown) =>
    log.warn('search result not saved to the library', {
      error: e instanceof Error ? e.message : String(e),
    });
  async function save(
    session: ProfileSession,
    run: (library: Library, provenance: Provenance) => Promise<DatasetMeta>,
  ): Promise<string | null> {
    try {
      const meta = await run(await ctx.library(), session.provenance);
      return meta.id;
    } catch (e) {
      warn(e);
      return null;
    }
  }
  const { searchShipments, ...calls } = slice;
  return {
    ...calls,
    'shipments.search': async ({ headColumns, headId, ...input }) => {
      // The profile is resolved once: the search runs and its answer is saved under the same one, even
      // when the active profile changes while the request is out.
      const session = await openProfileSession(ctx, input.profileId, input.request);
      const datasetId = randomUUID();
      // Prepared while the request is out, so that the library stores the answer from its bytes while
      // this thread parses them (AnswerStage).
      let stage: AnswerStage | null = null;
      // The library, once open: the answer will be stored there, and the window may read it from the head.
      let libraryOpen: Library | null = null;
      const staging = ctx
        .library()
        .then((l) => ((libraryOpen = l), l.stageAnswer(datasetId)))
        .then(
          (s) => (stage = s),
          () => null,
        );
      // Reads of the dataset, which the window knows from the head, wait until its save begins.
      let releaseReads = null as (() => void) | null;
      const announceHead = (id: string, library: Library, bytes: Uint8Array, whole: boolean): boolean => {
        // Once per search, whatever the client asks: a second hold would leave the first unreleased.
        if (releaseReads) return true;
        const head = headOf(bytes, whole, input.request.size, headColumns);
        if (!head) return false;
        releaseReads = library.holdReads(datasetId);
        ctx.deps.events.emit('shipments.head', { headId: id, datasetId, ...head });
        return true;
      };
      let response: ShipmentSearchResponse;
      try {
        response = await searchShipments({
          ...input,
          profileId: session.profile.id,
          onBody: (bytes) => stage?.begin(bytes),
          // Only where the answer will be stored: the window reads the rest from the library.
          ...(headId
            ? { onStart: (bytes, whole) => !libraryOpen || announceHead(headId, libraryOpen, bytes, whole) }
            : {}),
        });
      } catch (e) {
        releaseReads?.();
        void staging.then((s) => s?.discard());
        throw e;
      }
      try {
        const answer = { total: response.total, returned: response.shipments.length };
        const kept: KeptAnswer = {
          datasetId,
          request: { ...input.request },
          response,
          provenance: session.provenance,
          fetchedAt: new Date().toISOString(),
        };
        let library: Library;
        try {
          library = await ctx.library();
        } catch (e) {
          warn(e);
          void staging.then((s) => s?.discard());
          // Kept as a failed save is, so it can be saved once the library opens, and exported meanwhile.
          ctx.kept.keep(kept);
          const saveFailed = { datasetId, reason: whyNotStored(e), records: answer.returned };
          return { ...answer, datasetId: null, head: [], unsaved: response.shipments, saveFailed };
        }
        const answerStage = await staging;
        const saving = library.saveShipmentSearch(kept.request, response, {
          ...session.provenance,
          id: datasetId,
          ...(answerStage ? { answer: answerStage } : {}),
          // Stored only once this answer has gone out: converting the records is work on this thread.
          startAfter: () => new Promise<void>((resolve) => setImmediate(resolve)),
        });
        void saving.then(
          () => ctx.deps.events.emit('library.changed', { change: 'saved', datasetId }),
          (e: unknown) => {
            warn(e);
            // Paid for and stored nowhere: kept for "Save again", and the window told why.
            ctx.kept.keep(kept);
            ctx.deps.events.emit('library.saveFailed', {
              datasetId,
              reason: whyNotStored(e),
              records: response.shipments.length,
            });
          },
        );
        return {
          ...answer,
          datasetId,
          head: headRows(response.shipments, headColumns),
          ...(headColumns ? { headColumns } : {}),
        };
      } finally {
        // The save has begun (reads now wait for it), or the answer went out without one.
        releaseReads?.();
      }
    },
    'firms.search': async (input, c) => {
      const session = await openProfileSession(ctx, input.profileId, input.request);
      const response: FirmSearchResponse = await slice['firms.search'](
        { ...input, profileId: session.profile.id },
        c,
      );
      const datasetId = await save(session, (library, provenance) => {
        // One page of several is only part of the answer: it must not pass for the whole search later.
        const whole = response.total_pages <= 1 && input.request.page === 1;
        return library.saveRecords(
          {
            ...provenance,
            kind: 'firms',
            request: { ...input.request },
            ...(whole
              ? {}
              : {
                  name: `${defaultDatasetName('firms', input.request)} · page ${response.page} of ${response.total_pages}`,
                }),
            reportedTotal: whole ? response.firms.length : null,
            reported: {
              page: response.page,
              total_pages: response.total_pages,
              total_shipment: response.total_shipment,
            },
          },
          response.firms,
          { status: whole ? 'complete' : 'partial' },
        );
      });
      return { ...response, datasetId };
    },
  };
}
