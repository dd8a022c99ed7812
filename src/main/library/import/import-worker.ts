/**
 * The import worker: reads and converts a file off the main thread, in its own heap with its own
 * memory limit, so a file too big or too strange for it stops this worker and never the app. Talks
 * to worker-client.ts through worker-protocol.ts; stores nothing.
 */
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { ImportPlan } from '@shared/library/import-contract';
import { RowConverter } from './convert';
import { prepareImport, type RememberedMapping } from './preview';
import { unreadableFile } from './refusal';
import type { RowStage, StagedPart } from './row-stage';
import { ImportRefusal, NO_RESULT, openTableSource } from './table-source';
import type { RawRow, TableSource } from './table-types';
import type { PreviewRow, RawPreview } from './raw-preview';
import type { CheckProgress, FromWorker, ToWorker } from './worker-protocol';

const port = parentPort;
/** Rows read for a preview: room for title rows above the header and a screenful of samples. */
const PREVIEW_ROWS = 60;
/** Parts in flight to the main thread before the worker waits for the library to store them. */
const MAX_UNACKED = 2;
/**
 * Rows per staged part: each is stored in one transaction with a fixed cost (a Parquet file written
 * and read, a commit) and is what progress moves by. The first parts are small so that progress shows
 * early; later ones are larger (fewer fixed costs), up to what keeps memory flat.
 */
const FIRST_PART_ROWS = 4096;
const MAX_PART_ROWS = 8192;

function send(msg: FromWorker): void {
  port?.postMessage(msg);
}

/*
 * An import stages its rows with DuckDB (a plain CSV read by DuckDB's own reader, any other file's rows
 * written to Parquet): loaded when an import runs, so that a preview or a check starts without it.
 */
const csvStager = () => import('./csv-native');
const rowStager = () => import('./row-stage');

const IN_PACKAGES = `${sep}node_modules${sep}`;

/**
 * The packages this thread has loaded so far, by name, from its module cache (required from any base
 * path, it is the thread's one cache): what starting this worker took, as the main thread logs it.
 */
function packagesLoaded(): string[] {
  const names = new Set<string>();
  for (const file of Object.keys(createRequire(process.execPath).cache)) {
    const at = file.lastIndexOf(IN_PACKAGES);
    if (at < 0) continue;
    const [first = '', second = ''] = file.slice(at + IN_PACKAGES.length).split(sep);
    // A folder such as .cache holds a compiled file of the app's, not a package.
    if (first.startsWith('.')) continue;
    names.add(first.startsWith('@') ? `${first}/${second}` : first);
  }
  return [...names].sort();
}

let acks = 0;
/** The library declined the last plain CSV part handed on (worker-protocol.ts: ack). */
let declined = false;
let wake: (() => void) | null = null;
/** Aborted when the main thread asks the worker to stop (see worker-client.ts: Parquet's DuckDB). */
const stop = new AbortController();
/** Hears the main thread's answer to the preview's `recall`. */
let recalled: ((mapping: RememberedMapping | null) => void) | null = null;

/** The mapping the analyst confirmed for files of these columns, kept by the main thread. */
function recall(shapeKey: string): Promise<RememberedMapping | null> {
  return new Promise((resolve) => {
    recalled = resolve;
    send({ type: 'recall', shapeKey });
  });
}

function locateFor(source: TableSource, sheet: number): (row: RawRow) => string {
  if (source.format === 'csv') return (r) => `row ${r.number}`;
  if (source.format === 'json') return (r) => `record ${r.number - 1}`;
  if (source.format === 'parquet') return (r) => `row ${r.number - 1}`;
  const name = source.sheets[sheet]?.name ?? '';
  // A web page's tables are named "Table 2"; with one table, its rows are the page's rows.
  if (source.format === 'html')
    return source.sheets.length > 1 ? (r) => `${name}, row ${r.number}` : (r) => `row ${r.number}`;
  return (r) => `sheet ${name}, row ${r.number}`;
}

/** The converter of a run or a check: the plan's fields, the source's formats, places named by `locate`. */
function converterFor(
  source: TableSource,
  msg: { plan: ImportPlan; headers: string[]; blank: number[]; hsHeadings: string[] },
  locate: (row: RawRow) => string,
): RowConverter {
  return new RowConverter(
    msg.plan.kind,
    msg.plan,
    msg.headers,
    (style) => source.numberFormat(style),
    source.date1904,
    locate,
    source.verbatim ?? false,
    new Set(msg.hsHeadings),
    msg.blank,
  );
}

/** The head of the chosen sheet, read and the source closed. */
async function readHead(msg: Extract<ToWorker, { type: 'preview' }>): Promise<RawPreview> {
  const source = await openTableSource(msg.path, msg.fileName, msg.limits);
  try {
    const sheet = msg.choices.sheet ?? source.defaultSheet;
    const head: PreviewRow[] = [];
    let whole = true;
    for await (const batch of source.rows(sheet, stop.signal, undefined, PREVIEW_ROWS)) {
      for (const r of batch) {
        if (head.length >= PREVIEW_ROWS) {
          whole = false;
          break;
        }
        head.push({
          number: r.number,
          values: r.values.map((v) => (v === NO_RESULT ? { formula: true as const } : (v ?? null))),
          formats: r.values.map((v, c) =>
            typeof v === 'number' ? source.numberFormat(r.styles?.[c]) : null,
          ),
          ...(r.hidden ? { hidden: true as const } : {}),
        });
      }
      if (!whole) break;
    }
    return {
      format: source.format,
      sheets: source.sheets,
      sheet,
      head,
      whole: whole && !stop.signal.aborted,
      notices: source.notices,
      query: source.query ? [...source.query] : null,
      facts: source.facts ?? null,
      date1904: source.date1904,
      verbatim: source.verbatim ?? false,
      csvDelimiter: source.csv?.delimiter ?? null,
    };
  } finally {
    source.close();
  }
}

/**
 * Reads the head of the file and prepares the preview here rather than in the main thread: converting
 * the head's rows under the plan is the costliest step of a preview (20–50 ms the first time in a
 * process), and the main thread answers the window meanwhile. Everything is sent once the source is
 * closed: the main thread may end the worker on any message, and a worker must not be ended while
 * DuckDB (Parquet) still works for it.
 */
async function preview(msg: Extract<ToWorker, { type: 'preview' }>): Promise<void> {
  const raw = await readHead(msg);
  let asked: string | null = null;
  const prepare = (memory: RememberedMapping | null) =>
    prepareImport(
      raw,
      msg.fileName,
      msg.choices,
      (shapeKey) => {
        asked = shapeKey;
        return memory;
      },
      msg.hsHeadings,
    );
  let prepared = prepare(null);
  // The shape key comes from the header row alone, so a remembered mapping changes nothing before it
  // is asked for: prepared again with it, the preview is what it would have been with it at hand.
  if (asked !== null && !stop.signal.aborted) {
    const memory = await recall(asked);
    if (memory !== null) prepared = prepare(memory);
  }
  send({ type: 'preview', prepared, packages: packagesLoaded() });
}

/** How often a whole-file check says how far it got: often enough to move, seldom enough to cost nothing. */
const CHECK_REPORT_MS = 250;

/** Characters a CSV row took in the file, about: its values, their separators and its line break. */
function rowChars(row: RawRow): number {
  let n = row.values.length;
  for (const v of row.values) if (typeof v === 'string') n += v.length;
  return n;
}

/**
 * Reads every row of the file under the plan, converting it as the import will (the same
 * RowConverter, the preview's "row N" places) and storing nothing, and reports what it has found as
 * it goes. A workbook's sheet says how many rows it holds; a CSV's count is estimated from the share
 * of its bytes read so far.
 */
async function check(msg: Extract<ToWorker, { type: 'check' }>): Promise<void> {
  const source = await openTableSource(msg.path, msg.fileName, msg.limits);
  let answer: FromWorker;
  try {
    // Placed as the preview places them ("row N"): the dialog lists them next to its sheet choice.
    const converter = converterFor(source, msg, (r) => `row ${r.number}`);
    const sheetRows = source.sheets[msg.plan.sheet]?.rows ?? null;
    const fileBytes = source.format === 'csv' ? (await stat(msg.path)).size : 0;
    let lines = 0;
    let chars = 0;
    const progress = (): CheckProgress => {
      let rowsTotal: number | null = null;
      let totalIsEstimate = false;
      if (sheetRows !== null) rowsTotal = Math.max(0, sheetRows - msg.plan.headerRow);
      else if (fileBytes > 0 && chars > 0) {
        // Lines in the file at the rate read so far, less the rows above the data and the blank ones.
        const perLine = chars / lines;
        const share = Math.min(1, lines / Math.max(lines, fileBytes / perLine));
        rowsTotal = Math.round((converter.rowsRead + converter.blankRows) / share - converter.blankRows);
        totalIsEstimate = true;
      }
      return {
        rowsChecked: converter.rowsRead,
        rowsTotal: rowsTotal === null ? null : Math.max(rowsTotal, converter.rowsRead),
        totalIsEstimate,
        blankRows: converter.blankRows,
        issues: converter.warnings(),
        unnamedFound: converter.unnamedFound(),
      };
    };
    let reported = Date.now();
    for await (const rows of source.rows(msg.plan.sheet, stop.signal, msg.plan.headerRow)) {
      if (stop.signal.aborted) break;
      if (fileBytes > 0) for (const r of rows) chars += rowChars(r);
      lines += rows.length;
      converter.convert(rows);
      if (Date.now() - reported >= CHECK_REPORT_MS) {
        reported = Date.now();
        send({ type: 'checked', progress: progress(), final: false });
      }
    }
    if (!stop.signal.aborted) converter.endOfFile();
    answer = stop.signal.aborted
      ? { type: 'stopped' }
      : {
          type: 'checked',
          progress: { ...progress(), rowsTotal: converter.rowsRead, totalIsEstimate: false },
          final: true,
        };
  } finally {
    source.close();
  }
  // Answered once the source is closed, as the preview is.
  send(answer);
}

async function run(msg: Extract<ToWorker, { type: 'run' }>): Promise<void> {
  const source = await openTableSource(msg.path, msg.fileName, msg.limits);
  let stage: RowStage | null = null;
  let answer: FromWorker;
  try {
    const converter = converterFor(source, msg, locateFor(source, msg.plan.sheet));
    let sent = 0;
    let read = 0;
    let partRows = FIRST_PART_ROWS;
    const hand = async (part: StagedPart | null): Promise<void> => {
      if (!part) return;
      send({ type: 'part', source: part.source, rows: part.rows, rowsRead: read });
      sent += 1;
      // Flow control: never more than a few parts ahead of what the library has stored.
      while (sent - acks > MAX_UNACKED && !stop.signal.aborted)
        await new Promise<void>((resolve) => (wake = resolve));
    };
    // A CSV is read by DuckDB's reader when the row path would take its every value as it is.
    const native = source.csv
      ? await (
          await csvStager()
        ).stageCsvNatively({
          path: msg.path,
          layout: source.csv,
          kind: msg.plan.kind,
          headerRow: msg.plan.headerRow,
          decimalComma: msg.plan.locale.decimal === ',',
          columns: converter.columnPlan(),
          dir: msg.stagingDir,
          signal: stop.signal,
          onPart: async (part, rowsRead) => {
            read = rowsRead;
            await hand(part);
            // The library's answer decides: rows kept, or the row path reads the file.
            while (acks < sent && !stop.signal.aborted)
              await new Promise<void>((resolve) => (wake = resolve));
            if (!declined) return !stop.signal.aborted;
            read = 0;
            return false;
          },
        })
      : null;
    if (native) converter.valuesSeenIn(native.filled);
    if (!native && !stop.signal.aborted) {
      stage = await (await rowStager()).RowStage.open(msg.plan.kind, msg.stagingDir);
      const staged = stage;
      const flush = async (): Promise<void> => {
        if (staged.rows === 0) return;
        partRows = Math.min(MAX_PART_ROWS, partRows * 2);
        await hand(await staged.cut());
      };
      for await (const rows of source.rows(msg.plan.sheet, stop.signal, msg.plan.headerRow)) {
        if (stop.signal.aborted) break;
        read += rows.length;
        const batch = converter.convert(rows);
        if (batch.n === 0) continue;
        await staged.append(batch);
        if (staged.rows >= partRows) await flush();
      }
      if (!stop.signal.aborted) {
        converter.endOfFile();
        await flush();
        await hand(await staged.drain());
      }
    }
    answer = stop.signal.aborted
      ? { type: 'stopped' }
      : {
          type: 'done',
          summary: {
            rows: native ? native.rows : converter.rows,
            blankRows: converter.blankRows,
            warnings: converter.warnings(),
            partOnly: converter.partOnly(),
            missingFields: converter.missingFields,
            extraColumns: converter.extraColumns,
            unnamedFound: converter.unnamedFound(),
          },
        };
  } finally {
    source.close();
    await stage?.close();
  }
  // Sent once the source and the stage are closed, as the preview's answer is.
  send(answer);
}

port?.on('message', (msg: ToWorker) => {
  if (msg.type === 'recalled') {
    const r = recalled;
    recalled = null;
    r?.(msg.mapping);
    return;
  }
  if (msg.type === 'ack' || msg.type === 'stop') {
    // A preview waiting for its remembered mapping goes on without one and answers.
    if (msg.type === 'stop') {
      const r = recalled;
      recalled = null;
      r?.(null);
    }
    if (msg.type === 'ack') {
      acks += 1;
      if (msg.declined) declined = true;
    } else stop.abort();
    const w = wake;
    wake = null;
    w?.();
    return;
  }
  const work = msg.type === 'preview' ? preview(msg) : msg.type === 'check' ? check(msg) : run(msg);
  work.catch((e: unknown) => {
    // The system refusing to read the file (locked, moved, a drive gone) is said as such, not as a fault.
    const refusal = e instanceof ImportRefusal ? e : unreadableFile(e);
    if (stop.signal.aborted) send({ type: 'stopped' });
    else if (refusal)
      send({
        type: 'refused',
        message: refusal.message,
        ...(refusal.detail ? { detail: refusal.detail } : {}),
      });
    else send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  });
});
