import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { isSystemError } from '../refusal';
import { ZipArchive, ZipRefusal } from './zip-archive';
import { builtInFormat, isDateFormat } from './number-formats';
import { SharedStringScanner, SheetRowScanner, attributes, type SheetRow } from './spreadsheet-xml';

export interface WorkbookLimits {
  /** All parts together, expanded. */
  maxUncompressedBytes: number;
  /** Cells in the sheet read (its dimension, then counted as read). */
  maxCells: number;
  /** Characters of all shared strings, held in memory while the sheet is read. */
  maxSharedChars: number;
}

export interface SheetInfo {
  name: string;
  /** Part path inside the zip, e.g. `xl/worksheets/sheet1.xml`. */
  part: string;
  hidden: boolean;
  /** Rows × columns from the sheet's `<dimension>` when it says; null otherwise. */
  dimension: { rows: number; columns: number } | null;
}

export interface NumberFormat {
  code: string;
  date: boolean;
  /**
   * A built-in date format (ids 14–22): Excel shows it in each reader's regional date order whatever
   * its code says, so its code says nothing of the order the file's author writes dates in.
   */
  regional?: true;
}

/** A workbook refused for a reason the analyst can act on; `message` is in their words. */
export class WorkbookRefusal extends Error {
  constructor(
    readonly reason: 'damaged' | 'too-large' | 'not-a-workbook',
    message: string,
  ) {
    super(message);
    this.name = 'WorkbookRefusal';
  }
}

function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

function dimensionOf(ref: string): { rows: number; columns: number } | null {
  const m = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/i.exec(ref.trim());
  if (!m) return null;
  const col = (s: string): number => [...s.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
  const r1 = Number(m[2]);
  const c1 = col(m[1]!);
  const r2 = m[4] ? Number(m[4]) : r1;
  const c2 = m[3] ? col(m[3]) : c1;
  return { rows: r2 - r1 + 1, columns: c2 - c1 + 1 };
}

async function* textChunks(stream: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream) yield decoder.write(chunk as Buffer);
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * An .xlsx opened for streaming: its sheets, styles and shared strings are read up front (small), a
 * sheet's rows are read on demand, a few hundred at a time, never the whole sheet in memory.
 */
export class StreamingWorkbook {
  private constructor(
    private readonly zip: ZipArchive,
    readonly sheets: readonly SheetInfo[],
    private readonly formats: readonly NumberFormat[],
    private readonly shared: readonly string[],
    /** Dates count from 1904 (old Mac Excel) instead of 1900. */
    readonly date1904: boolean,
    private readonly limits: WorkbookLimits,
  ) {}

  static async open(path: string, limits: WorkbookLimits): Promise<StreamingWorkbook> {
    let zip: ZipArchive;
    try {
      zip = await ZipArchive.open(path, limits);
    } catch (e) {
      if (e instanceof ZipRefusal && e.reason === 'too-large')
        throw new WorkbookRefusal('too-large', 'it expands to more data than Portolan imports at once');
      if (isSystemError(e)) throw e;
      throw new WorkbookRefusal('damaged', 'damaged');
    }
    try {
      const workbookXml = await zip.text('xl/workbook.xml');
      if (workbookXml === null) throw new WorkbookRefusal('not-a-workbook', 'no workbook part');
      const rels = (await zip.text('xl/_rels/workbook.xml.rels')) ?? '';
      const targets = new Map<string, string>();
      for (const m of rels.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
        const a = attributes(m[0]);
        const id = a.get('Id');
        const target = a.get('Target');
        if (id && target) targets.set(id, resolveTarget('xl/workbook.xml', target));
      }
      const date1904 = /<(?:\w+:)?workbookPr\b[^>]*\bdate1904\s*=\s*"(?:1|true)"/.test(workbookXml);
      const sheets: SheetInfo[] = [];
      for (const m of workbookXml.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
        const a = attributes(m[0]);
        const part = targets.get(a.get('id') ?? '');
        if (!part || !zip.has(part)) continue;
        sheets.push({
          name: a.get('name') ?? `Sheet${sheets.length + 1}`,
          part,
          hidden: (a.get('state') ?? 'visible') !== 'visible',
          dimension: null,
        });
      }
      const formats = parseStyles((await zip.text('xl/styles.xml')) ?? '');
      const shared = await readSharedStrings(zip, limits);
      const book = new StreamingWorkbook(zip, sheets, formats, shared, date1904, limits);
      for (const s of sheets) s.dimension = await book.readDimension(s.part);
      return book;
    } catch (e) {
      zip.close();
      if (e instanceof WorkbookRefusal || isSystemError(e)) throw e;
      throw new WorkbookRefusal('damaged', 'damaged');
    }
  }

  /** The number format of a style index (General when the file names none). */
  format(style: number | undefined): NumberFormat {
    return (style !== undefined && style >= 0 ? this.formats[style] : undefined) ?? GENERAL;
  }

  /** The `<dimension ref>` near a sheet's start, read from its first few KB only. */
  private async readDimension(part: string): Promise<SheetInfo['dimension']> {
    const stream = await this.zip.stream(part);
    if (!stream) return null;
    let head = '';
    try {
      for await (const text of textChunks(stream)) {
        head += text;
        if (head.length > 4096 || head.includes('<sheetData') || head.includes(':sheetData')) break;
      }
    } finally {
      stream.destroy();
    }
    const m = /<(?:\w+:)?dimension\b[^>]*\bref\s*=\s*"([^"]+)"/.exec(head);
    return m ? dimensionOf(m[1]!) : null;
  }

  /**
   * The sheet's rows in batches, in file order. Refuses, mid-way if need be, a sheet whose cells
   * pass the cell limit. Stops early when `signal` aborts.
   */
  async *rows(
    sheet: SheetInfo,
    opts: { batch?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<SheetRow[]> {
    const d = sheet.dimension;
    if (d && d.rows * d.columns > this.limits.maxCells * 4) throw tooManyCells(this.limits);
    const stream = await this.zip.stream(sheet.part);
    if (!stream) return;
    const scanner = new SheetRowScanner(this.shared);
    const batchSize = opts.batch ?? 500;
    let out: SheetRow[] = [];
    let cells = 0;
    try {
      for await (const text of textChunks(stream)) {
        if (opts.signal?.aborted) return;
        scanner.push(text, out);
        if (scanner.pending > 64 * 1024 * 1024) throw new WorkbookRefusal('too-large', 'a row is too large');
        if (out.length >= batchSize) {
          for (const r of out) cells += r.values.length;
          if (cells > this.limits.maxCells) throw tooManyCells(this.limits);
          yield out;
          out = [];
        }
      }
    } catch (e) {
      if (e instanceof WorkbookRefusal || isSystemError(e)) throw e;
      throw new WorkbookRefusal('damaged', 'damaged');
    } finally {
      stream.destroy();
    }
    if (out.length > 0) yield out;
  }

  close(): void {
    this.zip.close();
  }
}

const GENERAL: NumberFormat = { code: 'General', date: false };

function tooManyCells(limits: WorkbookLimits): WorkbookRefusal {
  return new WorkbookRefusal(
    'too-large',
    `its sheet holds more than ${limits.maxCells.toLocaleString('en-US')} cells, more than Portolan imports at once`,
  );
}

function parseStyles(xml: string): NumberFormat[] {
  const custom = new Map<number, string>();
  for (const m of xml.matchAll(/<(?:\w+:)?numFmt\b[^>]*>/g)) {
    const a = attributes(m[0]);
    const id = Number(a.get('numFmtId'));
    const code = a.get('formatCode');
    if (Number.isInteger(id) && code !== undefined) custom.set(id, code);
  }
  const xfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(xml)?.[1] ?? '';
  const out: NumberFormat[] = [];
  for (const m of xfs.matchAll(/<(?:\w+:)?xf\b[^>]*>/g)) {
    const id = Number(attributes(m[0]).get('numFmtId') ?? '0');
    const code = custom.get(id) ?? builtInFormat(id) ?? 'General';
    // Built-in ids 14–22 and 45–47 are dates and times whatever their code says in a locale.
    const regional = id >= 14 && id <= 22;
    const date = regional || (id >= 45 && id <= 47) || isDateFormat(code);
    out.push(regional ? { code, date, regional } : { code, date });
  }
  return out;
}

async function readSharedStrings(zip: ZipArchive, limits: WorkbookLimits): Promise<string[]> {
  const part = [...zip.entries.keys()].find((k) => /^xl\/sharedStrings\.xml$/i.test(k));
  if (!part) return [];
  const stream = await zip.stream(part);
  if (!stream) return [];
  const scanner = new SharedStringScanner();
  try {
    for await (const text of textChunks(stream)) {
      scanner.push(text);
      if (scanner.chars > limits.maxSharedChars)
        throw new WorkbookRefusal('too-large', 'it holds more text than Portolan imports at once');
    }
  } finally {
    stream.destroy();
  }
  return scanner.strings;
}
