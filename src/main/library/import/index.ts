import { basename } from 'node:path';
import { QUERY_KEYS } from '@shared/export/query-sheet-keys';
import { AppError } from '@shared/ipc/errors';
import type { ImportPlan, ImportPreviewChoices, UnnamedColumnFound } from '@shared/library/import-contract';
import type { ImportWarningView } from '@shared/library/library-contract';
import { isPlainObject } from '@shared/spec/records';
import type { DatasetMeta, DatasetStatus, Library } from '../library';
import { defaultDatasetName } from '../naming';
import { NativeCsvDeclined, StagedRowsChangedError } from '../ingest';
import { NO_RECORDS, refuse } from './parsed';
import type { PreparedImport, RememberedMapping } from './preview';
import { ImportRefusal } from './table-source';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './table-types';
import { checkInWorker, preparePreview, runInWorker } from './worker-client';
import type { RawPreview } from './raw-preview';
import type { CheckProgress } from './worker-protocol';

export { importFormatOf, xlsContent, type ImportFormat } from './file-type';
export { loadHsHeadings } from './hs-headings';
export type { ImportWarningView as ImportWarning } from '@shared/library/library-contract';
export { previewForPlan, shapeKeyOf, type PreparedImport, type RememberedMapping } from './preview';
export { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './table-types';
export { IMPORT_STAGING_PREFIX } from './worker-client';
export type { CheckProgress as ImportCheckProgress } from './worker-protocol';

export interface ImportResult {
  dataset: DatasetMeta;
  format: RawPreview['format'];
  rows: number;
  /** True when an xlsx export's Query sheet gave back the original filter. */
  filterRestored: boolean;
  /** Values kept as they were that will not sort or filter as dates and numbers, formulas without values, …; empty when none. */
  warnings: ImportWarningView[];
}

export interface ImportProgress {
  rowsStored: number;
  /** Rows the file says it holds (xlsx dimension, or a plain CSV's lines), when it says. */
  rowsTotal: number | null;
  /** What the import is doing beyond storing rows, in the analyst's words; null when nothing more. */
  step: string | null;
}

/**
 * Said while a plain CSV is read again on the row path after DuckDB's one-query insert was rolled back:
 * the rows stored go back to 0 and climb again, and this says why.
 */
export const REREAD_STEP = 'some rows need a closer look, so the file is read again row by row';

function asAppError(file: string, e: unknown): unknown {
  if (e instanceof ImportRefusal) return refuse(file, e.message, e.detail);
  if (e instanceof StagedRowsChangedError)
    return refuse(
      file,
      `${e.message}. Another program may still be writing it: import it again once that program has finished`,
    );
  return e;
}

/**
 * Reads the head of a file in the import worker and prepares its preview: nothing is stored. The
 * file is read off the main thread; `remembered` looks up a mapping confirmed for the same columns.
 */
export async function previewImport(
  path: string,
  opts: {
    fileName?: string;
    choices?: ImportPreviewChoices;
    remembered?: (shapeKey: string) => RememberedMapping | null;
    /** The HS headings (4 digits) known (hs-codes.csv): an HS code that lost its leading zero is restored by them. */
    hsHeadings?: readonly string[];
    limits?: ImportLimits;
    signal?: AbortSignal;
    /** Hears the packages the worker had loaded when it answered: what its start took. */
    onPackages?: (names: readonly string[]) => void;
  } = {},
): Promise<PreparedImport> {
  const file = opts.fileName ?? basename(path);
  try {
    return await preparePreview(path, file, {
      choices: opts.choices ?? {},
      remembered: opts.remembered ?? (() => null),
      ...(opts.hsHeadings ? { hsHeadings: opts.hsHeadings } : {}),
      limits: opts.limits ?? DEFAULT_IMPORT_LIMITS,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onPackages ? { onPackages: opts.onPackages } : {}),
    });
  } catch (e) {
    throw asAppError(file, e);
  }
}

/**
 * Reads the whole file under a plan (the preview's, or the analyst's changes to it) in the import
 * worker and counts what would not import as it is, as the import would: nothing is stored. The
 * preview's caps apply; a file the import would refuse is refused here, in the same words.
 */
export async function checkImport(
  path: string,
  prepared: PreparedImport,
  opts: {
    plan?: ImportPlan;
    limits?: ImportLimits;
    signal?: AbortSignal;
    onProgress?: (p: CheckProgress) => void;
  } = {},
): Promise<CheckProgress> {
  const file = prepared.view.fileName;
  const plan = opts.plan ?? prepared.plan;
  try {
    return await checkInWorker(path, file, plan, prepared, opts.onProgress ?? (() => undefined), {
      limits: opts.limits ?? DEFAULT_IMPORT_LIMITS,
      hsHeadings: prepared.hsHeadings,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (e) {
    if (opts.signal?.aborted || (e instanceof Error && e.name === 'AbortError'))
      throw new AppError('Cancelled', `The check of ${file} was stopped.`);
    throw asAppError(file, e);
  }
}

/** Clocks drift; a fetch time a little ahead of this machine's clock is still believed. */
const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * The Query sheet's fetch time when it is a real instant: an ISO 8601 time with its zone, not in the
 * future. Anything else (a hand-edited cell, a date without time zone) is not trusted, and the
 * import time is used as for any other file.
 */
export function trustedFetchedAt(text: string | undefined, now = Date.now()): string | undefined {
  const s = text?.trim() ?? '';
  if (!ISO_INSTANT.test(s)) return undefined;
  const ms = Date.parse(s);
  if (Number.isNaN(ms) || ms > now + CLOCK_SKEW_MS || ms < Date.UTC(2000, 0, 1)) return undefined;
  return new Date(ms).toISOString();
}

/** Why an export of a grid view holds only part of its dataset, from the Query sheet's view rows; null for a whole export. */
function viewNarrowing(query: ReadonlyMap<string, string>): string | null {
  const set = (key: string): string | null => {
    const v = (query.get(key) ?? '').trim();
    return v && v !== 'none' ? v : null;
  };
  const how: string[] = [];
  const filter = set(QUERY_KEYS.viewFilter);
  if (filter) {
    let columns = '';
    try {
      const model: unknown = JSON.parse(filter);
      if (isPlainObject(model)) columns = ` on ${Object.keys(model).join(', ')}`;
    } catch {
      // The columns are only named for the reader; the filter being there is what counts.
    }
    how.push(`column filters${columns}`);
  }
  const quick = set(QUERY_KEYS.viewQuickFilter);
  if (quick) how.push(`quick filter "${quick.slice(0, 80)}"`);
  return how.length > 0 ? `it was exported from a filtered view (${how.join('; ')})` : null;
}

interface ExportFacts {
  request?: Record<string, unknown>;
  profileName?: string;
  account?: string;
  fetchedAt?: string;
  reportedTotal?: number;
  rowsExported?: number;
  partOnly: string[];
  fromFilteredView: boolean;
}

/** What a Portolan export's Query sheet says about the query, who fetched it and what the file holds. */
function exportFacts(file: string, raw: RawPreview): ExportFacts {
  const facts: ExportFacts = { partOnly: [], fromFilteredView: false };
  if (!raw.query) return facts;
  const query = new Map(raw.query);
  const filterText = query.get(QUERY_KEYS.filter);
  if (filterText) {
    try {
      const f: unknown = JSON.parse(filterText);
      if (isPlainObject(f)) facts.request = f;
    } catch {
      throw refuse(file, 'its Query sheet holds a filter that is not valid JSON (was the sheet edited?)');
    }
  }
  const profile = query.get(QUERY_KEYS.profile);
  if (profile) facts.profileName = profile;
  const account = query.get(QUERY_KEYS.account);
  if (account) facts.account = account;
  const fetchedAt = trustedFetchedAt(query.get(QUERY_KEYS.fetchedAt));
  if (fetchedAt) facts.fetchedAt = fetchedAt;
  const total = query.get(QUERY_KEYS.totalReported) ?? '';
  if (/^\d+$/.test(total)) facts.reportedTotal = Number(total);
  const exported = query.get(QUERY_KEYS.rowsExported) ?? '';
  if (/^\d+$/.test(exported)) facts.rowsExported = Number(exported);
  const narrowed = viewNarrowing(query);
  if (narrowed) {
    facts.partOnly.push(narrowed);
    facts.fromFilteredView = true;
  }
  if (query.get(QUERY_KEYS.cutCells))
    facts.partOnly.push("some texts were cut at Excel's cell limit in the workbook (see its Query sheet)");
  if (query.get(QUERY_KEYS.alteredCells))
    facts.partOnly.push('some texts lost characters a spreadsheet cannot hold (see its Query sheet)');
  return facts;
}

/** Whether the preview listed the column for mapping (a column with no name and no value it did not). */
function listedIn(prepared: PreparedImport, index: number): boolean {
  const column = prepared.view.columns[index];
  return column !== undefined && column.empty !== true;
}

/**
 * A column the preview did not list (no name in the header row, nothing in the rows it read) that
 * holds values further down: the import keeps them, and says so, since the analyst never saw it.
 */
function unlistedColumnWarning(f: UnnamedColumnFound): ImportWarningView {
  const values = f.count === 1 ? '1 value' : `${f.count.toLocaleString('en-US')} values`;
  return {
    field: f.header,
    count: f.count,
    firstAt: f.at,
    example: f.example,
    at: [f.at],
    message:
      `${f.header}: a column with no name in the header row and nothing in the rows the preview showed holds ${values} further down ` +
      `(first: ${f.at}, "${f.example}"). ${f.count === 1 ? 'It is' : 'They are'} kept in the extra column ${f.header}`,
  };
}

/**
 * Imports a file as one new dataset under a plan (the preview's, or the analyst's changes to it): the
 * worker reads and converts it off the main thread, batches are stored as they come, and the dataset
 * appears only when every row is in. A refusal, a failure or a cancel leaves the library as it was.
 */
export async function runImport(
  library: Library,
  path: string,
  prepared: PreparedImport,
  opts: {
    plan?: ImportPlan;
    name?: string;
    tags?: string[];
    limits?: ImportLimits;
    signal?: AbortSignal;
    onProgress?: (p: ImportProgress) => void;
  } = {},
): Promise<ImportResult> {
  const file = prepared.view.fileName;
  const plan = opts.plan ?? prepared.plan;
  const raw = prepared.raw;
  if (raw.head.length === 0) throw refuse(file, 'the file is empty');
  if (plan.mapping.every((f) => f === null)) {
    throw refuse(
      file,
      `none of its columns is read as a ${plan.kind === 'firms' ? 'firm' : 'shipment'} field; ` +
        'choose in the import preview which column holds which field',
    );
  }
  const facts = exportFacts(file, raw);
  const kind = plan.kind;
  const json = raw.facts ?? {};
  const reportedTotal = facts.reportedTotal ?? json.reportedTotal ?? null;
  const name =
    opts.name?.trim() ||
    (facts.request
      ? defaultDatasetName(kind, facts.request) + (facts.fromFilteredView ? ' · filtered view' : '')
      : `Imported ${kind} · ${file}`);
  const id = await library.beginImport({
    kind,
    request: facts.request ?? {},
    name,
    source: 'import',
    profileName: facts.profileName ?? null,
    account: facts.account ?? null,
    reported: json.reported ?? null,
    tags: opts.tags ?? [],
  });
  let stored = 0;
  const rowsTotal = raw.sheets[plan.sheet]?.rows ?? null;
  // An xlsx says how many rows it holds; a plain CSV read by DuckDB in one query, how many lines.
  let total = rowsTotal === null ? null : Math.max(0, rowsTotal - plan.headerRow);
  let step: string | null = null;
  const report = (rowsStored: number): void => opts.onProgress?.({ rowsStored, rowsTotal: total, step });
  try {
    const summary = await runInWorker(
      path,
      file,
      plan,
      prepared,
      async (part) => {
        if ('csv' in part.source) total ??= part.rows;
        // A part copied in one long query (a whole CSV read by DuckDB) reports DuckDB's progress in it.
        const within = opts.onProgress
          ? (share: number): void => report(stored + Math.floor(share * part.rows))
          : undefined;
        try {
          await library.appendImported(id, kind, stored, part.source, within, opts.signal);
        } catch (e) {
          if (!(e instanceof NativeCsvDeclined)) throw e;
          // Rolled back: the worker reads the file again row by row (and says what it finds). The count
          // shown goes back to what is really stored, with the reason beside it.
          step = REREAD_STEP;
          report(stored);
          return false;
        }
        stored += part.rows;
        report(stored);
        return true;
      },
      {
        limits: opts.limits ?? DEFAULT_IMPORT_LIMITS,
        hsHeadings: prepared.hsHeadings,
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
    );
    if (summary.rows === 0) throw refuse(file, NO_RECORDS);
    const partOnly = [...facts.partOnly, ...(json.partOnly ?? []), ...summary.partOnly];
    if (facts.rowsExported !== undefined && summary.rows < facts.rowsExported)
      partOnly.push(
        `rows were removed from the workbook after export (${summary.rows} of ${facts.rowsExported} left)`,
      );
    if (reportedTotal !== null && summary.rows < reportedTotal)
      partOnly.push(
        `it holds ${summary.rows.toLocaleString('en-US')} of the ${reportedTotal.toLocaleString('en-US')} records the service reported`,
      );
    const status: DatasetStatus = partOnly.length > 0 ? 'partial' : 'complete';
    const notes =
      `Imported from ${file}` +
      (partOnly.length > 0 ? `. Only part of its query's records: ${partOnly.join('; ')}.` : '');
    const dataset = await library.finishImport(id, {
      status,
      storedRows: summary.rows,
      reportedTotal,
      ...(facts.fetchedAt ? { fetchedAt: facts.fetchedAt } : {}),
      notes,
      missingFields: summary.missingFields,
      extraColumns: summary.extraColumns,
    });
    return {
      dataset,
      format: raw.format,
      rows: summary.rows,
      filterRestored: facts.request !== undefined,
      warnings: [
        ...summary.warnings,
        ...summary.unnamedFound.filter((f) => !listedIn(prepared, f.index)).map(unlistedColumnWarning),
      ],
    };
  } catch (e) {
    await library.discardImport(id).catch(() => undefined);
    if (opts.signal?.aborted || (e instanceof Error && e.name === 'AbortError')) {
      throw new AppError('Cancelled', `The import of ${file} was cancelled; the library was not changed.`);
    }
    throw asAppError(file, e);
  }
}

/**
 * Imports a file the way the app's preview would, without changes: the automatic mapping (or the
 * Portolan export's own), the guessed locale.
 */
export async function importFile(
  library: Library,
  path: string,
  opts: { name?: string; tags?: string[]; fileName?: string; signal?: AbortSignal } = {},
): Promise<ImportResult> {
  const prepared = await previewImport(path, {
    ...(opts.fileName ? { fileName: opts.fileName } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return runImport(library, path, prepared, {
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.tags ? { tags: opts.tags } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}
