import { z } from 'zod';
import { defineCall } from '../define-call';
import { fileHandleSchema, type ChosenFile } from '../files/file-handle';
import { columnNameSchema, filterModelSchema, sortModelSchema } from '../library/library-contract';

/** The export bridge calls: input schemas and result types. */

export const EXPORT_FORMATS = ['xlsx', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The grid as the user sees it: visible columns in their order, and the current sort and filters. */
export const exportViewSchema = z.strictObject({
  columns: z.array(columnNameSchema).max(500).optional(),
  sortModel: sortModelSchema.optional(),
  filterModel: filterModelSchema.nullish(),
  quickFilter: z.string().max(500, { error: 'at most 500 characters' }).nullish(),
});
export type ExportView = z.infer<typeof exportViewSchema>;

export const exportSourceSchema = z.strictObject({
  datasetId: z.string().min(1).max(200),
  view: exportViewSchema.optional(),
});
export type ExportSourceRef = z.infer<typeof exportSourceSchema>;

export interface ExportStarted {
  jobId: string;
  /** Where the file will be written, for the analyst to read (the chosen file, or the host's default). */
  path: string;
  /** The target's handle: the browser host offers the finished file for download by it. */
  handle: string;
}

/** The file main chose for an export (save dialog, or the browser host's exports folder); `location` is its full path. */
export type ExportTarget = ChosenFile;

export const exportCalls = {
  'export.start': defineCall<ExportStarted>()(
    z.strictObject({
      source: exportSourceSchema,
      format: z.enum(EXPORT_FORMATS),
      summaries: z.boolean().optional(),
      /** A handle from export.chooseTarget; without one, main writes to the host's exports folder. */
      target: fileHandleSchema.optional(),
      overwrite: z.boolean().optional(),
    }),
  ),
  'export.chooseTarget': defineCall<ExportTarget | null>()(
    z.strictObject({
      suggestedName: z.string().trim().min(1).max(200),
      format: z.enum(EXPORT_FORMATS),
    }),
  ),
  'export.cancel': defineCall<void>()(z.strictObject({ jobId: z.string().min(1).max(200) })),
} as const;
