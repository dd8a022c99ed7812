import { extname } from 'node:path';
import type { ImportFormat } from '@shared/library/import-contract';

export type { ImportFormat };

const FORMATS: Readonly<Record<string, ImportFormat>> = {
  '.json': 'json',
  '.csv': 'csv',
  // Tab-separated and "Unicode Text" tables from spreadsheets and trade databases: the CSV reader
  // finds the delimiter and the encoding itself.
  '.tsv': 'csv',
  '.txt': 'csv',
  '.xlsx': 'xlsx',
  '.parquet': 'parquet',
};

export const SUPPORTED_TYPES = '.json, .csv, .tsv, .txt, .xlsx and .parquet files';

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
  if (ext === '.xls') {
    return {
      ok: false,
      problem: `old Excel .xls workbooks are not supported (${supported}); open it in Excel, save it as an Excel Workbook (.xlsx) and import that`,
    };
  }
  const what = ext
    ? `${ext.slice(0, 20)} files are not supported`
    : 'the file name has no extension, so its type is unknown';
  return { ok: false, problem: `${what} (${supported})` };
}
