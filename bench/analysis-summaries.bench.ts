/**
 * Every analysis summary on a 1,000,000-row shipments dataset (goal: at most 300 ms each), against
 * two baselines measured in the same run on the same rows: a plain count(*) and a scan that casts and
 * sums one amount column (the least any summary must do).
 *
 *   npm run bench -- analysis-summaries              1,000,000 rows
 *   npm run bench -- analysis-summaries --rows=200000
 *
 * The rows are 50,000 simulator records copied in SQL to the target count (row numbers shifted), so
 * group counts are those of a 50,000-record simulator dataset (~2,500 firms, ~5,000 HS codes).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SUMMARY_KINDS, type SummaryKind } from '../src/shared/analysis/analysis-contract';
import { createAnalysis } from '../src/main/analysis';
import { Library } from '../src/main/library';
import { withLibraryFile } from './library-file';
import { SimData } from '../src/main/sim/dataset';
import { loadHsSubheadings } from '../src/main/sim/hs-codes';

const GOAL_MS = 300;
const SEED_RECORDS = 50_000;
const RUNS = 5;
const rowsArg = process.argv.find((a) => a.startsWith('--rows='));
const TARGET = rowsArg ? Number(rowsArg.slice(7)) : 1_000_000;

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up: first run loads the HS names and pages in the data
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'portolan-analysis-bench-'));
  const hsCsv = resolve(import.meta.dirname, '../resources/data/hs-codes.csv');
  let library = await Library.open(dir);
  try {
    const t = performance.now();
    const sim = new SimData({ records: SEED_RECORDS, seed: 42, hsSubheadings: loadHsSubheadings(hsCsv) });
    const meta = await library.saveRecords({ kind: 'shipments', request: { size: TARGET }, name: 'bench' }, [
      ...sim.records(),
    ]);
    const copies = Math.ceil(TARGET / SEED_RECORDS);
    await library.close();
    await withLibraryFile(dir, async (conn) => {
      await conn.run(
        `INSERT INTO shipment_rows BY NAME
           SELECT s.* REPLACE (s.row_no + CAST(r.k AS INTEGER) * ${SEED_RECORDS} AS row_no)
             FROM shipment_rows s, range(1, ${copies}) r(k)
            WHERE s.dataset_id = $1 AND s.row_no + CAST(r.k AS INTEGER) * ${SEED_RECORDS} < ${TARGET}`,
        [meta.id],
      );
      await conn.run(
        `UPDATE datasets SET stored_rows = (SELECT count(*) FROM shipment_rows WHERE dataset_id = $1) WHERE id = $1`,
        [meta.id],
      );
    });
    library = await Library.open(dir);
    const rows = (await library.get(meta.id)).storedRows;
    console.log(
      `dataset: ${rows.toLocaleString('en-US')} rows, built in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    const analysis = createAnalysis(library, { hsCodesCsvPath: hsCsv });
    const count = await median(() =>
      library.reader.all('SELECT count(*) AS n FROM shipment_rows WHERE dataset_id = $1', [meta.id]),
    );
    const scan = await median(() =>
      library.reader.all(
        'SELECT sum(TRY_CAST("usdFob" AS DOUBLE)) AS s FROM shipment_rows WHERE dataset_id = $1',
        [meta.id],
      ),
    );
    console.log(`baseline count(*)            ${count.toFixed(1).padStart(8)} ms`);
    console.log(`baseline sum(TRY_CAST usdFob) ${scan.toFixed(1).padStart(7)} ms`);
    console.log(
      `\n${'summary'.padEnd(28)} ${'median ms'.padStart(10)} ${'× count'.padStart(9)} ${'× sum'.padStart(7)}  goal ${GOAL_MS} ms`,
    );

    let over = 0;
    const line = (name: string, ms: number) => {
      const ok = ms <= GOAL_MS;
      if (!ok) over++;
      console.log(
        `${name.padEnd(28)} ${ms.toFixed(1).padStart(10)} ${(ms / count).toFixed(1).padStart(9)} ${(ms / scan).toFixed(1).padStart(7)}  ${ok ? 'ok' : 'OVER'}`,
      );
    };
    for (const kind of SUMMARY_KINDS as readonly SummaryKind[]) {
      line(
        `${kind} (by usdFob)`,
        await median(() => analysis.summary(meta.id, kind, { measure: 'usdFob', limit: 25 })),
      );
    }
    const top = await analysis.summary(meta.id, 'importers', { limit: 1 });
    const code = top.rows[0]!.key!;
    line('firm profile (top importer)', await median(() => analysis.firmProfile(meta.id, code)));
    line('snapshot diff vs itself', await median(() => analysis.diff(meta.id, meta.id, 'importer')));
    console.log(
      `\n${over === 0 ? 'all within' : `${over} over`} the ${GOAL_MS} ms goal (${RUNS} runs each, median; ${rows.toLocaleString('en-US')} rows)`,
    );
  } finally {
    await library.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
