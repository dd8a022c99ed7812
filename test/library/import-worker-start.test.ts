import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ImportPreviewView } from '@shared/library/import-contract';
import { createLogger, createMemorySink } from '../../src/main/log';
import { useImportHandlers } from './import-handlers';

/**
 * What the import worker loads to answer a preview, as the app's handler logs it: the worker starts
 * for every preview, and a reader's packages are loaded only for the files that need them (DuckDB
 * for Parquet, htmlparser2 for a web page), so a CSV's preview starts without either.
 */
const DUCKDB = ['@duckdb/node-api', '@duckdb/node-bindings'];
const HTML = ['htmlparser2'];
const ZOD = ['zod'];

/** DuckDB's packages among those loaded (its API, its bindings, the platform's native build). */
const duckDbIn = (packages: string[]) => packages.filter((p) => p.startsWith('@duckdb/'));

const sink = createMemorySink();
const main = useImportHandlers('portolan-import-worker-start-', {
  logger: createLogger({ sink, level: 'debug' }),
});

interface PreviewLogged {
  format: string;
  ms: number;
  packages: string[];
}

/** Previews the file through the handler and returns the view with what the handler logged of it. */
async function preview(path: string): Promise<{ view: ImportPreviewView; logged: PreviewLogged }> {
  const file = await main.handlers.droppedFiles.adoptImport(path);
  const before = sink.lines.length;
  const r = await main.call<ImportPreviewView>('library.previewImport', { file: file.handle });
  if (!r.ok) throw new Error(`preview: ${r.error.kind}: ${r.error.message}`);
  const logged = sink.lines
    .slice(before)
    .map((l) => JSON.parse(l) as { msg: string } & PreviewLogged)
    .filter((l) => l.msg === 'preview prepared');
  expect(logged).toHaveLength(1);
  return { view: r.value, logged: logged[0]! };
}

const HEADER = ['Arrival Date', 'Importer Name', 'HS Code', 'USD FOB'];
const ROWS = [
  ['2025-01-05', 'Acme Steel Ltd', '720810', '12500.50'],
  ['2025-01-06', 'Beta Metals', '030110', '980.00'],
];

describe('the import worker, started for a preview', () => {
  it('previews a CSV without loading DuckDB, htmlparser2 or zod', async () => {
    const path = join(main.dir, 'desk.csv');
    await writeFile(path, [HEADER, ...ROWS].map((r) => r.join(',')).join('\n'));
    const { view, logged } = await preview(path);
    expect(view.columns.map((c) => c.field)).toEqual(['arrivalDate', 'importerName', 'hsCode', 'usdFob']);
    expect(logged.format).toBe('csv');
    // Its own reader is what it loaded: the list is the worker's real one.
    expect(logged.packages).toContain('papaparse');
    expect(duckDbIn(logged.packages)).toEqual([]);
    for (const name of [...HTML, ...ZOD]) expect(logged.packages).not.toContain(name);
  });

  it('previews a workbook without loading DuckDB, htmlparser2 or zod', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Data');
    ws.addRow(HEADER);
    for (const r of ROWS) ws.addRow(r);
    const path = join(main.dir, 'desk.xlsx');
    await wb.xlsx.writeFile(path);
    const { view, logged } = await preview(path);
    expect(view.format).toBe('xlsx');
    expect(view.columns.map((c) => c.field)).toEqual(['arrivalDate', 'importerName', 'hsCode', 'usdFob']);
    expect(logged.packages).toContain('yauzl');
    expect(duckDbIn(logged.packages)).toEqual([]);
    for (const name of [...HTML, ...ZOD]) expect(logged.packages).not.toContain(name);
  });

  it('loads htmlparser2 for a web page, and still no DuckDB', async () => {
    const path = join(main.dir, 'portal.html');
    const cells = (r: string[], tag: string) => `<tr>${r.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
    await writeFile(
      path,
      `<html><body><table>${cells(HEADER, 'th')}${ROWS.map((r) => cells(r, 'td')).join('')}</table></body></html>`,
    );
    const { view, logged } = await preview(path);
    expect(view.format).toBe('html');
    expect(view.columns.map((c) => c.field)).toEqual(['arrivalDate', 'importerName', 'hsCode', 'usdFob']);
    expect(logged.packages).toEqual(expect.arrayContaining(HTML));
    expect(duckDbIn(logged.packages)).toEqual([]);
  });

  it('loads DuckDB, and zod for the file metadata, for a Parquet file', async () => {
    const path = join(main.dir, 'desk.parquet');
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      await conn.run(
        `COPY (SELECT DATE '2025-01-05' AS "Arrival Date", 'Acme Steel Ltd' AS "Importer Name") TO '${path.replace(/'/g, "''")}' (FORMAT parquet)`,
      );
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    const { view, logged } = await preview(path);
    expect(view.format).toBe('parquet');
    expect(view.columns.map((c) => c.field)).toEqual(['arrivalDate', 'importerName']);
    expect(logged.packages).toEqual(expect.arrayContaining([...DUCKDB, ...ZOD]));
    expect(logged.packages).not.toContain('htmlparser2');
  });
});
