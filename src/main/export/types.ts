/**
 * The contract between the exporters and whatever holds the rows (the DuckDB library in the app, an
 * in-memory source in tests). The exporters know nothing of where rows come from.
 */

import type { FieldType } from '@shared/fields';
import type { ParquetColumnShape, ParquetMeta } from '../library';

/** How a column's original text is written to a typed format: the shared field model's type. */
export type ExportColumnType = FieldType;

export interface ExportColumn {
  /** Key in each row object, e.g. `importerName` or `shipment_count`. */
  field: string;
  /** Header written to CSV and Parquet files: the field name unless the caller chose a label. */
  header: string;
  /** Header of an Excel sheet: the field in the grid's words ("USD FOB"); `header` when absent. */
  title?: string;
  type: ExportColumnType;
}

export type ExportKind = 'shipments' | 'firms';

/** What was asked and when: written to the Query sheet so the filter can be restored from the file. */
export interface QueryInfo {
  profile: string;
  account: string;
  /** The filter exactly as sent (an object of the spec's filter fields). */
  filter: Record<string, unknown>;
  /** ISO timestamp of the fetch. */
  fetchedAt: string;
  /** What the service reported as the total matching the query (`total` / `total_shipment`), if known. */
  totalReported: number | null;
  appVersion: string;
  /** The grid view exported (its filters narrow the rows); absent for a whole-dataset export. */
  view?: ExportedView;
}

/** What the user had on screen: written to the Query sheet next to the service filter. */
export interface ExportedView {
  sortModel: readonly { colId: string; sort: 'asc' | 'desc' }[];
  filterModel?: Record<string, unknown> | null;
  quickFilter?: string | null;
  columns: readonly string[];
}

/**
 * One row's values in the order of the source's columns: the original text ("" or null when empty),
 * firm counts as numbers or null. Arrays rather than records: reading a value by position is what
 * the writers do per cell, and records with ~90 fields are slow hash lookups in V8.
 */
export type ExportRow = readonly unknown[];

export interface ExportSource {
  kind: ExportKind;
  columns: readonly ExportColumn[];
  /** Rows the source will yield; used for progress and checked against what was written. */
  rowCount: number;
  /**
   * Rows in order, in batches of any size, each row its values in the order of `columns`; the source
   * should stop early when the signal aborts.
   */
  batches(signal?: AbortSignal): AsyncIterable<readonly ExportRow[]>;
  query: QueryInfo;
  /**
   * Where the rows already sit in DuckDB (a library dataset): writes them to a typed Parquet file there,
   * by COPY, with `describe`'s metadata, and answers the rows written. Absent: the rows are read.
   */
  copyParquet?: (
    path: string,
    opts: {
      signal?: AbortSignal;
      onProgress?: (fraction: number) => void;
      describe: (shapes: ParquetColumnShape[], rows: number) => ParquetMeta;
      /** An empty scratch folder for the writer's part files and spills, removed by the caller. */
      scratchDir: string;
    },
  ) => Promise<number>;
}

export type ExportPhase = 'rows' | 'summaries' | 'finishing';

export interface ExportProgress {
  phase: ExportPhase;
  rowsWritten: number;
  rowCount: number;
}

export interface ExportOptions {
  /** Replace an existing file at the target path. Without it an existing file is an error, never lost. */
  overwrite?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  /**
   * Where a writer keeps scratch files while it works (Parquet: a DuckDB database): the app's own temp
   * folder, swept at start-up, so a crash leaves nothing behind for good. The OS temp folder if unset.
   */
  scratchDir?: string;
}

export interface ExportResult {
  path: string;
  rowsWritten: number;
  bytes: number;
}

/** Summary tables shipped in the workbook next to the data; the library computes them in SQL. */
export const SUMMARY_KINDS = ['topImporters', 'topExporters', 'byHsCode', 'byMonth'] as const;
export type SummaryKind = (typeof SUMMARY_KINDS)[number];

export interface SummaryColumn {
  header: string;
  type: 'text' | 'integer' | 'decimal';
}

export interface SummaryTable {
  kind: SummaryKind;
  /** Sheet name; at most 31 characters, none of []:*?/\ (Excel's rule). */
  title: string;
  columns: readonly SummaryColumn[];
  /** Cells in column order: text as string, numbers as number, unknown as null. */
  rows: readonly (readonly (string | number | null)[])[];
}

export interface SummaryProvider {
  summaries(kinds: readonly SummaryKind[], signal?: AbortSignal): Promise<SummaryTable[]>;
}
