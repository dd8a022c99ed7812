import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  exportParquet,
  libraryExportSource,
  type ExportProgress,
  type ExportSource,
} from '../../src/main/export';
import type { ExportView } from '@shared/export/export-contract';
import { makeShipments } from '../helpers/export-records';
import { useLibrary } from '../helpers/library';
import { useTempDir } from '../helpers/temp-dir';
import { readParquetCells } from './readers/parquet-cells';

const t = useTempDir('portolan-parquet-pages-');
const l = useLibrary('portolan-parquet-pages-lib-');

/** More rows than three of the export's pages (16,384 rows each), so pages' seams are crossed. */
const ROWS = 40_000;
const COLUMNS = ['productDetails', 'importerName', 'usdFob', 'arrivalDate', 'createdAt'];

/**
 * The ROWS shipments every test stores, made once for the file: making them takes longer than storing
 * them. Frozen, so a test that changed them would fail rather than hand the next test other rows.
 */
let records: readonly Readonly<Record<string, string>>[] = [];
beforeAll(() => {
  records = makeShipments(ROWS, 7).map((r, i) => Object.freeze({ ...r, productDetails: `row ${i}` }));
});

/**
 * A dataset of ROWS distinct shipments, `productDetails` naming each row's number, written in the
 * library in blocks of `firstRowNos` (in that order): the rows lie in the table in the order written.
 */
async function dataset(firstRowNos: readonly number[], block: number): Promise<string> {
  const id = await l.lib.write((tx) =>
    tx.createDataset({ kind: 'shipments', request: { hs_codes: ['8471'] }, name: 'pages' }),
  );
  for (const at of firstRowNos) {
    await l.lib.write((tx) => tx.appendRecords('shipments', id, at, records.slice(at, at + block)));
  }
  await l.lib.write((tx) => tx.finishDataset(id, { status: 'complete', storedRows: ROWS }));
  return id;
}

/** The view's rows written by the library's paged COPY and read into JavaScript by the other writer. */
async function bothWays(id: string, view: ExportView) {
  const { source } = await libraryExportSource(l.lib, id, view, '9.9.9');
  expect(source.copyParquet).toBeDefined();
  const progress: ExportProgress[] = [];
  const inPlace = join(t.dir, 'in-place.parquet');
  const written = await exportParquet(source, inPlace, {
    overwrite: true,
    onProgress: (p) => progress.push(p),
  });
  const rowsRead: ExportSource = { ...source };
  delete rowsRead.copyParquet;
  const appended = join(t.dir, 'appended.parquet');
  await exportParquet(rowsRead, appended, { overwrite: true });
  return {
    written,
    progress,
    paged: await readParquetCells(inPlace),
    read: await readParquetCells(appended),
  };
}

describe('Parquet export of a library dataset, page by page', () => {
  it('writes every row of a dataset larger than a page once, in stored order, with progress on the way', async () => {
    const id = await dataset([0, 10_000, 20_000, 30_000], 10_000);
    const { written, progress, paged, read } = await bothWays(id, { columns: COLUMNS });
    expect(written.rowsWritten).toBe(ROWS);
    expect(paged.rows.map((r) => r['productDetails'])).toEqual(
      Array.from({ length: ROWS }, (_, i) => `row ${i}`),
    );
    expect(paged.columns).toEqual(read.columns);
    expect(paged.rows).toEqual(read.rows);
    const meta = JSON.parse(paged.metadata['portolan'] ?? '{}') as { query?: [string, string][] };
    expect(meta.query?.find(([k]) => k === 'rows_exported')?.[1]).toBe(String(ROWS));
    // Progress rises through the pages (not one jump at the end) and ends with the finishing step.
    const rows = progress.filter((p) => p.phase === 'rows').map((p) => p.rowsWritten);
    expect(rows.some((n) => n > 0 && n < ROWS)).toBe(true);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ phase: 'finishing', rowsWritten: ROWS });
  }, 120_000);

  it('keeps row-number order where the rows were stored in another order', async () => {
    // Written back to front: the table's order is not the rows' order.
    const id = await dataset([30_000, 20_000, 10_000, 0], 10_000);
    const { paged, read } = await bothWays(id, { columns: COLUMNS });
    expect(paged.rows.map((r) => r['productDetails'])).toEqual(
      Array.from({ length: ROWS }, (_, i) => `row ${i}`),
    );
    expect(paged.rows).toEqual(read.rows);
  }, 120_000);

  it('writes a sorted view in the grid’s order across pages, filters applied', async () => {
    const id = await dataset([0], ROWS);
    const sorted = { columns: COLUMNS, sortModel: [{ colId: 'importerName', sort: 'desc' as const }] };
    const one = await bothWays(id, sorted);
    expect(one.written.rowsWritten).toBe(ROWS);
    expect(one.paged.rows).toEqual(one.read.rows);
    const grid: unknown[] = [];
    for (let at = 0; at < ROWS; at += 5_000) {
      const block = await l.lib.getRows(id, { startRow: at, endRow: at + 5_000, ...sorted });
      grid.push(...block.rows.map((r) => r['productDetails']));
    }
    expect(one.paged.rows.map((r) => r['productDetails'])).toEqual(grid);

    const filtered = {
      ...sorted,
      filterModel: {
        productDetails: { filterType: 'text' as const, type: 'contains' as const, filter: '1' },
      },
    };
    const two = await bothWays(id, filtered);
    // Still more rows than a page.
    expect(two.written.rowsWritten).toBeGreaterThan(16_384);
    expect(two.written.rowsWritten).toBeLessThan(ROWS);
    expect(two.paged.rows).toEqual(two.read.rows);
  }, 180_000);

  it('leaves neither the file nor its part files when cancelled between pages', async () => {
    const id = await dataset([0], ROWS);
    const { source } = await libraryExportSource(l.lib, id, { columns: COLUMNS }, '9.9.9');
    const scratchDir = join(t.dir, 'scratch');
    const target = join(t.dir, 'out');
    await mkdir(target);
    const controller = new AbortController();
    let abortedAt = 0;
    await expect(
      exportParquet(source, join(target, 'cancelled.parquet'), {
        signal: controller.signal,
        scratchDir,
        onProgress: (p) => {
          // Past the shapes' pass: at least one page has been written to its part file.
          if (!controller.signal.aborted && p.phase === 'rows' && p.rowsWritten > ROWS * 0.3) {
            abortedAt = p.rowsWritten;
            controller.abort();
          }
        },
      }),
    ).rejects.toMatchObject({ kind: 'Cancelled' });
    expect(abortedAt).toBeGreaterThan(0);
    expect(abortedAt).toBeLessThan(ROWS);
    expect(await readdir(target)).toEqual([]);
    expect(await readdir(scratchDir)).toEqual([]);
  }, 120_000);
});
