import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { columnLetters } from '@shared/spreadsheet-columns';
import { cancelledError, closeQuietly, throwIfAborted, writeAtomically } from './atomic-file';
import { fitExcelText } from './cell-values';
import { excelCell } from './excel-cells';
import { QUERY_SHEET_NAME, queryRows } from './query-sheet';
import { throttledProgress } from './progress';
import { createRowRenderer, type RowStyleIds } from './sheet-xml';
import { relieve, type WriteFailure } from './stream-pressure';
import type {
  ExportColumn,
  ExportOptions,
  ExportProgress,
  ExportResult,
  ExportRow,
  ExportSource,
  SummaryKind,
  SummaryProvider,
  SummaryTable,
} from './types';
import { SUMMARY_KINDS } from './types';

/** Excel's hard limit is 1,048,576 rows per sheet; one of them is the header. */
export const EXCEL_MAX_DATA_ROWS = 1_048_575;
const SHEET_TITLES = { shipments: 'Shipments', firms: 'Firms' } as const;
/** Rows between event-loop turns: a few ms of work, so the main process never stalls for long. */
const ROWS_PER_TURN = 200;
const WIDTH_SAMPLE_ROWS = 500;
const MAX_CUT_ADDRESSES = 20;
/**
 * Measured at 100,000 × 88 cells: level 1 takes about two thirds of the CPU time of zlib's default
 * for a file about 19% larger; exports are written far more often than they are mailed.
 */
const ZIP_LEVEL = 1;
/**
 * How the XML reaches zlib. Deflate runs on the thread pool, but every piece it is handed, and every
 * output buffer it fills, costs a round trip through the main thread, which is busy rendering rows.
 * With exceljs's 64 KB sheet buffers and zlib's 16 KB output buffers that was one round trip per
 * 64 KB, the zip fell behind and the writer spent a third of its time waiting for it. Pieces of 1 MB
 * and 256 KB output buffers let one deflate run for several ms alongside the rendering (measured at
 * 100,000 × 88: 5.0 s → 3.2 s, no waits).
 */
const SHEET_BUFFER_BYTES = 1024 * 1024;
const ZIP_OUTPUT_CHUNK_BYTES = 256 * 1024;
/**
 * Rendered rows are handed to the sheet stream in pieces of about this size, each followed by an
 * event-loop turn (about 2 ms of work), so the main process keeps answering while it exports.
 */
const XML_CHUNK_BYTES = 128 * 1024;

export interface XlsxExportOptions extends ExportOptions {
  /** Summary sheets after the Query sheet, computed by the provider (the library, in SQL). */
  summaries?: { provider: SummaryProvider; kinds?: readonly SummaryKind[] };
  /** Data rows per sheet before continuing on "Shipments (2)"; lower only for tests. */
  rowsPerSheet?: number;
  /**
   * How data rows become XML: 'direct' (default) renders them here and hands the text to the sheet's
   * exceljs stream; 'exceljs' goes through exceljs's Row objects (several times slower; the fallback
   * when exceljs's internals differ, and a cross-check of the direct path in the tests).
   */
  rowEncoding?: 'direct' | 'exceljs';
  /** Clock for the exported-at row. */
  now?: () => Date;
}

type Worksheet = ExcelJS.Worksheet;
type Style = Partial<ExcelJS.Style>;

/** exceljs caches a style by object identity, so one shared object per kind keeps styling O(1) per cell. */
const STYLES = {
  text: {} as Style,
  number: {} as Style,
  date: { numFmt: 'yyyy-mm-dd' } as Style,
  dateTime: { numFmt: 'yyyy-mm-dd hh:mm:ss' } as Style,
  header: {
    font: { bold: true, color: { argb: 'FFFFFFFF' } },
    fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E78' } },
    alignment: { vertical: 'middle' },
  } as Style,
  key: { font: { bold: true } } as Style,
};

/** Widths from the header and a sample of rows: long enough to read, never a screen wide. */
function columnWidths(columns: readonly ExportColumn[], sample: readonly ExportRow[]): number[] {
  return columns.map((c, i) => {
    if (c.type === 'date') return Math.max(12, (c.title ?? c.header).length + 4);
    if (c.type === 'epoch') return Math.max(20, (c.title ?? c.header).length + 4);
    const lengths = sample.map((r) => {
      const v = r[i];
      return typeof v === 'string' ? v.length : v === null || v === undefined ? 0 : String(v).length;
    });
    lengths.sort((a, b) => a - b);
    const p90 = lengths.length ? (lengths[Math.floor(lengths.length * 0.9)] ?? 0) : 0;
    // +4 leaves room for the autofilter button in the header.
    // Never exactly 9: exceljs treats that as its default width and leaves the column out of the file.
    return Math.min(60, Math.max(10, (c.title ?? c.header).length + 4, p90 + 2));
  });
}

function sheetTitle(base: string, index: number): string {
  return index === 0 ? base : `${base} (${index + 1})`;
}

interface DataWriteState {
  rowsWritten: number;
  sheets: string[];
  cutCells: string[];
  cutCellCount: number;
  alteredCells: string[];
  alteredCellCount: number;
}

/** Writes the source's rows over as many sheets as needed, one committed sheet at a time. */
async function writeDataSheets(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  source: ExportSource,
  options: XlsxExportOptions,
  report: (p: ExportProgress, force?: boolean) => void,
  failure: WriteFailure,
): Promise<DataWriteState> {
  const { signal } = options;
  const rowsPerSheet = Math.min(options.rowsPerSheet ?? EXCEL_MAX_DATA_ROWS, EXCEL_MAX_DATA_ROWS);
  if (rowsPerSheet < 1) throw new RangeError('rowsPerSheet must be at least 1');
  const columns = source.columns;
  const base = SHEET_TITLES[source.kind];
  const lastColumn = columnLetters(columns.length - 1);
  const state: DataWriteState = {
    rowsWritten: 0,
    sheets: [],
    cutCells: [],
    cutCellCount: 0,
    alteredCells: [],
    alteredCellCount: 0,
  };
  const letters = columns.map((_, i) => columnLetters(i));
  let widths: number[] | null = null;
  let sheet: Worksheet | null = null;
  let rowsInSheet = 0;
  // Reused for every row of the exceljs path: exceljs copies the values out before the next row.
  const values: (string | number | null)[] = new Array<string | number | null>(columns.length).fill(null);
  const reports = {
    cut(i: number): void {
      state.cutCellCount += 1;
      if (state.cutCells.length < MAX_CUT_ADDRESSES && sheet !== null)
        state.cutCells.push(`'${sheet.name}'!${letters[i]}${rowsInSheet + 2}`);
    },
    altered(i: number): void {
      state.alteredCellCount += 1;
      if (state.alteredCells.length < MAX_CUT_ADDRESSES && sheet !== null)
        state.alteredCells.push(`'${sheet.name}'!${letters[i]}${rowsInSheet + 2}`);
    },
  };
  // The direct path needs exceljs's style ids for number formats; without its style registry (a
  // future exceljs) every row goes through exceljs.
  const styleIds = options.rowEncoding === 'exceljs' ? null : numberStyleIds(workbook);
  const renderRow = styleIds === null ? null : createRowRenderer(columns, letters, styleIds);
  let direct = false;
  // Rows are encoded one by one into a scratch buffer that is handed on in pieces of about
  // XML_CHUNK_BYTES. The sheet stream (batch mode, see canWriteDirectly) copies what it is given, so
  // the buffer is reused. Encoding row by row rather than a long concatenation costs no flattening
  // of a deep string and keeps rows without non-Latin-1 text on V8's one-byte path.
  let scratch = Buffer.allocUnsafe(XML_CHUNK_BYTES * 2);
  let used = 0;
  const flush = (): void => {
    if (used > 0 && sheet !== null) {
      (sheetStream(sheet) as { write(data: Buffer): void }).write(scratch.subarray(0, used));
      used = 0;
    }
  };
  const put = (xml: string): void => {
    // UTF-16 code unit → at most 3 bytes of UTF-8.
    const worst = xml.length * 3;
    if (used + worst > scratch.length) {
      flush();
      if (worst > scratch.length) scratch = Buffer.allocUnsafe(worst);
    }
    used += scratch.write(xml, used, 'utf8');
  };

  const openSheet = (): Worksheet => {
    const title = sheetTitle(base, state.sheets.length);
    state.sheets.push(title);
    const ws = workbook.addWorksheet(title, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
    enlargeSheetBuffer(ws);
    ws.columns = columns.map((c, i) => ({ key: c.field, width: widths?.[i] ?? 12 }));
    ws.autoFilter = `A1:${lastColumn}1`;
    const header = ws.addRow(columns.map((c) => c.title ?? c.header));
    header.height = 20;
    header.eachCell((cell) => {
      cell.style = STYLES.header;
    });
    header.commit();
    rowsInSheet = 0;
    return ws;
  };

  // The widths come from the first WIDTH_SAMPLE_ROWS rows, whatever the size of the source's batches.
  const rest = await afterSample(source.batches(signal), WIDTH_SAMPLE_ROWS, (sample) => {
    widths = columnWidths(columns, sample);
  });
  for await (const batch of rest) {
    throwIfAborted(signal);
    for (let b = 0; b < batch.length; b++) {
      if (sheet === null || rowsInSheet >= rowsPerSheet) {
        if (sheet !== null) {
          flush();
          sheet.commit();
          await relieve(sheetStream(sheet), signal, failure);
        }
        sheet = openSheet();
        direct = renderRow !== null && canWriteDirectly(sheet);
      }
      const row = batch[b] as ExportRow;
      let turn = false;
      if (direct && renderRow !== null) {
        put(renderRow(rowsInSheet + 2, row, reports));
        turn = used >= XML_CHUNK_BYTES;
      } else {
        const formats: (string | null)[] = [];
        for (let i = 0; i < columns.length; i++) {
          const cell = excelCell(row[i], (columns[i] as ExportColumn).type);
          formats[i] = null;
          if (cell.kind === 'empty') values[i] = null;
          else if (cell.kind === 'number') {
            values[i] = cell.value;
            formats[i] = cell.format;
          } else {
            if (cell.cut) reports.cut(i);
            if (cell.altered) reports.altered(i);
            // exceljs writes a CR as is, and XML readers turn CR LF into LF: Excel's own escape keeps it.
            values[i] = cell.text.replace(/\r/g, '_x000D_');
          }
        }
        const added = sheet.addRow(values);
        for (let i = 0; i < columns.length; i++) {
          const f = formats[i];
          if (f) added.getCell(i + 1).style = numberStyle(f);
        }
        added.commit();
      }
      rowsInSheet += 1;
      state.rowsWritten += 1;
      if (turn || state.rowsWritten % ROWS_PER_TURN === 0) {
        flush();
        await relieve(sheetStream(sheet), signal, failure);
        throwIfAborted(signal);
        report({ phase: 'rows', rowsWritten: state.rowsWritten, rowCount: source.rowCount });
      }
    }
  }
  throwIfAborted(signal);
  // An empty result still gets its header row, so the file shows what was asked.
  sheet ??= openSheet();
  flush();
  sheet.commit();
  await relieve(sheetStream(sheet), signal, failure);
  report({ phase: 'rows', rowsWritten: state.rowsWritten, rowCount: source.rowCount }, true);
  return state;
}

/**
 * Hands `onSample` the first `rows` rows of `batches` (fewer if it ends first), then answers every
 * batch from the start again, the sampled ones first. Stopping the answer early stops `batches` too.
 */
async function afterSample<T>(
  batches: AsyncIterable<readonly T[]>,
  rows: number,
  onSample: (sample: readonly T[]) => void,
): Promise<AsyncIterable<readonly T[]>> {
  const iterator = batches[Symbol.asyncIterator]();
  const head: (readonly T[])[] = [];
  let taken = 0;
  let ended = false;
  try {
    while (taken < rows) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      taken += next.value.length;
    }
  } catch (err) {
    await iterator.return?.();
    throw err;
  }
  onSample(head.flat().slice(0, rows));
  async function* all(): AsyncGenerator<readonly T[]> {
    try {
      // Let go of each sampled batch as it is handed out, so its rows die with their turn.
      for (let batch = head.shift(); batch !== undefined; batch = head.shift()) yield batch;
      while (!ended) {
        const next = await iterator.next();
        if (next.done) {
          ended = true;
          return;
        }
        yield next.value;
      }
    } finally {
      if (!ended) await iterator.return?.();
    }
  }
  return all();
}

/**
 * Direct row XML needs the sheet to have opened its <sheetData> (exceljs does that when the header row
 * is committed) and a writable stream in batch mode (it copies every write into its own buffers before
 * passing them on, so the writer may reuse its scratch buffer); if a future exceljs differs, rows go
 * through exceljs instead.
 */
function canWriteDirectly(ws: Worksheet): boolean {
  const internals = ws as unknown as { startedData?: boolean; stream?: { write?: unknown; batch?: unknown } };
  return (
    internals.startedData === true &&
    typeof internals.stream?.write === 'function' &&
    internals.stream.batch === true
  );
}

/** exceljs's style id per number format, registered on first use; null if its registry is not there. */
function numberStyleIds(workbook: ExcelJS.stream.xlsx.WorkbookWriter): RowStyleIds | null {
  const styles = (workbook as unknown as { styles?: { addStyleModel?: unknown } }).styles;
  if (typeof styles?.addStyleModel !== 'function') return null;
  const add = styles.addStyleModel.bind(styles) as (style: Style, type: number) => unknown;
  const probe = add(numberStyle('yyyy-mm-dd'), ExcelJS.ValueType.Number);
  if (typeof probe !== 'number') return null;
  return { id: (format) => add(numberStyle(format), ExcelJS.ValueType.Number) as number };
}

/** One style object per format: exceljs caches styles by object identity. */
const numberStyles = new Map<string, Style>();
function numberStyle(format: string): Style {
  let style = numberStyles.get(format);
  if (!style) {
    style = { numFmt: format };
    numberStyles.set(format, style);
  }
  return style;
}

/**
 * exceljs opens every sheet stream with 64 KB buffers and no option to change it; bigger ones feed the
 * zip in bigger pieces (see SHEET_BUFFER_BYTES). Read defensively: without the field, 64 KB it stays.
 */
function enlargeSheetBuffer(ws: Worksheet): void {
  const stream = sheetStream(ws) as { bufSize?: unknown } | undefined;
  if (stream && typeof stream.bufSize === 'number') stream.bufSize = SHEET_BUFFER_BYTES;
}

function sheetStream(ws: Worksheet): unknown {
  return (ws as unknown as { stream: unknown }).stream;
}

function writeKeyValueSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  rows: readonly (readonly [string, string | number])[],
): void {
  const ws = workbook.addWorksheet(QUERY_SHEET_NAME, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
  ws.columns = [
    { key: 'key', width: 22 },
    { key: 'value', width: 80 },
  ];
  const header = ws.addRow(['key', 'value']);
  header.eachCell((cell) => {
    cell.style = STYLES.header;
  });
  header.commit();
  for (const [key, value] of rows) {
    const row = ws.addRow([key, typeof value === 'string' ? fitExcelText(value).text : value]);
    row.getCell(1).style = STYLES.key;
    row.commit();
  }
  ws.commit();
}

function writeSummarySheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, table: SummaryTable): void {
  const ws = workbook.addWorksheet(table.title.slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }],
  });
  ws.columns = table.columns.map((c) => ({ key: c.header, width: c.type === 'text' ? 40 : 16 }));
  if (table.columns.length > 0) ws.autoFilter = `A1:${columnLetters(table.columns.length - 1)}1`;
  const header = ws.addRow(table.columns.map((c) => c.header));
  header.eachCell((cell) => {
    cell.style = STYLES.header;
  });
  header.commit();
  for (const cells of table.rows) {
    const row = ws.addRow(cells.map((v) => (typeof v === 'string' ? fitExcelText(v).text : v)));
    row.eachCell((cell) => {
      cell.style = typeof cell.value === 'number' ? STYLES.number : STYLES.text;
    });
    row.commit();
  }
  ws.commit();
}

/**
 * Streams an export source into an .xlsx file: data sheet(s) with a styled, frozen, filterable
 * header; typed number and date cells; a Query sheet describing what was asked; optional summaries.
 */
export async function exportXlsx(
  source: ExportSource,
  target: string,
  options: XlsxExportOptions = {},
): Promise<ExportResult> {
  const { signal } = options;
  const now = options.now ?? (() => new Date());
  const report = throttledProgress(options.onProgress);

  const { value: rowsWritten, bytes } = await writeAtomically(target, options, async (temp) => {
    const file = createWriteStream(temp);
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: file,
      useStyles: true,
      useSharedStrings: false,
      zip: { zlib: { level: ZIP_LEVEL, chunkSize: ZIP_OUTPUT_CHUNK_BYTES } },
    });
    workbook.creator = 'Portolan';
    // exceljs listens for errors only once it finalizes; one raised earlier (a full disk) would
    // otherwise leave the export waiting forever.
    const failure: WriteFailure = {};
    let rejectFailed: (err: unknown) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => (rejectFailed = reject));
    failed.catch(() => undefined);
    const onError = (err: unknown): void => {
      failure.error ??= err;
      rejectFailed(err);
    };
    file.on('error', onError);
    (workbook as unknown as { zip: NodeJS.EventEmitter }).zip.on('error', onError);
    try {
      const state = await writeDataSheets(workbook, source, options, report, failure);

      let tables: SummaryTable[] = [];
      if (options.summaries) {
        report({ phase: 'summaries', rowsWritten: state.rowsWritten, rowCount: source.rowCount }, true);
        tables = await options.summaries.provider.summaries(options.summaries.kinds ?? SUMMARY_KINDS, signal);
        throwIfAborted(signal);
      }
      writeKeyValueSheet(
        workbook,
        queryRows({
          kind: source.kind,
          query: source.query,
          rowsExported: state.rowsWritten,
          dataSheets: state.sheets,
          rowsPerSheet: Math.min(options.rowsPerSheet ?? EXCEL_MAX_DATA_ROWS, EXCEL_MAX_DATA_ROWS),
          cutCells: state.cutCells,
          cutCellCount: state.cutCellCount,
          alteredCells: state.alteredCells,
          alteredCellCount: state.alteredCellCount,
          fieldNames: source.columns.map((c) => c.field),
          exportedAt: now(),
        }),
      );
      for (const table of tables) writeSummarySheet(workbook, table);

      report({ phase: 'finishing', rowsWritten: state.rowsWritten, rowCount: source.rowCount }, true);
      await Promise.race([workbook.commit(), failed]);
      await Promise.race([finished(file), failed]);
      return state.rowsWritten;
    } catch (err) {
      // Stop the zip and close the file so the temp file can go; the zip's own error is not the story.
      const zip = (workbook as unknown as { zip?: { abort?: () => void } }).zip;
      zip?.abort?.();
      await closeQuietly(file);
      if (signal?.aborted) throw cancelledError();
      throw err;
    }
  });
  return { path: target, rowsWritten, bytes };
}
