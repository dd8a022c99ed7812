import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIRM_FIELDS, SHIPMENT_FIELDS } from '@shared/spec/records';
import { AppError } from '@shared/ipc/errors';
import { Library } from '../../src/main/library';
import { writeFile } from 'node:fs/promises';
import { importFile } from '../../src/main/library/import';
import { libraryExportSource } from '../../src/main/export/library-source';
import type { ExportSource } from '../../src/main/export/types';
import { useTempDir } from '../helpers/temp-dir';
import { firm, shipment } from '../library/helpers';

/**
 * The library dataset as an export source: without a view it is the whole dataset (every field of the
 * kind, every stored row, in stored order); with a view, the view. The Library's "Whole dataset"
 * choice relies on the first.
 */
const t = useTempDir('portolan-library-source-');
let library: Library;

beforeEach(async () => {
  library = await Library.open(join(t.dir, 'data'));
});
afterEach(async () => {
  await library.close();
});

async function allRows(source: ExportSource): Promise<(readonly unknown[])[]> {
  const out: (readonly unknown[])[] = [];
  for await (const batch of source.batches(new AbortController().signal)) out.push(...batch);
  return out;
}

describe('libraryExportSource', () => {
  it('without a view exports every shipment field of every stored row, and says no view in the Query sheet', async () => {
    const records = Array.from({ length: 250 }, (_, i) =>
      shipment(i, { usdFob: String(i), regime: `R${i}` }),
    );
    const d = await library.saveShipmentSearch({ hs_codes: ['7208'] }, { total: 900, shipments: records });
    const { source } = await libraryExportSource(library, d.id, undefined, '1.2.3');
    expect(source.columns.map((c) => c.field)).toEqual([...SHIPMENT_FIELDS]);
    expect(SHIPMENT_FIELDS.length).toBeGreaterThan(16);
    expect(source.rowCount).toBe(250);
    expect(source.query.view).toBeUndefined();
    const rows = await allRows(source);
    expect(rows).toHaveLength(250);
    // Stored order, every field: a hidden-by-default field such as `regime` is there too.
    const regime = SHIPMENT_FIELDS.indexOf('regime');
    const hash = SHIPMENT_FIELDS.indexOf('hashId');
    expect(rows.map((r) => r[regime])).toEqual(records.map((r) => r.regime));
    expect(rows.map((r) => r[hash])).toEqual(records.map((r) => r.hashId));
  });

  it('without a view exports every firm field', async () => {
    const d = await library.saveRecords({ kind: 'firms', request: { product_detail: 'cotton' } }, [
      firm(1),
      firm(2),
      firm(3),
    ]);
    const { source } = await libraryExportSource(library, d.id, undefined, '1.2.3');
    expect(source.columns.map((c) => c.field)).toEqual([...FIRM_FIELDS]);
    expect(source.rowCount).toBe(3);
    expect(await allRows(source)).toHaveLength(3);
  });

  it('exports the resolved firm columns a view shows, titled in the grid’s words, and the rows of a firm a drill-down kept', async () => {
    const records = [
      shipment(0, { importerName: 'Acme Co Ltd', importerCountryCode: 'CN', importerUrlCode: '' }),
      shipment(1, { importerName: 'ACME CO., LTD.', importerCountryCode: 'CN', importerUrlCode: '' }),
      shipment(2, { importerName: 'Apex Trading', importerCountryCode: 'CN', importerUrlCode: '' }),
    ];
    const d = await library.saveShipmentSearch({}, { total: 3, shipments: records });
    const firmId = (
      await library.firms.list({
        scope: {},
        search: 'acme',
        mergedOnly: false,
        sort: 'rows',
        offset: 0,
        limit: 5,
      })
    ).firms[0]!.firmId;
    const view = {
      columns: ['importerName', 'importerFirm'],
      filterModel: { anyFirm: { filterType: 'firm' as const, firmId } },
    };
    const { source } = await libraryExportSource(library, d.id, view, '1.2.3');
    expect(source.columns.map((c) => [c.field, c.title])).toEqual([
      ['importerName', 'Importer Name'],
      ['importerFirm', 'Importer Firm (resolved)'],
    ]);
    expect(source.rowCount).toBe(2);
    const rows = await allRows(source);
    expect(rows.map((r) => r[1])).toEqual([rows[0]![1], rows[0]![1]]);
    expect(rows.map((r) => r[0])).toEqual(['Acme Co Ltd', 'ACME CO., LTD.']);
    // Not a column of firm lists.
    const firms = await library.saveRecords({ kind: 'firms', request: {} }, [firm(1)]);
    await expect(libraryExportSource(library, firms.id, { columns: ['importerFirm'] }, '1')).rejects.toThrow(
      /Not a firms column/,
    );
  });

  it('with a view exports its columns and counts only the rows its filters keep', async () => {
    const records = Array.from({ length: 120 }, (_, i) =>
      shipment(i, { importerCountry: i % 4 === 0 ? 'Türkiye' : 'Çin' }),
    );
    const d = await library.saveShipmentSearch({}, { total: 120, shipments: records });
    const view = {
      columns: ['hashId', 'importerCountry'],
      filterModel: {
        importerCountry: { filterType: 'text' as const, type: 'equals' as const, filter: 'Türkiye' },
      },
    };
    const { source } = await libraryExportSource(library, d.id, view, '1.2.3');
    expect(source.columns.map((c) => c.field)).toEqual(['hashId', 'importerCountry']);
    expect(source.rowCount).toBe(30);
    expect(source.query.view?.columns).toEqual(['hashId', 'importerCountry']);
    expect(await allRows(source)).toHaveLength(30);
  });

  it('refuses, in plain words, a view whose filters match no row (rather than writing a header-only file)', async () => {
    const d = await library.saveShipmentSearch(
      {},
      { total: 10, shipments: Array.from({ length: 10 }, (_, i) => shipment(i)) },
    );
    const attempt = libraryExportSource(library, d.id, { quickFilter: 'no such thing anywhere' }, '1.2.3');
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      kind: 'InvalidInput',
      message: expect.stringMatching(/^No rows match the filters/),
    });
  });

  it('refuses an empty dataset', async () => {
    const d = await library.saveShipmentSearch({}, { total: 0, shipments: [] });
    await expect(libraryExportSource(library, d.id, undefined, '1.2.3')).rejects.toMatchObject({
      kind: 'InvalidInput',
      message: 'This dataset has no rows, so nothing was exported.',
    });
  });

  it('an import’s extra columns: filtered, sorted and exported under their headers; its missing fields empty, not ""', async () => {
    const path = join(t.dir, 'desk.csv');
    await writeFile(
      path,
      [
        'Importer,HS Code,Vessel/Voyage,Remarks ~ note',
        'Acme,720810,MSC Anna/12,urgent',
        'Beta,720811,Maersk Bo/3,',
        'Gamma,720812,MSC Anna/14,"check, twice"',
      ].join('\n'),
    );
    const r = await importFile(library, path);
    const d = r.dataset;
    expect(d.extraColumns).toEqual(['Vessel/Voyage', 'Remarks ~ note']);
    expect(d.missingFields).toContain('usdFob');

    // The grid: extras in the rows under their headers, filtered and sorted in SQL by `extra:<header>`.
    const block = await library.getRows(d.id, {
      startRow: 0,
      endRow: 10,
      filterModel: { 'extra:Vessel/Voyage': { filterType: 'text', type: 'startsWith', filter: 'msc' } },
      sortModel: [{ colId: 'extra:Remarks ~ note', sort: 'asc' }],
    });
    expect(block.lastRow).toBe(2);
    expect(block.rows.map((x) => [x.importerName, x['Vessel/Voyage'], x['Remarks ~ note']])).toEqual([
      ['Gamma', 'MSC Anna/14', 'check, twice'],
      ['Acme', 'MSC Anna/12', 'urgent'],
    ]);
    const blanks = await library.getRows(d.id, {
      startRow: 0,
      endRow: 10,
      filterModel: { 'extra:Remarks ~ note': { filterType: 'text', type: 'blank' } },
      columns: ['importerName', 'extra:Remarks ~ note'],
    });
    expect(blanks.rows.map(({ _row, ...x }) => x)).toEqual([{ importerName: 'Beta' }]);
    await expect(
      library.getRows(d.id, {
        startRow: 0,
        endRow: 1,
        filterModel: { 'extra:Vessel/Voyage': { filterType: 'number', type: 'equals', filter: 1 } },
      }),
    ).rejects.toThrow('Vessel/Voyage is not a number column');

    // The whole dataset: every field, then the extras under their headers; a missing field is NULL.
    const { source } = await libraryExportSource(library, d.id, undefined, '1.2.3');
    const extras = source.columns.slice(-2);
    expect(extras).toEqual([
      { field: 'extra:Vessel/Voyage', header: 'Vessel/Voyage', title: 'Vessel/Voyage', type: 'text' },
      { field: 'extra:Remarks ~ note', header: 'Remarks ~ note', title: 'Remarks ~ note', type: 'text' },
    ]);
    const rows = await allRows(source);
    const fob = source.columns.findIndex((c) => c.field === 'usdFob');
    const name = source.columns.findIndex((c) => c.field === 'importerName');
    expect(rows.map((x) => [x[name], x[fob], ...x.slice(-2)])).toEqual([
      ['Acme', null, 'MSC Anna/12', 'urgent'],
      ['Beta', null, 'Maersk Bo/3', null],
      ['Gamma', null, 'MSC Anna/14', 'check, twice'],
    ]);

    // A view that shows an extra column exports it in the view's order; a header the dataset lacks is refused.
    const view = await libraryExportSource(
      library,
      d.id,
      { columns: ['extra:Remarks ~ note', 'importerName'], sortModel: [], filterModel: {}, quickFilter: '' },
      '1.2.3',
    );
    expect(await allRows(view.source)).toEqual([
      ['urgent', 'Acme'],
      [null, 'Beta'],
      ['check, twice', 'Gamma'],
    ]);
    await expect(libraryExportSource(library, d.id, { columns: ['extra:Nope'] }, '1.2.3')).rejects.toThrow(
      'Not a shipments column: Nope',
    );
  });
});
