import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createMemorySource, exportCsv, exportXlsx, shipmentColumns } from '../src/main/export';
import { generateAccount, startSimulator } from '../src/main/sim';
import type { ShipmentRecord } from '../src/shared/spec';

/** The query a Portolan export's Query sheet records, for files written by the benchmarks. */
export const BENCH_QUERY = {
  profile: 'bench',
  account: 'bench',
  filter: { hs_codes: ['7208'] },
  fetchedAt: new Date(0).toISOString(),
  appVersion: 'bench',
};

/**
 * The app's own CSV and Excel exports of `records` simulator shipments (seed 5), written in `dir` as
 * the export handler writes them; `rows` are the records, for a benchmark that writes more from them.
 */
export async function writeOwnExports(
  dir: string,
  records: number,
): Promise<{ csv: string; xlsx: string; rows: ShipmentRecord[] }> {
  const sim = await startSimulator({ port: 0, records, seed: 5, accounts: [generateAccount('b')] });
  const rows = [...sim.dataset.records()];
  await sim.close();
  const source = () =>
    createMemorySource({
      kind: 'shipments',
      columns: shipmentColumns(),
      rows,
      query: { ...BENCH_QUERY, totalReported: rows.length },
    });
  const files = { csv: join(dir, 'shipments.csv'), xlsx: join(dir, 'shipments.xlsx') };
  await exportXlsx(source(), files.xlsx);
  await exportCsv(source(), files.csv);
  return { ...files, rows };
}

/**
 * Debian's Chromium, headless, in a profile of its own, as the browser-host benchmarks drive it
 * (launched here rather than through test/e2e/support/browser, which depends on the test runner).
 */
export async function launchBenchBrowser(viewport: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profileDir = await mkdtemp(join(tmpdir(), 'portolan-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}
