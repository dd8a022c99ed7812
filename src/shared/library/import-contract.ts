import { z } from 'zod';
import { DATASET_KINDS, type DatasetKind } from '../fields';
import { fileHandleSchema } from '../files/file-handle';
import { FIRM_FIELDS, SHIPMENT_FIELDS } from '../spec/records';

/**
 * The import's bridge shapes: a preview of how a file maps onto a dataset, the plan the analyst
 * confirms (sheet, header row, kind, column → field mapping, locale) and what an import reports.
 */

export type ImportFormat = 'json' | 'csv' | 'xlsx' | 'parquet' | 'html';

/** Values an import kept but that will not work as dates or numbers (the import still succeeded). */
export interface ImportWarningView {
  /** The record field, e.g. `arrivalDate`. */
  field: string;
  /** How many values of that field are affected. */
  count: number;
  /** Where the first one is in the file: "row 12" (CSV), "record 3" (JSON), "sheet Shipments, row 4". */
  firstAt: string;
  /** That first value, cut to 40 characters. */
  example: string;
  /** One sentence for the analyst, ready to show. */
  message: string;
  /** Where the first few are (`firstAt` first): the rows an import preview points to. */
  at?: string[];
}

/** How numbers and dates are written in a file: the decimal separator, and the day order of dates. */
export interface ImportLocale {
  decimal: '.' | ',';
  /** Day-first (31.12.2025) or month-first (12/31/2025) for dates not written yyyy-MM-dd. */
  dates: 'dmy' | 'mdy';
}

export interface ImportSheetView {
  name: string;
  /** Rows the sheet says it holds (its dimension), null when it does not say. */
  rows: number | null;
  hidden: boolean;
}

export interface ImportColumnView {
  /** 0-based position of the column in the file. */
  index: number;
  /** The header as the file writes it (a name made up for an empty header: "Column F"). */
  header: string;
  /** The field it is imported as; null keeps it as an extra column under its header (unless left out). */
  field: string | null;
  /** The column is not imported at all (a row index another tool wrote, a column the analyst left out). */
  leftOut: boolean;
  /** The first few values as they will be stored (after the locale is applied), "" for empty. */
  samples: string[];
  /**
   * No name in the header row and no value in the rows read (a line's trailing separators, a sheet's
   * blank column): not a column of the data, so not listed. The import keeps it, as an extra column,
   * only if a value turns up further down the file.
   */
  empty?: boolean;
}

/** A column with a blank header cell that holds a value: kept as an extra column under its given name. */
export interface UnnamedColumnFound {
  /** 0-based position of the column in the file (ImportColumnView.index). */
  index: number;
  /** The name it is kept under ("Column E"). */
  header: string;
  /** Values it holds (in the rows read). */
  count: number;
  /** Where its first value is: "row 301". */
  at: string;
  /** That value, cut to 40 characters. */
  example: string;
}

export interface ImportPreviewView {
  fileName: string;
  format: ImportFormat;
  sheets: ImportSheetView[];
  /** 0-based index into `sheets` of the sheet read (the first with data unless chosen). */
  sheet: number;
  /** 1-based row number of the header row in the sheet (1 unless title rows stand above it). */
  headerRow: number;
  kind: DatasetKind;
  columns: ImportColumnView[];
  locale: ImportLocale;
  /**
   * A value from the file that proves the locale, e.g. "31.12.2025"; null when it was guessed. Where no
   * value proves the day order, `dateFormat` is the format of the workbook's date cells that decided
   * it ("dd/mm/yyyy").
   */
  localeProof: { decimal: string | null; dates: string | null; dateFormat?: string | null };
  /**
   * Whether the dates mapped are written with day and month both as numbers (31/12/2025), so their
   * order is in question; false when every date is ISO (2025-12-31), spelled out or a date cell.
   */
  dateOrderMatters: boolean;
  /** Things the analyst should know before importing (an encoding read as Windows-1252, …). */
  notices: string[];
  /** True when the mapping is the one confirmed earlier for a file with the same columns. */
  remembered: boolean;
  /** True when the file is a Portolan export whose Query sheet names every column's field. */
  fromPortolan: boolean;
  /**
   * True when the file's values are a dataset's exact text (Portolan's own Parquet): no locale applies
   * and nothing needs mapping.
   */
  verbatim: boolean;
  /**
   * Values of the first rows (`rowsChecked`) that would not import as they are under this plan: not a
   * date or a number where the field needs one, formulas without a result, HS codes that lost a zero.
   * One sentence each, in the form's words, with the rows they are in.
   */
  issues: ImportWarningView[];
  /** Data rows of the file's head the issues were looked for in (blank lines not counted). */
  rowsChecked: number;
  /** Blank lines among them, which the import skips. */
  blankRows: number;
}

/** What the analyst confirms: read this sheet from this header row, as this kind, with this mapping. */
const knownField = z.enum([...new Set<string>([...SHIPMENT_FIELDS, ...FIRM_FIELDS])] as [
  string,
  ...string[],
]);
export const importLocaleSchema = z.strictObject({
  decimal: z.enum(['.', ',']),
  dates: z.enum(['dmy', 'mdy']),
});
const leftOutSchema = z.array(z.number().int().min(0).max(16_383)).max(16_384);
export const importPlanSchema = z.strictObject({
  sheet: z.number().int().min(0).max(10_000),
  headerRow: z.number().int().min(1).max(1_048_576),
  kind: z.enum(DATASET_KINDS),
  /** One entry per column of the file, in order: the field it becomes, or null for an extra column. */
  mapping: z.array(knownField.nullable()).max(16_384),
  /** Columns (0-based) not imported at all; their mapping entry is null. */
  leftOut: leftOutSchema.optional(),
  locale: importLocaleSchema,
});
export type ImportPlan = z.infer<typeof importPlanSchema>;

/** Preview choices: leave any out to let Portolan pick. */
export const importPreviewChoicesSchema = z.strictObject({
  sheet: z.number().int().min(0).max(10_000).optional(),
  headerRow: z.number().int().min(1).max(1_048_576).optional(),
  kind: z.enum(DATASET_KINDS).optional(),
  /**
   * The analyst's mapping and locale for the sheet, header row and kind above: the preview shows the
   * samples and the issues under them (ignored when its length is not the file's column count).
   */
  mapping: z.array(knownField.nullable()).max(16_384).optional(),
  /** With the mapping: the columns the analyst leaves out. */
  leftOut: leftOutSchema.optional(),
  locale: importLocaleSchema.optional(),
});
export type ImportPreviewChoices = z.infer<typeof importPreviewChoicesSchema>;

/**
 * The whole-file check of an import plan: the import worker reads every row of the file under the
 * plan the dialog shows, stores nothing, and counts what would not import as it is. Sent as it goes
 * (`library.importCheck` events) and once more when it ends (the `library.checkImport` answer).
 */
export interface ImportCheckView {
  /** The dialog's name for this check: a changed plan starts another one. */
  checkId: string;
  /** Data rows checked so far (blank lines not counted). */
  rowsChecked: number;
  /**
   * Data rows the file holds, when known: a workbook's sheet says; a CSV's is estimated from the share
   * of the file read (`totalIsEstimate`). Null when nothing can say yet.
   */
  rowsTotal: number | null;
  totalIsEstimate: boolean;
  /** Blank lines met so far, which the import skips. */
  blankRows: number;
  /** What would not import as it is among the rows checked, counted over them, as the preview says it. */
  issues: ImportWarningView[];
  /**
   * Columns with a blank header cell in which the rows checked hold a value. One empty in the
   * preview's rows (`ImportColumnView.empty`) is listed once it is found here: it is imported.
   */
  unnamedFound: UnnamedColumnFound[];
  /** Every row was read. */
  done: boolean;
}

/** A check's name: made by the dialog, sent back in its events. */
export const importCheckIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,64}$/, { error: 'a check id of letters, digits and dashes' });

export const importCheckInputSchema = z.strictObject({
  file: fileHandleSchema,
  plan: importPlanSchema,
  checkId: importCheckIdSchema,
});
