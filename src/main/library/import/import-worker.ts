/**
 * The import worker: reads and converts a file off the main thread, in its own heap with its own
 * memory limit, so a file too big or too strange for it stops this worker and never the app. Talks
 * to worker-client.ts through worker-protocol.ts; stores nothing.
 */
import { parentPort } from 'node:worker_threads';
import { RowConverter } from './convert';
import { RowStage, type StagedPart } from './row-stage';
import { ImportRefusal, NO_RESULT, openTableSource, type RawRow, type TableSource } from './table-source';
import type { FromWorker, PreviewRow, ToWorker } from './worker-protocol';

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

let acks = 0;
let wake: (() => void) | null = null;
/** Aborted when the main thread asks the worker to stop (see worker-client.ts: Parquet's DuckDB). */
const stop = new AbortController();

function locateFor(source: TableSource, sheet: number): (row: RawRow) => string {
  if (source.format === 'csv') return (r) => `row ${r.number}`;
  if (source.format === 'json') return (r) => `record ${r.number - 1}`;
  if (source.format === 'parquet') return (r) => `row ${r.number - 1}`;
  const name = source.sheets[sheet]?.name ?? '';
  return (r) => `sheet ${name}, row ${r.number}`;
}

async function preview(msg: Extract<ToWorker, { type: 'preview' }>): Promise<void> {
  const source = await openTableSource(msg.path, msg.fileName, msg.limits);
  let answer: FromWorker;
  try {
    const sheet = msg.sheet ?? source.defaultSheet;
    const head: PreviewRow[] = [];
    for await (const batch of source.rows(sheet, stop.signal)) {
      for (const r of batch) {
        if (head.length >= PREVIEW_ROWS) break;
        head.push({
          number: r.number,
          values: r.values.map((v) => (v === NO_RESULT ? { formula: true as const } : (v ?? null))),
          formats: r.values.map((v, c) =>
            typeof v === 'number' ? source.numberFormat(r.styles?.[c]) : null,
          ),
        });
      }
      if (head.length >= PREVIEW_ROWS) break;
    }
    answer = {
      type: 'preview',
      preview: {
        format: source.format,
        sheets: source.sheets,
        sheet,
        head,
        notices: source.notices,
        query: source.query ? [...source.query] : null,
        facts: source.facts ?? null,
        date1904: source.date1904,
        verbatim: source.verbatim ?? false,
      },
    };
  } finally {
    source.close();
  }
  // Answered once the source is closed: the main thread ends the worker on this answer, and a worker
  // must not be ended while DuckDB (Parquet) still works for it.
  send(answer);
}

async function run(msg: Extract<ToWorker, { type: 'run' }>): Promise<void> {
  const source = await openTableSource(msg.path, msg.fileName, msg.limits);
  let stage: RowStage | null = null;
  let answer: FromWorker;
  try {
    stage = await RowStage.open(msg.plan.kind, msg.stagingDir);
    const staged = stage;
    const converter = new RowConverter(
      msg.plan.kind,
      msg.plan,
      msg.headers,
      (style) => source.numberFormat(style),
      source.date1904,
      locateFor(source, msg.plan.sheet),
      source.verbatim ?? false,
    );
    let sent = 0;
    let read = 0;
    let partRows = FIRST_PART_ROWS;
    const hand = async (part: StagedPart | null): Promise<void> => {
      if (!part) return;
      send({ type: 'part', file: part.file, rows: part.rows, rowsRead: read });
      sent += 1;
      // Flow control: never more than a few parts ahead of what the library has stored.
      while (sent - acks > MAX_UNACKED && !stop.signal.aborted)
        await new Promise<void>((resolve) => (wake = resolve));
    };
    const flush = async (): Promise<void> => {
      if (staged.rows === 0) return;
      partRows = Math.min(MAX_PART_ROWS, partRows * 2);
      await hand(await staged.cut());
    };
    for await (const rows of source.rows(msg.plan.sheet, stop.signal)) {
      if (stop.signal.aborted) break;
      read += rows.length;
      const batch = converter.convert(rows);
      if (batch.n === 0) continue;
      await staged.append(batch);
      if (staged.rows >= partRows) await flush();
    }
    if (!stop.signal.aborted) {
      await flush();
      await hand(await staged.drain());
    }
    answer = stop.signal.aborted
      ? { type: 'stopped' }
      : {
          type: 'done',
          summary: {
            rows: converter.rows,
            blankRows: converter.blankRows,
            warnings: converter.warnings(),
            partOnly: converter.partOnly(),
            missingFields: converter.missingFields,
            extraColumns: converter.extraColumns,
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
  if (msg.type === 'ack' || msg.type === 'stop') {
    if (msg.type === 'ack') acks += 1;
    else stop.abort();
    const w = wake;
    wake = null;
    w?.();
    return;
  }
  const work = msg.type === 'preview' ? preview(msg) : run(msg);
  work.catch((e: unknown) => {
    if (stop.signal.aborted) send({ type: 'stopped' });
    else if (e instanceof ImportRefusal) send({ type: 'refused', message: e.message });
    else send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  });
});
