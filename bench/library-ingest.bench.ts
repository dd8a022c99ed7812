/**
 * Ingest of one 10,000-record shipment search response (parse, check, store in DuckDB in one
 * transaction) against plain JSON.parse of the same bytes, measured in the same run. Goal: ≤ 2×.
 * The response comes from the simulator's generator, so record shapes and sizes are realistic.
 *
 *   npm run bench -- library-ingest
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../src/main/library';
import { generateAccount, startSimulator } from '../src/main/sim';

const RECORDS = 10_000;
const ROUNDS = 15;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const sim = await startSimulator({
    port: 0,
    records: 20_000,
    seed: 3,
    accounts: [generateAccount('bench')],
  });
  const shipments = [...sim.dataset.records()].slice(0, RECORDS);
  await sim.close();
  const body = JSON.stringify({ total: RECORDS, shipments });
  console.log(`response: ${RECORDS} records, ${(Buffer.byteLength(body) / 1e6).toFixed(1)} MB`);

  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-ingest-'));
  const lib = await Library.open(dir);
  try {
    // Warm both paths once (JIT, DuckDB's first-append setup).
    JSON.parse(body);
    await lib.ingestShipmentSearchText(body, { size: RECORDS });
    const parse: number[] = [];
    const ingest: number[] = [];
    // Each step starts on a collected heap (run-all passes --expose-gc), so neither side pays for
    // the other's garbage; collections caused by a step's own allocations are still timed.
    for (let i = 0; i < ROUNDS; i++) {
      global.gc?.();
      let t = performance.now();
      JSON.parse(body);
      parse.push(performance.now() - t);
      global.gc?.();
      t = performance.now();
      await lib.ingestShipmentSearchText(body, { size: RECORDS });
      ingest.push(performance.now() - t);
    }
    const p = median(parse);
    const g = median(ingest);
    console.log(`JSON.parse (baseline)      median ${p.toFixed(1)} ms`);
    console.log(`ingest (parse+check+store) median ${g.toFixed(1)} ms`);
    console.log(
      `ratio ingest / JSON.parse: ${(g / p).toFixed(2)}× (goal ≤ 2×) ${g / p <= 2 ? 'MET' : 'NOT MET'}`,
    );
  } finally {
    await lib.close();
    await rm(dir, { recursive: true, force: true });
  }
}

void main();
