import { z } from 'zod';
import { defineCall } from '../define-call';
import { FIRM_FIELDS, SHIPMENT_FIELDS } from '../spec/records';
import { filterModelSchema, sortModelSchema } from '../library/library-contract';

/** The export bridge calls: input schemas and result types. */

export const EXPORT_FORMATS = ['xlsx', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const field = z.enum([...new Set<string>([...SHIPMENT_FIELDS, ...FIRM_FIELDS])] as [string, ...string[]]);

/** The grid as the user sees it: visible columns in their order, and the current sort and filters. */
export const exportViewSchema = z.strictObject({
  columns: z.array(field).max(500).optional(),
  sortModel: sortModelSchema.optional(),
  filterModel: filterModelSchema.nullish(),
  quickFilter: z.string().max(500).nullish(),
});
export type ExportView = z.infer<typeof exportViewSchema>;

export const exportSourceSchema = z.strictObject({
  datasetId: z.string().min(1).max(200),
  view: exportViewSchema.optional(),
});
export type ExportSourceRef = z.infer<typeof exportSourceSchema>;

/** A file path chosen by the save dialog (or the browser host); checked again in main before writing. */
const targetPath = z.string().min(1).max(4096);

export interface ExportStarted {
  jobId: string;
  /** Where the file will be written (the chosen path, or the host's default when none was given). */
  path: string;
}

export interface ExportTarget {
  path: string;
  /** Browser host only: a same-origin address the finished file can be downloaded from. */
  downloadUrl?: string;
}

export const exportCalls = {
  'export.start': defineCall<ExportStarted>()(
    z.strictObject({
      source: exportSourceSchema,
      format: z.enum(EXPORT_FORMATS),
      summaries: z.boolean().optional(),
      path: targetPath.optional(),
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
