/**
 * The app's own exports, written for the import benchmarks. Kept apart from the browser set-up: the
 * import benchmark measures its cases in processes that load this module, and Playwright would add to
 * their memory.
 */
import { join } from 'node:path';
import { createMemorySource, exportCsv, exportXlsx, shipmentColumns } from '../src/main/export';
import { generateAccount, startSimulator } from '../src/main/sim';
import type { ShipmentRecord } from '../src/shared/spec';

/** The query a Portolan export's Query sheet records, for files written by the benchmarks. */
export function benchQuery(totalReported: number) {
  return {
    profile: 'bench',
    account: 'bench',
    filter: { hs_codes: ['7208'] },
    fetchedAt: new Date(0).toISOString(),
    totalReported,
    appVersion: 'bench',
  };
}

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
      query: benchQuery(rows.length),
    });
  const files = { csv: join(dir, 'shipments.csv'), xlsx: join(dir, 'shipments.xlsx') };
  await exportXlsx(source(), files.xlsx);
  await exportCsv(source(), files.csv);
  return { ...files, rows };
}
