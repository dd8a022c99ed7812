import { resolve } from 'node:path';
import ExcelJS from 'exceljs';
import type { BridgeResult } from '@shared/ipc/errors';
import { createAnalysisHandlers } from '../../src/main/handlers/analysis-handlers';
import { openFixture, save, simRecords, withGaps, type Rec } from './fixtures';
import { dispatchOver } from '../helpers/page-dispatch';

export interface PageBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  ids: { before: string; after: string; empty: string; single: string };
  before: Rec[];
  after: Rec[];
  /** The one shipment of the "Single" dataset; its importer has a 300-character name. */
  single: Rec;
  /** The first sheet of an exported .xlsx (Base64): its cells row by row, and the workbook's subject. */
  readXlsx(base64: string): Promise<{ rows: unknown[][]; subject: string }>;
  close(): Promise<void>;
}

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
