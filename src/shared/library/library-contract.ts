import { z } from 'zod';
import { defineCall } from '../define-call';
import { DATASET_KINDS, type DatasetKind } from '../fields';
import {
  importCheckIdSchema,
  importCheckInputSchema,
  importPlanSchema,
  importPreviewChoicesSchema,
  type ImportCheckView,
  type ImportPreviewView,
  type ImportWarningView,
} from './import-contract';
import { columnFilterSchema } from './grid-filter';
import { fileHandleSchema, type ChosenFile } from '../files/file-handle';
import { firmSearchRequestSchema, shipmentSearchRequestSchema } from '../spec/operations';
import { FIRM_FIELDS, SHIPMENT_FIELDS, type ShipmentRecord } from '../spec/records';
import {
  MAX_NAME_LENGTH,
  MAX_NOTES_LENGTH,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  TAG_TOO_LONG,
  TOO_MANY_TAGS,
} from './dataset-fields';

/** Import warnings travel with a dataset's import result; their shape is the import contract's. */
export type { ImportWarningView };

/** The offline library's bridge calls: input schemas and result types. */

export { DATASET_KINDS, type DatasetKind } from '../fields';

/** One dataset of the library as the renderer sees it (the library's DatasetMeta, JSON-safe). */
export interface DatasetView {
  id: string;
  name: string;
  kind: DatasetKind;
  request: Record<string, unknown>;
  profileId: string | null;
  profileName: string | null;
  account: string | null;
  fetchedAt: string;
  reportedTotal: number | null;
  storedRows: number;
  notes: string;
  tags: string[];
  status: 'complete' | 'partial';
  windows: { filter: Record<string, unknown>; total: number; complete: boolean }[] | null;
  reported: Record<string, unknown> | null;
  source: 'fetch' | 'import';
  /** An import's fields the file did not have: shown as missing, never as empty text. */
  missingFields?: string[];
  /** An import's columns beyond the record's fields, by their headers in the file. */
  extraColumns?: string[];
  /**
   * What each extra column's values are (numbers, days or text), so the grid filters it as such; sent
   * with one dataset (`library.get`), not with lists.
   */
  extraColumnTypes?: Record<string, 'number' | 'date' | 'text'>;
  /**
   * The versions this dataset belongs to: every fetch of the same query (same filter, profile and
   * account; a firm search's page apart) shares it, so repeated searches are one dataset with a
   * history. An import is a series of its own. Absent: the dataset's id.
   */
  series?: string;
  /** The query it answers, in a few words ("Shipments · DE→TR · HS 7208"), or where an import came from. */
  query?: string;
}

export type RowValue = string | number | null;
export type DatasetRow = Record<string, RowValue | undefined> & { _row: number };

export interface RowsBlockView {
  rows: DatasetRow[];
  lastRow: number;
}

export interface EquivalentView {
  dataset: DatasetView;
  ageSeconds: number;
}

export interface ImportResultView {
  dataset: DatasetView;
  format: 'json' | 'csv' | 'xlsx' | 'parquet' | 'html';
  rows: number;
  filterRestored: boolean;
  /** Optional so older callers and fixtures stay valid; the main process always sends it (empty when all is well). */
  warnings?: ImportWarningView[];
}

const id = z.string().min(1).max(200);
/** A dataset's name as the analyst types it. */
export const datasetNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'a name is required' })
  .max(MAX_NAME_LENGTH, { error: `at most ${MAX_NAME_LENGTH} characters` });
const tag = z
  .string()
  .trim()
  .min(1, { error: 'a tag cannot be empty' })
  .max(MAX_TAG_LENGTH, { error: TAG_TOO_LONG });
const profileRef = { profileId: id.optional() };

/** Every field a grid column may be named by; anything else is refused before it reaches SQL. */
export const GRID_FIELDS = [...new Set<string>([...SHIPMENT_FIELDS, ...FIRM_FIELDS])] as [
  string,
  ...string[],
];
const field = z.enum(GRID_FIELDS);
/**
 * Columns of shipment datasets computed by firm resolution, not stored: the resolved firm of the row's
 * importer and exporter, by the firm's name (the spelling most rows of the library carry).
 */
export const RESOLVED_FIRM_COLUMNS = ['importerFirm', 'exporterFirm'] as const;
export type ResolvedFirmColumn = (typeof RESOLVED_FIRM_COLUMNS)[number];
export const RESOLVED_FIRM_TITLES: Readonly<Record<ResolvedFirmColumn, string>> = {
  importerFirm: 'Importer Firm (resolved)',
  exporterFirm: 'Exporter Firm (resolved)',
};
export const isResolvedFirmColumn = (name: string): name is ResolvedFirmColumn =>
  (RESOLVED_FIRM_COLUMNS as readonly string[]).includes(name);
/**
 * An imported file's column that maps to no field is kept under its header as an extra column; grids,
 * filters, sorts and exports name it `extra:<header>`, so it can never be taken for a field.
 */
export const EXTRA_COLUMN_PREFIX = 'extra:';
export const extraColumnId = (header: string): string => `${EXTRA_COLUMN_PREFIX}${header}`;
/** The header of an extra column's id; null for any other name. */
export function extraHeaderOf(colId: string): string | null {
  return colId.startsWith(EXTRA_COLUMN_PREFIX) && colId.length > EXTRA_COLUMN_PREFIX.length
    ? colId.slice(EXTRA_COLUMN_PREFIX.length)
    : null;
}
const extraColumnName = z
  .string()
  .max(EXTRA_COLUMN_PREFIX.length + 200)
  .refine((s) => extraHeaderOf(s) !== null, { error: 'not a known field' });

/** A column a grid or an export may ask for: a field of the records, a resolved firm, or an extra column. */
export const columnNameSchema = z.union([
  z.enum([...GRID_FIELDS, ...RESOLVED_FIRM_COLUMNS] as [string, ...string[]]),
  extraColumnName,
]);

/** Fields a filter may name besides the grid's columns: the resolved firm of a row's importer, exporter or either. */
export const FIRM_FILTER_FIELD_NAMES = ['importerFirm', 'exporterFirm', 'anyFirm'] as const;
const KNOWN_FIELDS: ReadonlySet<string> = new Set([...GRID_FIELDS, ...FIRM_FILTER_FIELD_NAMES]);

/** ag-grid's filterModel (text, number and date filters, simple or combined); keys are known fields only. */
export const filterModelSchema = z
  .record(z.string().max(EXTRA_COLUMN_PREFIX.length + 200), columnFilterSchema)
  .superRefine((model, ctx) => {
    for (const key of Object.keys(model)) {
      if (!KNOWN_FIELDS.has(key) && extraHeaderOf(key) === null)
        ctx.addIssue({ code: 'custom', path: [key], message: 'not a known field' });
    }
  });
export type GridFilterModel = z.infer<typeof filterModelSchema>;

export const sortModelSchema = z
  .array(z.strictObject({ colId: z.union([field, extraColumnName]), sort: z.enum(['asc', 'desc']) }))
  .max(20);
export type GridSortModel = z.infer<typeof sortModelSchema>;

/** The most rows one getRows block may ask for (the library's own cap). */
export const MAX_BLOCK_ROWS = 5000;

const getRowsInput = z
  .strictObject({
    id,
    startRow: z.number().int().min(0),
    endRow: z.number().int().min(0),
    sortModel: sortModelSchema.optional(),
    filterModel: filterModelSchema.nullish(),
    quickFilter: z.string().max(500, { error: 'at most 500 characters' }).nullish(),
    columns: z.array(columnNameSchema).max(500).nullish(),
    /** With every field (no `columns`): the resolved firm columns too. */
    resolvedFirms: z.boolean().optional(),
  })
  .refine((q) => q.endRow >= q.startRow && q.endRow - q.startRow <= MAX_BLOCK_ROWS, {
    error: `endRow must not be before startRow, and a block holds at most ${MAX_BLOCK_ROWS} rows`,
    path: ['endRow'],
  });

/** A request whose saved answer is looked for: either search, with its paging field. */
const anySearchRequest = z.union([shipmentSearchRequestSchema, firmSearchRequestSchema]);

/** How the library stands, beyond its datasets. */
export interface LibraryStatus {
  /**
   * Set when the library file could not be read at opening: it was kept aside under this name in the
   * data folder and a fresh library opened. `notice` says so in the analyst's words.
   */
  recovered: { keptAs: string; notice: string } | null;
}

export const libraryCalls = {
  'library.status': defineCall<LibraryStatus>()(z.undefined()),
  'library.list': defineCall<DatasetView[]>()(
    z
      .strictObject({
        search: z.string().max(200).optional(),
        kind: z.enum(DATASET_KINDS).optional(),
        tag: z.string().max(100).optional(),
      })
      .optional(),
  ),
  'library.get': defineCall<DatasetView>()(z.strictObject({ id })),
  'library.rename': defineCall<DatasetView>()(z.strictObject({ id, name: datasetNameSchema })),
  'library.setTags': defineCall<DatasetView>()(
    z.strictObject({ id, tags: z.array(tag).max(MAX_TAGS, { error: TOO_MANY_TAGS }) }),
  ),
  'library.setNotes': defineCall<DatasetView>()(
    z.strictObject({ id, notes: z.string().max(MAX_NOTES_LENGTH) }),
  ),
  'library.delete': defineCall<void>()(z.strictObject({ id })),
  'library.getRows': defineCall<RowsBlockView>()(getRowsInput),
  'library.findEquivalent': defineCall<EquivalentView | null>()(
    z.strictObject({ ...profileRef, kind: z.enum(DATASET_KINDS).optional(), request: anySearchRequest }),
  ),
  /** Electron: main's native open dialog; the browser host uploads the file instead (HostFiles). */
  'library.chooseImportFile': defineCall<ChosenFile | null>()(z.undefined()),
  /** Reads the head of a chosen file and shows how it would be imported; nothing is stored. */
  'library.previewImport': defineCall<ImportPreviewView>()(
    z.strictObject({ file: fileHandleSchema, choices: importPreviewChoicesSchema.optional() }),
  ),
  /**
   * Reads the whole chosen file under the plan the dialog shows, in the import worker, and counts what
   * would not import as it is; nothing is stored. Progress arrives as `library.importCheck` events
   * named by `checkId`; the answer is the finished check. A new check stops the one before it.
   */
  'library.checkImport': defineCall<ImportCheckView>()(importCheckInputSchema),
  /** Stops a whole-file check (the dialog closed, or the plan changed). */
  'library.cancelImportCheck': defineCall<void>()(z.strictObject({ checkId: importCheckIdSchema })),
  /**
   * Imports a chosen file as a new dataset, with the plan the analyst confirmed in the preview (or
   * the preview's own); progress arrives as `jobs.progress` events, `library.cancelImport` stops it.
   */
  'library.import': defineCall<ImportResultView>()(
    z.strictObject({
      file: fileHandleSchema,
      name: datasetNameSchema.optional(),
      plan: importPlanSchema.optional(),
    }),
  ),
  /** Stops the running import; the library stays as it was. */
  'library.cancelImport': defineCall<void>()(z.undefined()),
  /** Every version of a dataset (the fetches of its query, `series`), newest first, itself included. */
  'library.versions': defineCall<DatasetView[]>()(z.strictObject({ id })),
  /**
   * Stores again a search's answer whose save failed (`library.saveFailed`), from the copy main kept,
   * under the same dataset id: nothing is downloaded again. The stored dataset, or why it still failed.
   */
  'library.saveAgain': defineCall<DatasetView>()(z.strictObject({ id })),
  /** The records of an answer main kept because its save failed, to show (and export) without the library. */
  'library.keptRecords': defineCall<ShipmentRecord[]>()(z.strictObject({ id })),
};

/**
 * How many answers whose save failed main keeps in memory for "Save again" (the newest ones): each
 * holds up to 10,000 records, so the count is what bounds the memory they take.
 */
export const KEPT_ANSWERS_LIMIT = 2;

/**
 * Main could not store a search's answer in the library (it was already shown under `datasetId`).
 * Its records are kept in memory (the newest KEPT_ANSWERS_LIMIT such answers), so they can be saved
 * again (`library.saveAgain`) or shown and exported without the library (`library.keptRecords`).
 */
export interface SaveFailed {
  datasetId: string;
  /** Why, in the analyst's words ("The disk is full…", "Portolan may not write to its data folder…"). */
  reason: string;
  /** How many records the answer holds. */
  records: number;
}

/** Main announces that the library changed: a dataset was saved (a search, an import, a finished job), edited or deleted. */
export interface LibraryChanged {
  change: 'saved' | 'updated' | 'removed';
  datasetId: string;
}

export interface LibraryEvents {
  'library.changed': LibraryChanged;
  /** A whole-file check under way (`library.checkImport`): what it has found so far. */
  'library.importCheck': ImportCheckView;
  'library.saveFailed': SaveFailed;
}
