/**
 * A file as a table of rows, whatever its format: the sheets it offers, and their rows in batches as
 * raw cell values (text, numbers with their format, booleans). Runs in the import worker; nothing
 * here touches the library. Every refusal names what is wrong in the analyst's words and never
 * repeats what the file holds.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import Papa from 'papaparse';
import { QUERY_KEYS, QUERY_SHEET_NAME } from '@shared/export/query-sheet-keys';
import type { ImportSheetView } from '@shared/library/import-contract';
import { isPlainObject } from '@shared/spec/records';
import { restoreCsvFormulaText } from '@shared/csv-formula';
import { importFormatOf, xlsContent } from './file-type';
import { ImportRefusal, unreadableFile } from './refusal';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits, type RawRow, type TableSource } from './table-types';
import { StreamingWorkbook, WorkbookRefusal, type SheetInfo } from './xlsx/workbook';
import type { CellValue } from './xlsx/spreadsheet-xml';

export { NO_RESULT, type CellValue } from './xlsx/spreadsheet-xml';
export type { NumberFormat } from './xlsx/workbook';

export { ImportRefusal };

const BATCH = 1000;
/**
 * The pieces a CSV is read in: large for an import, whose throughput they set; small for the
 * sample a CSV's layout is told from and for a preview's head, which then waits for 64 KB (some 60
 * rows of a Portolan export) rather than a whole piece of 1 MB and the 1,000 rows parsed from it.
 */
const PIECE_BYTES = 1024 * 1024;
const HEAD_PIECE_BYTES = 64 * 1024;

/*
 * A web page's reader (htmlparser2) and a Parquet file's (DuckDB, and zod for the file's metadata)
 * are loaded when such a file is opened: the import worker starts for every preview, and a CSV's or
 * a workbook's needs neither (together ~200 ms of its start).
 */
const htmlReader = () => import('./html-source');
const parquetReader = () => import('./parquet-source');

export async function openTableSource(
  path: string,
  fileName: string,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): Promise<TableSource> {
  const type = importFormatOf(fileName);
  if (!type.ok) throw new ImportRefusal(type.problem);
  const info = await stat(path).catch((e: unknown) => {
    throw unreadableFile(e) ?? e;
  });
  if (info.isDirectory()) throw new ImportRefusal('it is a folder, not a file');
  if (!info.isFile()) throw new ImportRefusal('it is not a file Portolan can read (a device or a pipe)');
  if (info.size > limits.maxFileBytes)
    throw new ImportRefusal(`the file is larger than ${Math.round(limits.maxFileBytes / 1024 / 1024)} MB`);
  if (/\.xls$/i.test(fileName)) {
    const content = await xlsContent(path);
    if (content.kind === 'refused') throw new ImportRefusal(content.problem);
    if (content.kind === 'xlsx') return openXlsx(path, limits, '.xlsx');
    if (content.kind === 'html') return openHtmlCapped(path, info.size, limits);
  }
  switch (type.format) {
    case 'xlsx':
      return openXlsx(path, limits, /\.xlsm$/i.test(fileName) ? '.xlsm' : '.xlsx');
    case 'csv':
      return openCsv(path);
    case 'parquet':
      return (await parquetReader()).openParquet(path, limits);
    case 'json':
      if (info.size > limits.maxJsonBytes)
        throw new ImportRefusal(
          `a JSON file is read whole and this one is larger than ${Math.round(limits.maxJsonBytes / 1024 / 1024)} MB; export it as CSV`,
        );
      return openJson(path, /\.(jsonl|ndjson)$/i.test(fileName));
    case 'html':
      return openHtmlCapped(path, info.size, limits);
    default:
      throw new ImportRefusal(`${type.format} files are not read here`);
  }
}

/** A web page is read whole, as a JSON file is: capped alike. */
async function openHtmlCapped(path: string, size: number, limits: ImportLimits): Promise<TableSource> {
  if (size > limits.maxJsonBytes)
    throw new ImportRefusal(
      `a web page is read whole and this one is larger than ${Math.round(limits.maxJsonBytes / 1024 / 1024)} MB; save it as an Excel Workbook (.xlsx) or CSV`,
    );
  return (await htmlReader()).openHtml(path);
}

// ---- xlsx ----

/**
 * Why a workbook is not read: the system's refusal to read the file (locked by Excel, permissions, a
 * drive gone) in the words a CSV gets for it, the workbook's own refusal, or the error as it came.
 */
function xlsxFailure(e: unknown, ext: string): unknown {
  return unreadableFile(e) ?? (e instanceof WorkbookRefusal ? xlsxRefusal(e, ext) : e);
}

function xlsxRefusal(e: WorkbookRefusal, ext: string): ImportRefusal {
  if (e.reason === 'too-large') return new ImportRefusal(e.message);
  return new ImportRefusal(
    `it is not a readable ${ext} workbook: the file is damaged or cut off, or it is another kind of file with an ${ext} name. ` +
      'If it opens in Excel, save it again as an Excel Workbook (.xlsx) and import that',
  );
}

async function openXlsx(path: string, limits: ImportLimits, ext: string): Promise<TableSource> {
  let wb: StreamingWorkbook;
  try {
    wb = await StreamingWorkbook.open(path, { ...limits, maxSharedChars: 256 * 1024 * 1024 });
  } catch (e) {
    throw xlsxFailure(e, ext);
  }
  try {
    const query = await readQuerySheet(wb);
    // A Portolan export continues its data over "Shipments (2)", … : one table over those sheets.
    const dataSheets = (query?.get(QUERY_KEYS.dataSheets) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const visible = wb.sheets.filter((s) => s.name !== QUERY_SHEET_NAME || !query);
    const sheets: SheetInfo[] = query && dataSheets.length > 1 ? [visible[0]!, ...visible.slice(1)] : visible;
    const views: ImportSheetView[] = sheets.map((s) => ({
      name: s.name,
      rows: s.dimension?.rows ?? null,
      hidden: s.hidden,
    }));
    let defaultSheet = sheets.findIndex(
      (s) => !s.hidden && (s.dimension === null || s.dimension.rows > 1 || s.dimension.columns > 1),
    );
    if (defaultSheet < 0) defaultSheet = 0;
    const continuation = (first: SheetInfo): SheetInfo[] => {
      if (!query || dataSheets.length < 2 || dataSheets[0] !== first.name) return [first];
      return dataSheets.map((n) => wb.sheets.find((s) => s.name === n)).filter((s): s is SheetInfo => !!s);
    };
    return {
      format: 'xlsx',
      sheets: views,
      defaultSheet,
      notices: [],
      query,
      date1904: wb.date1904,
      numberFormat: (style) => wb.format(style),
      async *rows(sheet, signal) {
        const first = sheets[sheet];
        if (!first) throw new ImportRefusal('the workbook has no such sheet');
        const parts = continuation(first);
        try {
          for (let p = 0; p < parts.length; p++) {
            for await (const batch of wb.rows(parts[p]!, { batch: BATCH, ...(signal ? { signal } : {}) })) {
              // Continuation sheets repeat the header row: only the first sheet's is read.
              yield p > 0 && batch[0]?.number === 1 ? batch.slice(1) : batch;
            }
          }
        } catch (e) {
          throw xlsxFailure(e, ext);
        }
      },
      close: () => wb.close(),
    };
  } catch (e) {
    wb.close();
    throw xlsxFailure(e, ext);
  }
}

async function readQuerySheet(wb: StreamingWorkbook): Promise<Map<string, string> | null> {
  const sheet = wb.sheets.find((s) => s.name === QUERY_SHEET_NAME);
  if (!sheet) return null;
  const out = new Map<string, string>();
  for await (const batch of wb.rows(sheet)) {
    for (const row of batch) {
      if (row.number === 1) continue;
      const [k, v] = row.values;
      if (typeof k === 'string' && k)
        out.set(k, v === null || v === undefined || typeof v === 'symbol' ? '' : String(v));
    }
  }
  return out.has(QUERY_KEYS.kind) ? out : null;
}

// ---- text (CSV) ----

type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

function detectEncoding(head: Buffer): { encoding: TextEncodingName; bom: number } {
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: 2 };
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: 3 };
  return { encoding: 'utf-8', bom: 0 };
}

/**
 * Where the last whole character of `buf` ends: a sequence begun in its last three bytes and not
 * finished there is left for the next piece.
 */
function wholeCharactersEnd(buf: Buffer): number {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const b = buf[buf.length - back]!;
    if ((b & 0xc0) === 0x80) continue;
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > back ? buf.length - back : buf.length;
  }
  return buf.length;
}

/**
 * Whether the whole file is UTF-8, read in pieces: Node's native check (about three times faster than
 * a fatal TextDecoder over a 100 MB file), a character cut between pieces carried over to the next.
 */
async function isUtf8File(path: string, skip: number): Promise<boolean> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { start: skip, highWaterMark: 1024 * 1024 })) {
    const buf = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    const end = wholeCharactersEnd(buf);
    if (!isUtf8(buf.subarray(0, end))) return false;
    carry = Buffer.from(buf.subarray(end));
  }
  // A character cut off by the file's end.
  return carry.length === 0;
}

/** The file's text in pieces of `pieceBytes`, decoded as `encoding`. */
async function* decodedText(
  path: string,
  encoding: TextEncodingName,
  skip: number,
  pieceBytes = PIECE_BYTES,
): AsyncGenerator<string> {
  if (encoding === 'utf-8') {
    const d = new StringDecoder('utf8');
    for await (const chunk of createReadStream(path, { start: skip, highWaterMark: pieceBytes }))
      yield d.write(chunk as Buffer);
    const rest = d.end();
    if (rest) yield rest;
    return;
  }
  const decoder = new TextDecoder(encoding, { fatal: encoding !== 'windows-1252' });
  for await (const chunk of createReadStream(path, { start: skip, highWaterMark: pieceBytes })) {
    let piece: string;
    try {
      piece = decoder.decode(chunk as Buffer, { stream: true });
    } catch {
      throw new ImportRefusal(
        'it says it is UTF-16 text but is damaged or cut off. Save it again with UTF-8 encoding, then import the new file',
      );
    }
    yield piece;
  }
  yield decoder.decode();
}

const SEP_LINE = /^sep=([,;\t|])\r?\n/;

/** The separator that splits the first lines into the same number of columns, most of them. */
export function detectDelimiter(sample: string): string {
  const lines = sample
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 20);
  let best = ',';
  let bestScore = -1;
  for (const d of [',', ';', '\t', '|']) {
    const parsed = Papa.parse<string[]>(lines.join('\n'), { delimiter: d, quoteChar: '"' });
    const widths = parsed.data.map((r) => r.length);
    if (widths.length === 0) continue;
    const common = widths.sort((a, b) => a - b)[Math.floor(widths.length / 2)] ?? 1;
    const agreeing = widths.filter((w) => w === common).length;
    const score = common > 1 ? agreeing * 1000 + common : 0;
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

async function openCsv(path: string): Promise<TableSource> {
  const headBytes = await readHead(path, 256 * 1024);
  const detected = detectEncoding(headBytes);
  const bom = detected.bom;
  let encoding = detected.encoding;
  const notices: string[] = [];
  if (encoding === 'utf-8' && !(await isUtf8File(path, bom))) {
    encoding = 'windows-1252';
    notices.push(
      'The file is not UTF-8 text. It was read as Windows-1252 ("ANSI"), the encoding Excel uses on Western European Windows: check that accented names look right in the preview.',
    );
  }
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    // A NUL in a text file means UTF-16 without its mark, or no text at all: checked below for UTF-8.
  } else if (headBytes.subarray(bom).includes(0)) {
    throw new ImportRefusal(
      'it is not text Portolan can read: it holds NUL bytes, as UTF-16 text without a byte order mark or a binary file does. ' +
        'In Excel use File > Save As > "CSV UTF-8 (Comma delimited) (*.csv)", then import the new file',
    );
  }
  let sample = '';
  for await (const piece of decodedText(path, encoding, bom, HEAD_PIECE_BYTES)) {
    sample += piece;
    if (sample.length > 64 * 1024) break;
  }
  const sep = SEP_LINE.exec(sample);
  const delimiter = sep ? sep[1]! : detectDelimiter(sample);
  const lines = sample.split('\n').length;
  const lineCount = lines > 1 ? null : 1;
  return {
    format: 'csv',
    sheets: [{ name: 'CSV', rows: lineCount, hidden: false }],
    defaultSheet: 0,
    notices,
    query: null,
    date1904: false,
    numberFormat: () => null,
    csv: { encoding, delimiter, sepLine: sep !== null },
    rows: (_sheet, signal, headerRow, head) =>
      csvRows(path, encoding, bom, delimiter, sep !== null, headerRow ?? null, signal, head),
    close: () => undefined,
  };
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const c of createReadStream(path, { start: 0, end: bytes - 1 })) {
    chunks.push(c as Buffer);
    got += (c as Buffer).length;
  }
  return Buffer.concat(chunks, got);
}

/** Where in `text` the last complete record ends: after a line break outside any quoted field. */
function lastRecordEnd(text: string, quotesBefore: number): { end: number; quotes: number } {
  // Quotes toggle "inside a quoted field"; a doubled quote toggles twice, so parity is enough.
  let quotes = quotesBefore;
  let end = -1;
  let endQuotes = quotesBefore;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quotes += 1;
    else if (c === 10 && quotes % 2 === 0) {
      end = i + 1;
      endQuotes = quotes;
    }
  }
  return { end, quotes: endQuotes };
}

type LineBreak = '\r\n' | '\n' | '\r';

/**
 * The records of a piece of whole records. `newline` is the line break an earlier piece was read
 * with: Papa otherwise guesses it again for every piece (a scan of the piece's head each time).
 */
function parsePiece(
  piece: string,
  delimiter: string,
  firstRecord: number,
  newline?: LineBreak,
): { records: string[][]; newline: LineBreak } {
  const result = Papa.parse<string[]>(piece, {
    delimiter,
    quoteChar: '"',
    skipEmptyLines: false,
    ...(newline ? { newline } : {}),
  });
  const problem = result.errors.find((e) => e.type === 'Quotes');
  if (problem) {
    const where = problem.row !== undefined ? ` (record ${firstRecord + problem.row})` : '';
    throw new ImportRefusal(
      problem.code === 'MissingQuotes'
        ? `a quoted field never ends${where}; the file may be cut off`
        : `unexpected text after a closing quote${where}`,
    );
  }
  const found = result.meta.linebreak;
  return {
    records: result.data,
    newline: found === '\r\n' || found === '\r' ? found : '\n',
  };
}

/**
 * Holds a CSV's rows below its header to the header's width, as the preview and the import both do.
 * A row of another width is refused, unless a blank line came before it: there it may be a note
 * under the table, and the row converter decides (it is handed on as the row's `ragged`).
 */
export class CsvWidthGuard {
  private gap = false;

  constructor(
    private readonly width: number,
    /** The header row the analyst chose (csvWidthRefusal words its refusal for it). */
    private readonly chosenHeader?: number,
  ) {}

  /** The refusal a row below a blank line carries on; throws it for a row above one. */
  check(number: number, cells: readonly unknown[]): ImportRefusal | undefined {
    if (cells.every((c) => c === null || c === undefined || (typeof c === 'string' && c.trim() === ''))) {
      this.gap = true;
      return undefined;
    }
    const refusal = csvWidthRefusal(number, cells, this.width, this.chosenHeader);
    if (refusal && !this.gap) throw refusal;
    return refusal ?? undefined;
  }
}

/**
 * Why a CSV row (not blank) after the header is refused: it is not as wide as the header, so the file
 * is cut off or a value holds an unquoted separator; null when it is as wide.
 */
export function csvWidthRefusal(
  number: number,
  cells: readonly unknown[],
  width: number,
  /** The header row the analyst chose: a narrower row than the table's is more likely a title line. */
  chosenHeader?: number,
): ImportRefusal | null {
  if (cells.length === width || cells.every((c) => c === '' || c === null)) return null;
  const has = `row ${number} has ${cells.length} ${cells.length === 1 ? 'cell' : 'cells'}`;
  if (chosenHeader !== undefined)
    return new ImportRefusal(
      `${has} but row ${chosenHeader}, chosen as the header row, has ${width}; ` +
        'choose the row that holds the column names (or the file may be cut off, or a value hold an unquoted separator)',
    );
  return new ImportRefusal(
    `${has} but the header has ${width}; the file may be cut off, or a value holds an unquoted separator`,
  );
}

/**
 * The CSV's records in batches, read in pieces of whole records (cut after a line break outside
 * quotes) so memory stays flat and Papa Parse still reports a quoted field that never ends. From
 * `headerRow` on, every row must be as wide as the header; rows above it (a title block) need not
 * be, and with `headerRow` null no width is checked (see `TableSource.rows`).
 */
async function* csvRows(
  path: string,
  encoding: TextEncodingName,
  bom: number,
  delimiter: string,
  skipSepLine: boolean,
  headerRow: number | null,
  signal?: AbortSignal,
  head?: number,
): AsyncGenerator<RawRow[]> {
  // A head's reader hands on one row more than it asks for, which tells it the file goes on.
  const batchRows = head === undefined ? BATCH : Math.min(BATCH, head + 1);
  let pending = '';
  let quotes = 0;
  let number = 0;
  let guard: CsvWidthGuard | null = null;
  let skip = skipSepLine;
  let batch: RawRow[] = [];
  let newline: LineBreak | undefined;
  const take = (records: string[][]): void => {
    for (const cells of records) {
      number += 1;
      if (skip) {
        skip = false;
        continue;
      }
      let ragged: ImportRefusal | undefined;
      if (guard) ragged = guard.check(number, cells);
      // The header: the first line from `headerRow` on that is not empty (below it, not only blanks).
      else if (
        headerRow !== null &&
        number >= headerRow &&
        (number === headerRow ? !(cells.length === 1 && cells[0] === '') : cells.some((c) => c.trim() !== ''))
      )
        guard = new CsvWidthGuard(cells.length);
      // In place: the cells are Papa's fresh array, and a copy per row adds up over millions of cells.
      for (let i = 0; i < cells.length; i++) cells[i] = restoreCsvFormulaText(cells[i]!);
      batch.push(ragged ? { number, values: cells, ragged } : { number, values: cells });
    }
  };
  for await (const text of decodedText(
    path,
    encoding,
    bom,
    head === undefined ? PIECE_BYTES : HEAD_PIECE_BYTES,
  )) {
    if (signal?.aborted) return;
    const { end, quotes: q } = lastRecordEnd(text, quotes);
    if (end < 0) {
      pending += text;
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 34) quotes += 1;
      continue;
    }
    const piece = pending + text.slice(0, end);
    pending = text.slice(end);
    quotes = q;
    for (let i = 0; i < pending.length; i++) if (pending.charCodeAt(i) === 34) quotes += 1;
    // The piece ends with its line break: Papa would read one empty record after it.
    const parsed = parsePiece(piece.replace(/\r?\n$/, ''), delimiter, number + 1, newline);
    // Kept once a piece held two records or more: then the break Papa found really separates them.
    if (newline === undefined && parsed.records.length > 1) newline = parsed.newline;
    take(parsed.records);
    if (batch.length >= batchRows) {
      yield batch;
      batch = [];
    }
  }
  if (pending !== '') take(parsePiece(pending, delimiter, number + 1, newline).records);
  if (batch.length > 0) yield batch;
}

// ---- JSON ----

function wholeNumber(v: unknown): number | null {
  return Number.isInteger(v) ? (v as number) : null;
}

/**
 * JSON Lines (.jsonl, .ndjson, or a .json file written so, as pandas, BigQuery and log tools do): one
 * record per line. Blank lines are skipped; a line that is not a JSON object is refused by its number.
 */
function jsonLines(text: string): unknown[] {
  const records: unknown[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new ImportRefusal(
        `line ${i + 1} is not valid JSON; in a JSON Lines file every line holds one record`,
      );
    }
    if (!isPlainObject(record)) throw new ImportRefusal(`line ${i + 1} is not a JSON object (a record)`);
    records.push(record);
  }
  return records;
}

/** Whether text that is not one JSON value is JSON Lines: its first line is a whole JSON object. */
function looksLikeJsonLines(text: string): boolean {
  const first = /^\s*(\{[^\n]*\})\s*\r?\n\s*\{/.exec(text)?.[1];
  if (first === undefined) return false;
  try {
    return isPlainObject(JSON.parse(first));
  } catch {
    return false;
  }
}

async function openJson(path: string, linesByName: boolean): Promise<TableSource> {
  const bytes = await readFile(path);
  const { encoding, bom } = detectEncoding(bytes);
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes.subarray(bom));
  } catch {
    throw new ImportRefusal(
      'the file is not UTF-8 text. Save it again with UTF-8 encoding, then import the new file',
    );
  }
  let body: unknown;
  if (linesByName) body = jsonLines(text);
  else {
    try {
      body = JSON.parse(text);
    } catch (e) {
      if (looksLikeJsonLines(text)) body = jsonLines(text);
      else {
        const at = /position (\d+)/.exec((e as Error).message)?.[1];
        throw new ImportRefusal(
          `it is not valid JSON${at === undefined ? '' : ` (at character ${Number(at) + 1})`}; it may be cut off`,
        );
      }
    }
  }
  let list: unknown = body;
  const facts: NonNullable<TableSource['facts']> = {};
  if (isPlainObject(body)) {
    if (Array.isArray(body.shipments)) {
      list = body.shipments;
      const total = wholeNumber(body.total);
      if (total !== null) {
        facts.reportedTotal = total;
        facts.reported = { total };
      }
    } else if (Array.isArray(body.firms)) {
      list = body.firms;
      const page = wholeNumber(body.page);
      const pages = wholeNumber(body.total_pages);
      if (page !== null && pages !== null) {
        facts.reported = { page, total_pages: pages, total_shipment: wholeNumber(body.total_shipment) };
        if (pages > 1) facts.partOnly = [`it is page ${page} of ${pages} of a firm search`];
      }
    }
  }
  if (!Array.isArray(list)) throw new ImportRefusal('expected a JSON array of shipment or firm records');
  if (list.length === 0) throw new ImportRefusal('the file holds no records');
  const records = list as unknown[];
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const r of records.slice(0, 1000))
    if (isPlainObject(r))
      for (const k of Object.keys(r))
        if (!seen.has(k)) {
          seen.add(k);
          keys.push(k);
        }
  return {
    format: 'json',
    sheets: [{ name: 'JSON', rows: records.length + 1, hidden: false }],
    defaultSheet: 0,
    notices: [],
    query: null,
    date1904: false,
    facts,
    numberFormat: () => null,
    async *rows(_sheet, signal) {
      // Row 1 is the header made of the records' keys; record i is row i + 2.
      yield [{ number: 1, values: keys }];
      for (let off = 0; off < records.length; off += BATCH) {
        if (signal?.aborted) return;
        const batch: RawRow[] = [];
        for (let i = off; i < Math.min(records.length, off + BATCH); i++) {
          const r = records[i];
          if (!isPlainObject(r)) throw new ImportRefusal(`record ${i + 1} is not an object`);
          batch.push({ number: i + 2, values: keys.map((k) => jsonCell(r[k])) });
        }
        yield batch;
      }
    },
    close: () => undefined,
  };
}

function jsonCell(v: unknown): CellValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}
