import { extname } from 'node:path';
import type { ImportFormat } from '@shared/library/import-contract';

export type { ImportFormat };

const FORMATS: Readonly<Record<string, ImportFormat>> = {
  '.json': 'json',
  // JSON Lines: one record per line (pandas, BigQuery and log tools write it).
  '.jsonl': 'json',
  '.ndjson': 'json',
  '.csv': 'csv',
  // Tab-separated and "Unicode Text" tables from spreadsheets and trade databases: the CSV reader
  // finds the delimiter and the encoding itself.
  '.tsv': 'csv',
  '.txt': 'csv',
  '.xlsx': 'xlsx',
  // A macro-enabled workbook holds its sheets as an .xlsx does; its macros are never read.
  '.xlsm': 'xlsx',
  '.parquet': 'parquet',
};

export const SUPPORTED_TYPES = '.xlsx, .xlsm, .csv, .tsv, .txt, .json, .jsonl and .parquet files';

/** Spreadsheets of other programs, which save an .xlsx or a CSV when asked. */
const OTHER_SPREADSHEETS: Readonly<Record<string, string>> = {
  '.xls': 'old Excel .xls workbooks',
  '.xlsb': 'Excel binary .xlsb workbooks',
  '.ods': 'OpenDocument .ods spreadsheets (LibreOffice, OpenOffice)',
  '.numbers': 'Apple Numbers spreadsheets',
};

/**
 * The format a file is read as, from its extension; or why it is not imported. Decided before a byte
 * is read, so a binary file is never fed to a text parser whose complaint would quote its bytes back
 * to the analyst.
 */
export function importFormatOf(
  path: string,
): { ok: true; format: ImportFormat } | { ok: false; problem: string } {
  const ext = extname(path).toLowerCase();
  const format = FORMATS[ext];
  if (format) return { ok: true, format };
  const supported = `Portolan imports ${SUPPORTED_TYPES}`;
  const spreadsheet = OTHER_SPREADSHEETS[ext];
  if (spreadsheet) {
    return {
      ok: false,
      problem: `${spreadsheet} are not supported (${supported}); open it in the program that made it, save it as an Excel Workbook (.xlsx) and import that`,
    };
  }
  const what = ext
    ? `${ext.slice(0, 20)} files are not supported`
    : 'the file name has no extension, so its type is unknown';
  return { ok: false, problem: `${what} (${supported})` };
}
