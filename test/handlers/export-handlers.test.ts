import { fieldTitleOf } from '@shared/fields';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobFinished, JobProgress } from '@shared/jobs/jobs-contract';
import { FILE_HANDLE_PATTERN } from '@shared/files/file-handle';
import { Library, importFile, type DatasetMeta } from '../../src/main/library';
import type { FileHandles } from '../../src/main/file-handles';
import { shipmentFieldType } from '../../src/main/export';
import { shipment, tempDir } from '../library/helpers';
import { canFreezeLibrary, freezeLibrary, thawLibrary } from '../helpers/frozen-library';
import { exportJobsOver } from './export-jobs';

const REQUEST = {
  importer_countries: ['TR'],
  hs_codes: ['7208'],
  start_date: '2024-01-01',
  end_date: '2024-09-30',
  size: 500,
};

let t: Awaited<ReturnType<typeof tempDir>>;
let library: Library;
let dataset: DatasetMeta;
let jobs: ReturnType<typeof exportJobsOver>;
let service: ReturnType<typeof jobs.handlers>;
let progress: JobProgress[];
let finished: JobFinished[];
let files: FileHandles;

/** A target as main's save dialog hands it on: a handle for a path the window never sees. */
function at(path: string, format: 'xlsx' | 'csv' | 'parquet'): string {
  return files.issue({ purpose: 'export-target', path, format, owned: false });
}

const waitFinished = (jobId: string): Promise<JobFinished> => jobs.ended(jobId);

async function readWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

/** A cell back as the text the dataset holds: numbers and dates were typed by the exporter. */
function cellText(cell: ExcelJS.Cell, field: string): string {
  const v = cell.value;
  if (v === null || v === undefined) return '';
  if (v instanceof Date) {
    return shipmentFieldType(field) === 'epoch' ? String(v.getTime() / 1000) : v.toISOString().slice(0, 10);
  }
  return String(v);
}

function queryMap(wb: ExcelJS.Workbook): Map<string, unknown> {
  const map = new Map<string, unknown>();
  wb.getWorksheet('Query')?.eachRow((row, n) => {
    if (n > 1) map.set(String(row.getCell(1).value), row.getCell(2).value);
  });
  return map;
}

beforeEach(async () => {
  t = await tempDir();
  library = await Library.open(join(t.dir, 'data'));
  const rows = Array.from({ length: 500 }, (_, i) =>
    shipment(i, {
      usdFob: String((i * 13) % 997),
      importerCountry: i % 3 === 0 ? 'Türkiye' : 'Çin',
      quantity: '-',
    }),
  );
  dataset = await library.saveShipmentSearch(
    REQUEST,
    { total: 1234, shipments: rows },
    { profileName: 'Türkiye desk', account: 'acme-analytics' },
  );
  jobs = exportJobsOver(library, join(t.dir, 'data'), '9.8.7-test');
  ({ progress, finished, files } = jobs);
  service = jobs.handlers();
  await mkdir(join(t.dir, 'out'));
});

afterEach(async () => {
  await service.disposeExports();
  await library.close();
  await t.cleanup();
});

describe('export.start', () => {
  it('writes the whole dataset to Excel, value by value, with a Query sheet from the dataset record', async () => {
    const path = join(t.dir, 'out', 'all.xlsx');
    const { jobId, path: written } = await service['export.start'](
      { source: { datasetId: dataset.id }, format: 'xlsx', target: at(path, 'xlsx') },
      {},
    );
    expect(written).toBe(path);
    const done = await waitFinished(jobId);
    expect(done.outcome, done.message).toBe('succeeded');
    expect(progress.some((p) => p.jobId === jobId && p.unit === 'rows' && p.total === 500)).toBe(true);

    const wb = await readWorkbook(path);
    const ws = wb.getWorksheet('Shipments') as ExcelJS.Worksheet;
    const fields = Library.columns('shipments');
    // Headers in the grid's words; the field names ride on the Query sheet.
    expect(ws.getRow(1).values).toEqual([undefined, ...fields.map((f) => fieldTitleOf('shipments', f))]);
    expect(ws.rowCount).toBe(501);
    let r = 2;
    let compared = 0;
    for await (const batch of library.streamFieldRows(dataset.id, fields)) {
      for (const values of batch) {
        const row = ws.getRow(r);
        fields.forEach((f, c) => {
          const want = values[c] === null || values[c] === undefined ? '' : String(values[c]);
          expect(cellText(row.getCell(c + 1), f), `${f} row ${r}`).toBe(want);
          compared += 1;
        });
        r += 1;
      }
    }
    expect(compared).toBe(500 * fields.length);

    const q = queryMap(wb);
    expect(q.get('profile')).toBe('Türkiye desk');
    expect(q.get('account')).toBe('acme-analytics');
    expect(JSON.parse(String(q.get('filter')))).toEqual(REQUEST);
    expect(q.get('hs_codes')).toBe('7208');
    expect(q.get('fetched_at')).toBe(dataset.fetchedAt);
    expect(q.get('total_reported')).toBe(1234);
    expect(q.get('rows_exported')).toBe(500);
    expect(q.get('app_version')).toBe('9.8.7-test');
  });

  it('exports the grid view: visible columns in order, the filter and the sort, and says so in the Query sheet', async () => {
    const view = {
      columns: ['usdFob', 'importerName', 'hashId'],
      sortModel: [{ colId: 'usdFob', sort: 'desc' as const }],
      filterModel: {
        importerCountry: { filterType: 'text' as const, type: 'equals' as const, filter: 'Türkiye' },
      },
    };
    const path = join(t.dir, 'out', 'view.xlsx');
    const { jobId } = await service['export.start'](
      { source: { datasetId: dataset.id, view }, format: 'xlsx', target: at(path, 'xlsx'), summaries: true },
      {},
    );
    expect((await waitFinished(jobId)).outcome).toBe('succeeded');
    const expected = await library.getRows(dataset.id, { ...view, startRow: 0, endRow: 5000 });
    expect(expected.lastRow).toBe(167);

    const wb = await readWorkbook(path);
    const ws = wb.getWorksheet('Shipments') as ExcelJS.Worksheet;
    expect(ws.getRow(1).values).toEqual([undefined, 'USD FOB', 'Importer Name', 'Hash ID']);
    expect(ws.rowCount).toBe(1 + 167);
    expected.rows.forEach((rec, i) => {
      const row = ws.getRow(i + 2);
      expect(row.getCell(1).value).toBe(Number(rec.usdFob));
      expect(row.getCell(2).value).toBe(rec.importerName);
      expect(row.getCell(3).value).toBe(rec.hashId);
    });
    const q = queryMap(wb);
    expect(q.get('rows_exported')).toBe(167);
    expect(q.get('view_columns')).toBe('usdFob, importerName, hashId');
    expect(q.get('view_sort')).toBe('usdFob desc');
    expect(JSON.parse(String(q.get('view_filter')))).toEqual(view.filterModel);
    // The summary sheets count exactly the exported rows.
    let monthTotal = 0;
    wb.getWorksheet('By month')?.eachRow((row, n) => {
      if (n > 1) monthTotal += Number(row.getCell(2).value);
    });
    expect(monthTotal).toBe(167);
    expect(wb.getWorksheet('Top importers')).toBeDefined();
  });

  it('answers Conflict for an existing file unless overwrite is set, and never touches it before', async () => {
    const path = join(t.dir, 'out', 'taken.csv');
    await writeFile(path, 'precious');
    await expect(
      service['export.start'](
        { source: { datasetId: dataset.id }, format: 'csv', target: at(path, 'csv') },
        {},
      ),
    ).rejects.toMatchObject({ kind: 'Conflict' });
    expect(finished).toEqual([]);
    const { jobId } = await service['export.start'](
      { source: { datasetId: dataset.id }, format: 'csv', target: at(path, 'csv'), overwrite: true },
      {},
    );
    expect((await waitFinished(jobId)).outcome).toBe('succeeded');
    expect(await readdir(join(t.dir, 'out'))).toEqual(['taken.csv']);
  });

  it.runIf(canFreezeLibrary)(
    'a folder it may not write to is said in words, with what to do, and leaves nothing',
    async () => {
      const out = join(t.dir, 'out');
      // The desktop app: the same handlers with a save dialog, which can choose another folder.
      const desktop = jobs.handlers({ chooseSavePath: async () => null });
      const refused =
        'Portolan may not write to that folder (it is read-only, or its permissions deny it), or the file is open in another program. No file was written.';
      freezeLibrary(out);
      try {
        for (const format of ['csv', 'xlsx', 'parquet'] as const) {
          const target = at(join(out, `steel.${format}`), format);
          const mine = await desktop['export.start'](
            { source: { datasetId: dataset.id }, format, target },
            {},
          );
          const done = await waitFinished(mine.jobId);
          expect(done.outcome, format).toBe('failed');
          // The window offers another folder besides Try again.
          expect(done.kind === 'export' && done.anotherFolder, format).toBe(true);
          expect(done.message, format).toBe(`${refused} Choose another folder, then export again.`);

          // Without a save dialog (the browser host) there is no other folder: none is offered or named.
          const theirs = await service['export.start'](
            { source: { datasetId: dataset.id }, format, target },
            {},
          );
          const there = await waitFinished(theirs.jobId);
          expect(there.outcome, format).toBe('failed');
          expect(there.kind === 'export' && there.anotherFolder, format).toBeFalsy();
          expect(there.message, format).toBe(
            `${refused} Once Portolan's exports folder can be written again, choose Try again.`,
          );
          // The system's text as the detail, naming the file only, as that host's messages do.
          expect(done.kind === 'export' && done.detail, format).toContain(out);
          expect(there.kind === 'export' && there.detail, format).toMatch(
            new RegExp(`\\.steel\\.${format}\\.[0-9a-f]{12}\\.partial`),
          );
          expect(there.kind === 'export' && there.detail, format).not.toContain(out);
        }
      } finally {
        thawLibrary(out);
        await desktop.disposeExports();
      }
      expect(await readdir(out)).toEqual([]);
    },
  );

  it('leaves no file and no temp file when cancelled', async () => {
    const path = join(t.dir, 'out', 'cancelled.xlsx');
    const { jobId } = await service['export.start'](
      { source: { datasetId: dataset.id }, format: 'xlsx', target: at(path, 'xlsx') },
      {},
    );
    await service['export.cancel']({ jobId }, {});
    const done = await waitFinished(jobId);
    expect(done.outcome).toBe('cancelled');
    expect(done.kind === 'export' && done.anotherFolder).toBeFalsy();
    expect(await readdir(join(t.dir, 'out'))).toEqual([]);
  });

  it('a Parquet export of a library dataset is written by DuckDB in place: progress, then cancel leaves nothing', async () => {
    const many = Array.from({ length: 60_000 }, (_, i) => shipment(i, { usdFob: `${i}.25` }));
    const big = await library.saveShipmentSearch(REQUEST, { total: many.length, shipments: many });
    const done = join(t.dir, 'out', 'done.parquet');
    const first = await service['export.start'](
      { source: { datasetId: big.id }, format: 'parquet', target: at(done, 'parquet') },
      {},
    );
    expect((await waitFinished(first.jobId)).outcome).toBe('succeeded');
    const seen = progress.filter((p) => p.jobId === first.jobId);
    expect(seen.at(-1)).toMatchObject({ done: 60_000, total: 60_000 });
    expect(seen.map((p) => p.done)).toEqual([...seen.map((p) => p.done)].sort((a, b) => a - b));

    const path = join(t.dir, 'out', 'cancelled.parquet');
    const { jobId } = await service['export.start'](
      { source: { datasetId: big.id }, format: 'parquet', target: at(path, 'parquet') },
      {},
    );
    await service['export.cancel']({ jobId }, {});
    expect((await waitFinished(jobId)).outcome).toBe('cancelled');
    expect(await readdir(join(t.dir, 'out'))).toEqual(['done.parquet']);
  }, 60_000);

  it('refuses an unknown dataset and an unknown column', async () => {
    const path = join(t.dir, 'out', 'x.csv');
    await expect(
      service['export.start']({ source: { datasetId: 'nope' }, format: 'csv', target: at(path, 'csv') }, {}),
    ).rejects.toMatchObject({ kind: 'NotFound' });
    await expect(
      service['export.start'](
        {
          source: { datasetId: dataset.id, view: { columns: ['name'] } },
          format: 'csv',
          target: at(path, 'csv'),
        },
        {},
      ),
    ).rejects.toMatchObject({ kind: 'InvalidInput' });
  });

  it('writes to <dataDir>/exports when no path is given (the browser host)', async () => {
    const target = await service['export.chooseTarget'](
      { suggestedName: 'Steel: TR/2024', format: 'parquet' },
      {},
    );
    expect(target?.location).toBe(join(t.dir, 'data', 'exports', 'Steel TR 2024.parquet'));
    expect(target?.name).toBe('Steel TR 2024.parquet');
    const { jobId, path } = await service['export.start'](
      { source: { datasetId: dataset.id }, format: 'parquet' },
      {},
    );
    const done = await waitFinished(jobId);
    expect(done.outcome).toBe('succeeded');
    expect(path.startsWith(join(t.dir, 'data', 'exports'))).toBe(true);
    // The desktop app's analyst chose that path: the message names it.
    expect(done.message).toBe(`Exported 500 rows to ${path}`);
  });

  it('names the downloaded file, never the host path, when the file reaches the analyst as a download', async () => {
    const downloading = jobs.handlers({ downloads: true });
    const { jobId, path } = await downloading['export.start'](
      { source: { datasetId: dataset.id }, format: 'csv' },
      {},
    );
    const done = await waitFinished(jobId);
    expect(done.outcome, done.message).toBe('succeeded');
    expect(done.message).toBe(`Exported 500 rows; your browser downloaded the file as ${basename(path)}`);
    expect(done.message).not.toContain(join(t.dir, 'data'));
    await downloading.disposeExports();
  });
});

describe('export.chooseTarget with a save dialog', () => {
  it('opens the dialog in the folder of the last export, remembered in a settings file, and adds the extension', async () => {
    const asked: { defaultPath: string; format: string }[] = [];
    const answers = [join(t.dir, 'out', 'first'), null];
    const withDialog = jobs.handlers({
      chooseSavePath: async (o) => {
        asked.push(o);
        return answers.shift() ?? null;
      },
    });
    const chosen = await withDialog['export.chooseTarget']({ suggestedName: 'Steel TR', format: 'csv' }, {});
    expect(chosen).toEqual({
      handle: expect.stringMatching(FILE_HANDLE_PATTERN),
      name: 'first.csv',
      location: join(t.dir, 'out', 'first.csv'),
    });
    // The handle stands for the chosen path, and only for exports in the format it was chosen for.
    expect(files.resolve(chosen!.handle, 'export-target').path).toBe(join(t.dir, 'out', 'first.csv'));
    expect(() => files.resolve(chosen!.handle, 'import-source')).toThrow();
    expect(asked[0]).toEqual({ defaultPath: 'Steel TR.csv', format: 'csv' });
    const settings = JSON.parse(
      await readFile(join(t.dir, 'data', 'export-settings.json'), 'utf8'),
    ) as unknown;
    expect(settings).toEqual({ lastFolder: join(t.dir, 'out') });
    // Cancelling the dialog is not an error: no target.
    expect(
      await withDialog['export.chooseTarget']({ suggestedName: 'Steel TR', format: 'xlsx' }, {}),
    ).toBeNull();
    expect(asked[1]).toEqual({ defaultPath: join(t.dir, 'out', 'Steel TR.xlsx'), format: 'xlsx' });
  });
});

describe('Excel round trip', () => {
  it('imports its own export back with the filter restored and the same rows', async () => {
    const path = join(t.dir, 'out', 'roundtrip.xlsx');
    const { jobId } = await service['export.start'](
      { source: { datasetId: dataset.id }, format: 'xlsx', target: at(path, 'xlsx') },
      {},
    );
    expect((await waitFinished(jobId)).outcome).toBe('succeeded');
    const imported = await importFile(library, path);
    expect(imported.filterRestored).toBe(true);
    expect(imported.rows).toBe(500);
    expect(imported.dataset.request).toEqual(REQUEST);
    const a = await library.getRows(dataset.id, { startRow: 0, endRow: 500 });
    const b = await library.getRows(imported.dataset.id, { startRow: 0, endRow: 500 });
    expect(b.rows.map(({ _row, ...r }) => r)).toEqual(a.rows.map(({ _row, ...r }) => r));
  });
});
