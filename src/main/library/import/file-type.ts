import { open } from 'node:fs/promises';
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
  // Web portals and trade databases save tab-separated text (and web pages) under an .xls name:
  // read as text unless its bytes say otherwise (`xlsContent`).
  '.xls': 'csv',
  // A web page's tables, as Excel opens them.
  '.html': 'html',
  '.htm': 'html',
};

export const SUPPORTED_TYPES = '.xlsx, .xlsm, .csv, .tsv, .txt, .json, .jsonl, .parquet and .html files';

/** Spreadsheets of other programs, which save an .xlsx or a CSV when asked. */
const OTHER_SPREADSHEETS: Readonly<Record<string, string>> = {
  '.xlsb': 'Excel binary .xlsb workbooks',
  '.ods': 'OpenDocument .ods spreadsheets (LibreOffice, OpenOffice)',
  '.numbers': 'Apple Numbers spreadsheets',
};

const SAVE_AS_XLSX = 'open it in Excel, save it as an Excel Workbook (.xlsx) and import that';

/** What an .xls file holds, by its first bytes: only its text is read as it is (as a CSV). */
export type XlsContent =
  | { kind: 'text' }
  /** An .xlsx workbook under an .xls name. */
  | { kind: 'xlsx' }
  /** A web page's tables (HTML), as web portals export them. */
  | { kind: 'html' }
  | { kind: 'refused'; problem: string };

/** Looks at the first bytes of an .xls file: an old binary workbook, a web page, Excel 2003 XML, an .xlsx, or text. */
export async function xlsContent(path: string): Promise<XlsContent> {
  const file = await open(path, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(1024);
    const { bytesRead } = await file.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  // The compound file of Excel 97–2003 workbooks.
  if (head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])))
    return {
      kind: 'refused',
      problem: `old Excel .xls workbooks (Excel 97–2003) are not supported (Portolan imports ${SUPPORTED_TYPES}); ${SAVE_AS_XLSX}`,
    };
  if (head.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) return { kind: 'xlsx' };
  const text = head
    .toString('latin1')
    .replace(/^(?:\xef\xbb\xbf|\xff\xfe|\xfe\xff)/, '')
    .trimStart();
  if (text.startsWith('<')) {
    if (/urn:schemas-microsoft-com:office:spreadsheet|<Workbook/i.test(text))
      return {
        kind: 'refused',
        problem: `this .xls file is an Excel 2003 XML spreadsheet under an Excel name; ${SAVE_AS_XLSX}`,
      };
    return { kind: 'html' };
  }
  return { kind: 'text' };
}

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
