import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile, previewImport } from '../../src/main/library/import';
import { useLibrary } from '../helpers/library';

/**
 * The import worker started from its TypeScript sources, as under `vitest --watch` and a browser host
 * run by tsx: no built worker next to the code, none named by the test run. The worker loads each
 * reader with import() when a file needs it, and that import must find the reader's source too.
 */
const NAMED = 'PORTOLAN_TEST_IMPORT_WORKER';
let named: string | undefined;
beforeAll(() => {
  named = process.env[NAMED];
  delete process.env[NAMED];
});
afterAll(() => {
  if (named !== undefined) process.env[NAMED] = named;
});

const temp = useLibrary('portolan-lib-test-', { folder: 'data' });

const CSV = 'Importer,Exporter,HS code\nAcme Steel,Ore Co,720810\nBeta Metals,Iron Ltd,720827\n';

describe('the import worker from its sources', () => {
  it('imports a CSV (read by DuckDB through the worker’s csv-native reader)', async () => {
    const path = join(temp.dir, 'shipments.csv');
    await writeFile(path, CSV);
    const r = await importFile(temp.lib, path);
    expect(r.rows).toBe(2);
  }, 30_000);

  it('imports a workbook (staged by the worker’s row reader)', async () => {
    const path = join(temp.dir, 'shipments.xlsx');
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Shipments');
    for (const line of CSV.trim().split('\n')) sheet.addRow(line.split(','));
    await wb.xlsx.writeFile(path);
    const r = await importFile(temp.lib, path);
    expect(r.rows).toBe(2);
  }, 30_000);

  it('previews a web page (read by the worker’s HTML reader)', async () => {
    const path = join(temp.dir, 'shipments.html');
    const rows = CSV.trim()
      .split('\n')
      .map(
        (l) =>
          `<tr>${l
            .split(',')
            .map((c) => `<td>${c}</td>`)
            .join('')}</tr>`,
      )
      .join('');
    await writeFile(path, `<html><body><table>${rows}</table></body></html>`);
    const p = await previewImport(path);
    expect(p.headers).toEqual(['Importer', 'Exporter', 'HS code']);
  }, 30_000);
});
