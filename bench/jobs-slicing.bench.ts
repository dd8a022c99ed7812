/**
 * What a sliced fetch spends against the best possible, on the simulator over HTTP:
 * requests used vs the optimum ⌈total / 10,000⌉, downloads used vs the total, and time per 10,000
 * records, for a few result sizes. The optimum is a lower bound no slicing strategy can reach: a window
 * may only be fetched once its total is known to fit, and each request tells one total. The realistic
 * floor of the date sweep is `floor` = 2 × optimum: the whole range's probe, one probe per cut (the last
 * window's total is derived) and one fetch per window, every window exactly full. Misjudged density
 * (where data starts, trends) costs a probe here and there above it; an open range also pays a probe
 * to cut off the empty decades.
 *
 *   npm run bench -- jobs-slicing
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceClient } from '../src/main/api';
import { JobRunner } from '../src/main/jobs';
import { Library } from '../src/main/library';
import { generateAccount, startSimulator } from '../src/main/sim';

const RECORDS = 150_000;

async function main(): Promise<void> {
  const account = generateAccount('bench');
  const sim = await startSimulator({ port: 0, records: RECORDS, seed: 11, accounts: [account] });
  const client = createServiceClient({
    baseUrl: sim.url,
    credentials: { apiKey: account.apiKey, apiSecret: account.apiSecret },
  });
  const dir = await mkdtemp(join(tmpdir(), 'portolan-bench-jobs-'));
  const lib = await Library.open(dir);
  const cases = [
    { label: '3 months', filter: { start_date: '2024-01-01', end_date: '2024-03-31' } },
    { label: '1 year', filter: { start_date: '2023-01-01', end_date: '2023-12-31' } },
    {
      label: '2 years, 4 countries',
      filter: {
        start_date: '2022-01-01',
        end_date: '2023-12-31',
        importer_countries: ['TR', 'DE', 'CN', 'US'],
      },
    },
    { label: 'all 5 years', filter: { start_date: '2021-01-01', end_date: '2025-12-31' } },
    { label: 'open date range', filter: {} },
  ];
  console.log('case                      total    req  optimum  floor  ratio   downloads  extra   seconds');
  let sumReq = 0;
  let sumOpt = 0;
  let sumFloor = 0;
  try {
    for (const c of cases) {
      const t = performance.now();
      const out = await new JobRunner({ library: lib }).startShipments({ filter: c.filter }, client);
      const s = (performance.now() - t) / 1000;
      if (out.status !== 'succeeded') throw new Error(`${c.label}: ${out.message}`);
      const { total, requests, optimumRequests, downloads, stored } = out.stats;
      if (stored !== total) throw new Error(`${c.label}: stored ${stored} of ${total}`);
      sumReq += requests;
      sumOpt += optimumRequests!;
      const floor = total! <= 10 ? 1 : 2 * optimumRequests!;
      sumFloor += floor;
      console.log(
        `${c.label.padEnd(24)} ${String(total).padStart(7)} ${String(requests).padStart(6)} ${String(optimumRequests).padStart(8)} ${String(floor).padStart(6)} ${(requests / optimumRequests!).toFixed(2).padStart(6)}× ${String(downloads).padStart(10)} ${`+${(((downloads - total!) / total!) * 100).toFixed(2)}%`.padStart(7)} ${s.toFixed(1).padStart(8)}`,
      );
    }
    console.log(
      `all cases: ${sumReq} requests vs optimum ${sumOpt} (${(sumReq / sumOpt).toFixed(2)}×), vs the sweep's floor ${sumFloor} (${(sumReq / sumFloor).toFixed(2)}×)`,
    );
  } finally {
    await lib.close();
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}

void main();
