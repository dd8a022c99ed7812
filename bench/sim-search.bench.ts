/**
 * Shipment search over HTTP against the simulator with 1,000,000 records (size = 10,000),
 * end to end: signed request, filter scan, record serialisation, transfer, client read.
 * Target: <= 300 ms per request on the development machine.
 * Baseline, measured in the same run: JSON.stringify of the same 10,000 records as plain objects
 * (what any serialising server would at least pay), so the ratio says how much the rest costs.
 *   npm run bench -- sim-search [--records N] [--runs N]
 */
import { createHmac } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulator } from '../src/main/sim';

const { values } = parseArgs({
  options: { records: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '7' } },
  strict: false,
});
const records = Number(values.records);
const runs = Number(values.runs);
const account = { name: 'bench', apiKey: 'bench-key', apiSecret: 'bench-secret' };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const max = (xs: number[]): number => Math.max(...xs);
const ms = (x: number): string => `${x.toFixed(1)} ms`;

async function main(): Promise<void> {
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const sim = await startSimulator({
    records,
    seed: 7,
    accounts: [account],
    hsCodesCsvPath: resolve(import.meta.dirname, '../resources/data/hs-codes.csv'),
  });
  const genMs = performance.now() - t0;
  global.gc?.();
  const rss1 = process.memoryUsage().rss;
  console.log(
    `records: ${records}, generated and indexed in ${ms(genMs)}, RSS +${((rss1 - rss0) / 1e6).toFixed(0)} MB (total ${(rss1 / 1e6).toFixed(0)} MB)`,
  );

  const search = async (
    filter: object,
  ): Promise<{ ms: number; total: number; shipments: object[]; bytes: number }> => {
    const body = JSON.stringify({ ...filter, size: 10000 });
    const sig = createHmac('sha256', account.apiSecret).update(body).digest('base64');
    const t = performance.now();
    const res = await fetch(new URL('api/v1/shipment/search', sim.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-KEY': account.apiKey, 'X-SIGNATURE': sig },
      body,
    });
    const buf = await res.arrayBuffer();
    const elapsed = performance.now() - t;
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    const parsed = JSON.parse(Buffer.from(buf).toString('utf8')) as { total: number; shipments: object[] };
    return { ms: elapsed, total: parsed.total, shipments: parsed.shipments, bytes: buf.byteLength };
  };

  const filters: [string, object][] = [
    ['no filter', {}],
    ['importer US', { importer_countries: ['US'] }],
    ['HS 84, 85', { hs_codes: ['84', '85'] }],
    ['product "cotton"', { product_detail: 'cotton' }],
    ['2024, exporter CN', { start_date: '2024-01-01', end_date: '2024-12-31', exporter_countries: ['CN'] }],
    ['rare: HS 0101 in DE', { hs_codes: ['0101'], importer_countries: ['DE'] }],
  ];
  const allSim: number[] = [];
  const allBase: number[] = [];
  console.log(
    'filter                    | total    | returned | MB    | sim median | sim max  | baseline median | ratio',
  );
  for (const [name, filter] of filters) {
    const first = await search(filter); // warm-up, and the records for the baseline
    const simTimes: number[] = [];
    const baseTimes: number[] = [];
    for (let r = 0; r < runs; r++) {
      simTimes.push((await search(filter)).ms);
      const t = performance.now();
      Buffer.from(JSON.stringify({ total: first.total, shipments: first.shipments }), 'utf8');
      baseTimes.push(performance.now() - t);
    }
    allSim.push(...simTimes);
    allBase.push(...baseTimes);
    console.log(
      `${name.padEnd(25)} | ${String(first.total).padEnd(8)} | ${String(first.shipments.length).padEnd(8)} | ${(first.bytes / 1e6).toFixed(1).padEnd(5)} | ${ms(median(simTimes)).padEnd(10)} | ${ms(max(simTimes)).padEnd(8)} | ${ms(median(baseTimes)).padEnd(15)} | ${(median(simTimes) / median(baseTimes)).toFixed(2)}`,
    );
  }
  const m = median(allSim);
  console.log(
    `overall: sim median ${ms(m)}, max ${ms(max(allSim))}; baseline (JSON.stringify only) median ${ms(median(allBase))}; ratio ${(m / median(allBase)).toFixed(2)}`,
  );
  console.log(
    `target <= 300 ms per size=10000 search: ${max(allSim) <= 300 ? 'met by every run' : m <= 300 ? 'met by the median, not by every run' : 'NOT met'}`,
  );
  await sim.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
