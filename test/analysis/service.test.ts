import { resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUMMARY_LIMIT } from '@shared/analysis/analysis-contract';
import { calls } from '@shared/ipc/contract';
import { createAnalysisHandlers } from '../../src/main/handlers/analysis-handlers';
import { openFixture, save, simRecords, type Fixture } from './fixtures';

let fx: Fixture;
let id: string;
let service: ReturnType<typeof createAnalysisHandlers>;

beforeAll(async () => {
  fx = await openFixture();
  id = await save(fx.library, simRecords(500, 3), 'five hundred');
  service = createAnalysisHandlers({
    library: async () => fx.library,
    resourcesDir: resolve(import.meta.dirname, '../../resources'),
  });
});
afterAll(async () => {
  await fx.cleanup();
});

describe('analysis bridge calls', () => {
  it('lists shipment datasets only', async () => {
    await fx.library.saveRecords({ kind: 'firms', request: { page: 1 } }, [{ name: 'A', firm_type: 1 }]);
    const list = await service['analysis.datasets'](undefined, {});
    expect(list.map((d) => d.name)).toEqual(['five hundred']);
    expect(list[0]).toMatchObject({ id, storedRows: 500 });
  });

  it('applies the schema defaults and refuses bad input', async () => {
    const input = calls['analysis.summary'].input.parse({ datasetId: id, kind: 'exporters' });
    expect(input).toMatchObject({ measure: 'shipments', limit: 25 });
    const r = await service['analysis.summary'](input, {});
    expect(r.rows.length).toBeLessThanOrEqual(25);
    expect(r.totals.shipments).toBe(500);
    expect(calls['analysis.summary'].input.safeParse({ datasetId: id, kind: 'bogus' }).success).toBe(false);
    expect(calls['analysis.summary'].input.safeParse({ datasetId: id, kind: 'hs', limit: 0 }).success).toBe(
      false,
    );
    expect(
      calls['analysis.diff'].input.safeParse({ baseId: id, compareId: id, role: 'broker' }).success,
    ).toBe(false);
    // An export asks for every group of a summary, far beyond the page's top rows.
    const all = { datasetId: id, kind: 'importers', limit: MAX_SUMMARY_LIMIT };
    expect(calls['analysis.summary'].input.safeParse(all).success).toBe(true);
    expect(MAX_SUMMARY_LIMIT).toBeGreaterThanOrEqual(20_000);
    expect(calls['analysis.summary'].input.safeParse({ ...all, limit: MAX_SUMMARY_LIMIT + 1 }).success).toBe(
      false,
    );
  });

  it('exports a summary table as an xlsx that reads back with typed cells', async () => {
    const input = calls['analysis.exportXlsx'].input.parse({
      title: 'Top importers: by FOB/CIF',
      columns: [
        { header: 'Importer', type: 'text' },
        { header: 'Shipments', type: 'integer' },
        { header: 'USD FOB', type: 'decimal' },
        { header: 'Share', type: 'percent' },
      ],
      rows: [
        ['=HYPERLINK("x")', 12, 1234.5, 0.25],
        ['Beta', 3, null, 0.75],
      ],
    });
    const out = await service['analysis.exportXlsx'](input, {});
    expect(out.fileName).toBe('Top importers by FOB CIF.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(out.base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Top importers  by FOB CIF');
    expect(ws.getRow(1).values).toEqual([undefined, 'Importer', 'Shipments', 'USD FOB', 'Share']);
    // Text stays text (no formula injection); numbers are numbers; unknown is an empty cell, not 0.
    expect(ws.getCell('A2').value).toBe('=HYPERLINK("x")');
    expect(ws.getCell('B2').value).toBe(12);
    expect(ws.getCell('C2').value).toBe(1234.5);
    expect(ws.getCell('C3').value).toBeNull();
    expect(ws.getCell('D3').numFmt).toBe('0.00%');
  });

  it('names the file by table and dataset, and writes a note below the rows that sorting leaves out', async () => {
    const base = {
      title: 'Top importers',
      columns: [
        { header: 'Importer', type: 'text' },
        { header: 'Shipments', type: 'integer' },
      ],
      rows: [
        ['Alpha', 3],
        ['Beta', 2],
      ],
    };
    const a = await service['analysis.exportXlsx'](
      calls['analysis.exportXlsx'].input.parse({ ...base, datasetName: 'Spain: 2024/Q1' }),
      {},
    );
    const b = await service['analysis.exportXlsx'](
      calls['analysis.exportXlsx'].input.parse({ ...base, datasetName: 'Spain 2024 Q2' }),
      {},
    );
    expect(a.fileName).toBe('Top importers - Spain 2024 Q1.xlsx');
    expect(b.fileName).toBe('Top importers - Spain 2024 Q2.xlsx');
    const long = await service['analysis.exportXlsx'](
      calls['analysis.exportXlsx'].input.parse({ ...base, datasetName: 'x'.repeat(200) }),
      {},
    );
    expect(long.fileName).toBe(`Top importers - ${'x'.repeat(80)}.xlsx`);

    const note = 'Top 2 of 9 groups by Shipments; the other 7 are not in this file.';
    const out = await service['analysis.exportXlsx'](
      calls['analysis.exportXlsx'].input.parse({ ...base, datasetName: 'Spain', note }),
      {},
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(out.base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(wb.subject).toBe('Spain');
    expect(ws.getCell('A3').value).toBe('Beta');
    expect(ws.getRow(4).hasValues).toBe(false);
    expect(ws.getCell('A5').value).toBe(note);
  });
});
