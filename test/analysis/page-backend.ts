import { resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { createAnalysisHandlers } from '../../src/main/handlers/analysis-handlers';
import { openFixture, save, simRecords, withGaps } from './fixtures';
import type { PageBackend } from './page-backend-contract';
import { dispatchOver } from '../helpers/page-dispatch';

export const LONG_NAME = `${'Very Long Trading And Logistics Company '.repeat(8)}Ltd`.slice(0, 300);

/**
 * The real analysis calls behind the real dispatcher (schema checks, error conversion), in process,
 * for the renderer's page test; only the other capabilities' channels are absent.
 */
export async function startPageBackend(): Promise<PageBackend> {
  const fx = await openFixture();
  const records = withGaps(simRecords(900, 9));
  const before = records.slice(0, 600);
  const after = records.slice(300);
  const beforeId = await save(fx.library, before, 'Before');
  const afterId = await save(fx.library, after, 'After');
  const emptyId = await save(fx.library, [], 'Empty');
  const single = { ...records[1]!, importerName: LONG_NAME };
  const singleId = await save(fx.library, [single], 'Single');
  const slice = createAnalysisHandlers({
    library: async () => fx.library,
    resourcesDir: resolve(import.meta.dirname, '../../resources'),
  });
  return {
    invoke: dispatchOver(slice, 'page-test'),
    ids: { before: beforeId, after: afterId, empty: emptyId, single: singleId },
    before,
    after,
    single,
    async readXlsx(base64) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      const rows: unknown[][] = [];
      ws.eachRow({ includeEmpty: true }, (row) => {
        rows.push((row.values as unknown[]).slice(1));
      });
      return { rows, subject: wb.subject };
    },
    close: fx.cleanup,
  };
}
