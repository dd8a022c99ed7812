import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemorySource, exportXlsx, firmColumns, shipmentColumns } from '../../src/main/export';
import { Library } from '../../src/main/library';
import { importFile } from '../../src/main/library/import';
import { SHIPMENT_FIELDS } from '@shared/spec/records';
import { firm, shipment, tempDir } from './helpers';

let dir: string;
let cleanup: () => Promise<void>;
let lib: Library;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  lib = await Library.open(join(dir, 'data'));
});
afterEach(async () => {
  await lib.close();
  await cleanup();
});

async function file(name: string, content: string | Buffer): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, content);
  return p;
}

async function rowsOf(id: string): Promise<Record<string, unknown>[]> {
  return (await lib.getRows(id, { startRow: 0, endRow: 1000 })).rows.map(({ _row, ...r }) => r);
}

async function libraryIsEmpty(): Promise<void> {
  expect(await lib.list()).toEqual([]);
  expect(Number((await lib.db.one('SELECT count(*) AS n FROM shipment_rows'))?.n)).toBe(0);
  expect(Number((await lib.db.one('SELECT count(*) AS n FROM firm_rows'))?.n)).toBe(0);
  expect(Number((await lib.db.one('SELECT count(*) AS n FROM datasets'))?.n)).toBe(0);
}

function csvCell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

describe('JSON import', () => {
  it('detects shipment records and keeps every field', async () => {
    const recs = [shipment(1), shipment(2, { productDetails: 'çelik "sac", rulo\nikinci satır' })];
    const r = await importFile(lib, await file('s.json', JSON.stringify(recs)));
    expect(r).toMatchObject({ format: 'json', rows: 2, filterRestored: false });
    expect(r.dataset.kind).toBe('shipments');
    expect(r.dataset.source).toBe('import');
    expect(await rowsOf(r.dataset.id)).toEqual(recs);
  });

  it('detects firm records and a saved service response', async () => {
    const f = await importFile(lib, await file('f.json', JSON.stringify([firm(1), firm(2)])));
    expect(f.dataset.kind).toBe('firms');
    expect((await rowsOf(f.dataset.id))[1]).toEqual(firm(2));
    const s = await importFile(lib, await file('resp.json', JSON.stringify({ total: 40, shipments: [shipment(1)] })));
    expect(s.dataset.reportedTotal).toBe(40);
  });

  it.each([
    ['truncated', JSON.stringify([shipment(1), shipment(2)]).slice(0, 500), /not valid JSON/],
    ['foreign', JSON.stringify([{ a: 1, b: 2 }, { a: 3 }]), /neither shipment nor firm/],
    ['not a list', JSON.stringify({ hello: 'world' }), /expected a JSON array/],
    ['empty', '[]', /no records/],
    ['wrong type', JSON.stringify([shipment(1), { ...shipment(2), fobValue: 7 }]), /records\[1\]\.fobValue: must be text/],
  ])('refuses a %s file with a clear message and changes nothing', async (_what, content, message) => {
    await expect(importFile(lib, await file('x.json', content))).rejects.toThrow(message);
    await expect(importFile(lib, await file('x.json', content))).rejects.toThrow(/library was not changed/);
    await libraryIsEmpty();
  });
});

describe('CSV import', () => {
  const fields = [...SHIPMENT_FIELDS];
  const recs = [shipment(1, { importerName: 'Müller, "Söhne"', productDetails: 'line1\r\nline2' }), shipment(2)];
  const csv = [fields.join(','), ...recs.map((r) => fields.map((f) => csvCell(r[f]!)).join(','))].join('\r\n') + '\r\n';

  it('reads UTF-8 with and without BOM, quoted commas, quotes and newlines', async () => {
    const a = await importFile(lib, await file('a.csv', csv));
    const b = await importFile(lib, await file('b.csv', `\uFEFF${csv}`));
    expect(await rowsOf(a.dataset.id)).toEqual(recs);
    expect(await rowsOf(b.dataset.id)).toEqual(recs);
  });

  it('reads firm CSVs with whole numbers', async () => {
    const head = 'name,country,country_code,firm_type,shipment_count';
    const r = await importFile(lib, await file('f.csv', `${head}\nAcme,Türkiye,TR,2,17\nBeta,Germany,DE,1,\n`));
    const rows = await rowsOf(r.dataset.id);
    expect(rows.map((x) => [x.name, x.firm_type, x.shipment_count])).toEqual([
      ['Acme', 2, 17],
      ['Beta', 1, null],
    ]);
  });

  it.each([
    ['cut inside a quoted field', csv.slice(0, csv.indexOf('line1') + 3), /never ends/],
    ['cut mid-row', csv.slice(0, csv.lastIndexOf('\r\n', csv.length - 3) + 40), /has \d+ cells but the header has/],
    ['foreign header', 'id,price,colour\n1,2,red\n', /does not hold shipment or firm field names/],
    ['bad integer', 'name,country,country_code,firm_type\nAcme,TR,TR,two\n', /not a whole number/],
    ['empty', '', /empty/],
  ])('refuses a CSV %s and changes nothing', async (_what, content, message) => {
    await expect(importFile(lib, await file('x.csv', content))).rejects.toThrow(message);
    await libraryIsEmpty();
  });
});

describe('xlsx import of the app’s own exports', () => {
  const filter = { importer_countries: ['TR'], hs_codes: ['7208'], start_date: '2024-01-01', end_date: '2024-06-30' };
  const query = { profile: 'Desk', account: 'acme', filter, fetchedAt: '2024-07-01T08:30:00.000Z', totalReported: 3, appVersion: 'test' };

  it('restores the rows and the filter from the Query sheet', async () => {
    const recs = [shipment(1, { fobValue: '12.5', createdAt: '1714567890.5' }), shipment(2), shipment(3, { fobValue: '-' })];
    const target = join(dir, 'export.xlsx');
    await exportXlsx(createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows: recs, query }), target);
    const r = await importFile(lib, target);
    expect(r).toMatchObject({ format: 'xlsx', rows: 3, filterRestored: true });
    expect(r.dataset.request).toEqual(filter);
    expect(r.dataset).toMatchObject({ name: 'Shipments · →TR · HS 7208 · 2024-01-01…2024-06-30', reportedTotal: 3, account: 'acme', profileName: 'Desk' });
    const rows = await rowsOf(r.dataset.id);
    expect(rows).toEqual(recs);
  });

  it('reads a firm export', async () => {
    const target = join(dir, 'firms.xlsx');
    const firms = [firm(1), firm(2, { shipment_count: null })];
    await exportXlsx(createMemorySource({ kind: 'firms', columns: firmColumns(), rows: firms, query: { ...query, filter: { product_detail: 'cotton' } } }), target);
    const r = await importFile(lib, target);
    expect(r.dataset.kind).toBe('firms');
    expect(await rowsOf(r.dataset.id)).toEqual(firms);
  });

  it('refuses a corrupt or foreign workbook and changes nothing', async () => {
    const target = join(dir, 'export.xlsx');
    await exportXlsx(createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows: [shipment(1)], query }), target);
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(target);
    await expect(importFile(lib, await file('cut.xlsx', bytes.subarray(0, Math.floor(bytes.length / 2))))).rejects.toThrow(/not a readable .xlsx/);
    await expect(importFile(lib, await file('junk.xlsx', 'this is not a zip'))).rejects.toThrow(/not a readable .xlsx/);
    await libraryIsEmpty();
  });
});
