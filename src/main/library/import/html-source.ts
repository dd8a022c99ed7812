/**
 * Tables of a web page, as web portals export them under an .xls name (or saved as .html): each
 * `<table>` is a sheet, its `<tr>` rows and `<td>`/`<th>` cells read as text, the way Excel opens
 * such a file. The page is read whole (it is capped like a JSON file).
 */
import { readFile } from 'node:fs/promises';
import { Parser } from 'htmlparser2';
import type { ImportSheetView } from '@shared/library/import-contract';
import { ImportRefusal } from './refusal';
import type { RawRow, TableSource } from './table-types';
import type { CellValue } from './xlsx/spreadsheet-xml';

const BATCH = 1000;
/** A colspan past this is a layout trick, not columns of data. */
const MAX_COLSPAN = 100;

interface Table {
  rows: string[][];
}

/** The page's text: its byte order mark or its declared charset; UTF-8, else Windows-1252. */
function decode(bytes: Buffer): { text: string; notice: string | null } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: bytes.subarray(2).toString('utf16le'), notice: null };
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), notice: null };
  const declared = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(
    bytes.subarray(0, 4096).toString('latin1'),
  )?.[1];
  const western = declared !== undefined && /^(?:windows-1252|iso-8859-1|latin1|us-ascii)$/i.test(declared);
  if (!western) {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), notice: null };
    } catch {
      // Not UTF-8 whatever it says: read as Excel reads such a page on Western European Windows.
    }
  }
  return {
    text: new TextDecoder('windows-1252').decode(bytes),
    notice: western
      ? null
      : 'The page is not UTF-8 text. It was read as Windows-1252 ("ANSI"): check that accented names look right in the preview.',
  };
}

/** Every table of the page, its rows as cell texts (nested tables are tables of their own). */
export function htmlTables(html: string): Table[] {
  const tables: Table[] = [];
  const open: { table: Table; row: string[] | null; cell: string[] | null; span: number }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const top = open.at(-1);
        if (name === 'table') {
          const table: Table = { rows: [] };
          tables.push(table);
          open.push({ table, row: null, cell: null, span: 1 });
        } else if (!top) return;
        else if (name === 'tr') {
          closeRow(top);
          top.row = [];
        } else if (name === 'td' || name === 'th') {
          closeCell(top);
          top.row ??= [];
          top.cell = [];
          const span = Number.parseInt(attrs.colspan ?? '1', 10);
          top.span = Number.isFinite(span) ? Math.min(Math.max(span, 1), MAX_COLSPAN) : 1;
        } else if (name === 'br' && top.cell) top.cell.push(' ');
      },
      ontext(text) {
        open.at(-1)?.cell?.push(text);
      },
      onclosetag(name) {
        const top = open.at(-1);
        if (!top) return;
        if (name === 'td' || name === 'th') closeCell(top);
        else if (name === 'tr') closeRow(top);
        else if (name === 'table') {
          closeRow(top);
          open.pop();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  const closeCell = (t: (typeof open)[number]): void => {
    if (!t.cell || !t.row) return;
    t.row.push(
      t.cell
        .join('')
        .replace(/[\s\u00a0]+/g, ' ')
        .trim(),
    );
    for (let i = 1; i < t.span; i++) t.row.push('');
    t.cell = null;
    t.span = 1;
  };
  const closeRow = (t: (typeof open)[number]): void => {
    closeCell(t);
    if (t.row && t.row.length > 0) t.table.rows.push(t.row);
    t.row = null;
  };
  parser.write(html);
  parser.end();
  return tables.filter((t) => t.rows.length > 0);
}

export async function openHtml(path: string): Promise<TableSource> {
  const { text, notice } = decode(await readFile(path));
  const tables = htmlTables(text);
  if (tables.length === 0) throw new ImportRefusal('the page holds no table');
  const sheets: ImportSheetView[] = tables.map((t, i) => ({
    name: `Table ${i + 1}`,
    rows: t.rows.length,
    hidden: false,
  }));
  // The table with the most rows is the data; the others are a page's layout or its legend.
  let defaultSheet = 0;
  tables.forEach((t, i) => {
    if (t.rows.length > tables[defaultSheet]!.rows.length) defaultSheet = i;
  });
  return {
    format: 'html',
    sheets,
    defaultSheet,
    notices: notice ? [notice] : [],
    query: null,
    date1904: false,
    numberFormat: () => null,
    async *rows(sheet, signal) {
      const rows = tables[sheet]?.rows ?? [];
      for (let off = 0; off < rows.length; off += BATCH) {
        if (signal?.aborted) return;
        const batch: RawRow[] = [];
        for (let i = off; i < Math.min(rows.length, off + BATCH); i++)
          batch.push({ number: i + 1, values: rows[i]! as CellValue[] });
        yield batch;
      }
    },
    close: () => undefined,
  };
}
