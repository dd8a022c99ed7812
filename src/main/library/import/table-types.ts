/**
 * What a file read as a table is to the code that reads it (table-source.ts and the readers of each
 * format) and to the code that converts and stores its rows: kept apart from both, so that neither
 * has to import the other for its types.
 */
import type { ImportFormat, ImportSheetView } from '@shared/library/import-contract';
import type { ImportRefusal } from './refusal';
import type { CellValue } from './xlsx/spreadsheet-xml';
import type { NumberFormat } from './xlsx/workbook';

export interface RawRow {
  /** 1-based row (CSV line record, sheet row, JSON record) as the analyst finds it. */
  number: number;
  values: CellValue[];
  /** Style index per cell (xlsx only); the source's `format` turns it into a number format. */
  styles?: number[];
  /** A sheet's row hidden by its filter or by hand (xlsx only). */
  hidden?: true;
  /**
   * A CSV row below a blank line whose width is not the header's: a note under the table (a line of
   * text with a comma in it), or, when the table goes on after it, why the file is refused.
   */
  ragged?: ImportRefusal;
}

export interface ImportLimits {
  /** Largest file read at all. */
  maxFileBytes: number;
  /** Largest JSON file (it is parsed whole). */
  maxJsonBytes: number;
  /** An xlsx's parts together, expanded. */
  maxUncompressedBytes: number;
  /** Cells of the sheet read. */
  maxCells: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxFileBytes: 1024 * 1024 * 1024,
  maxJsonBytes: 256 * 1024 * 1024,
  maxUncompressedBytes: 2 * 1024 * 1024 * 1024,
  maxCells: 30_000_000,
};

/** How the CSV was found to be written (table-source.ts: openCsv). */
export interface CsvLayout {
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
  delimiter: string;
  /** The first line is Excel's `sep=,`. */
  sepLine: boolean;
}

export interface TableSource {
  format: ImportFormat;
  sheets: ImportSheetView[];
  /** The sheet read unless the analyst picks another: the first visible one with data. */
  defaultSheet: number;
  /** What the analyst should know (encoding read as Windows-1252, …). */
  notices: string[];
  /** A Portolan export's Query sheet, key → value; null for any other file. */
  query: ReadonlyMap<string, string> | null;
  /** Dates in serials count from 1904. */
  date1904: boolean;
  /** Its text values are a dataset's exact text (Portolan's own Parquet), read without any locale. */
  verbatim?: boolean;
  /** The number format of an xlsx cell style. */
  numberFormat(style: number | undefined): NumberFormat | null;
  /**
   * The sheet's rows in batches. A CSV's rows from `headerRow` on must all be as wide as the header
   * (a row that is not means a cut-off file or an unquoted separator, and is refused); the lines
   * above it, a title block, may be of any width. Without `headerRow` (the preview's head, read
   * before the header is known) no width is checked here: `csvWidthRefusal` is applied once it is.
   * `head`: the caller reads no more than this many rows (the preview), so a CSV hands them on as
   * soon as it has read them instead of after a whole import-sized piece.
   */
  rows(sheet: number, signal?: AbortSignal, headerRow?: number, head?: number): AsyncGenerator<RawRow[]>;
  /** How a CSV is written, for DuckDB's reader (csv-native.ts). */
  csv?: CsvLayout;
  /** A JSON response's `total` and similar facts that are not rows. */
  facts?: { reportedTotal?: number; reported?: Record<string, unknown>; partOnly?: string[] };
  close(): void;
}
