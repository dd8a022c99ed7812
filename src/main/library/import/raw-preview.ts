/**
 * The head of a file as the import worker reads it for a preview. The worker's messages carry it and the
 * preview is built from it: here, so that neither of those two files imports the other.
 */
import type { ImportFormat, ImportSheetView } from '@shared/library/import-contract';
import type { TableSource } from './table-types';
import type { CellValue } from './xlsx/spreadsheet-xml';
import type { NumberFormat } from './xlsx/workbook';

/** A row as the preview needs it: values, and each number cell's format (resolved in the worker). */
export interface PreviewRow {
  number: number;
  values: (Exclude<CellValue, symbol> | { formula: true })[];
  formats: (NumberFormat | null)[];
  /** Hidden in the sheet (RawRow.hidden). */
  hidden?: true;
}

/** What the worker reads for a preview: the head of the chosen sheet, nothing is stored. */
export interface RawPreview {
  format: ImportFormat;
  sheets: ImportSheetView[];
  sheet: number;
  /** The first rows of the sheet (header candidates and samples). */
  head: PreviewRow[];
  /** The head is the whole sheet: what ends it ends the file. */
  whole: boolean;
  notices: string[];
  query: [string, string][] | null;
  facts: TableSource['facts'] | null;
  date1904: boolean;
  /** The file's text is a dataset's exact text: no locale applies (TableSource.verbatim). */
  verbatim: boolean;
  /** A CSV's separator (TableSource.csv); null for any other format. */
  csvDelimiter: string | null;
}
