import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  createMemorySource,
  exportCsv,
  exportXlsx,
  firmColumns,
  shipmentColumns,
} from '../../src/main/export';
import { importFile, previewImport } from '../../src/main/library/import';
import { SHIPMENT_FIELDS } from '@shared/spec/records';
import { useLibrary } from '../helpers/library';
import { expectNothingStored, firm, shipment, storedRows } from './helpers';

const temp = useLibrary('portolan-lib-test-', { folder: 'data' });

async function file(name: string, content: string | Buffer): Promise<string> {
  const p = join(temp.dir, name);
  await writeFile(p, content);
  return p;
}

const rowsOf = (id: string) => storedRows(temp.lib, id);

const libraryIsEmpty = () => expectNothingStored(temp.lib);

function csvCell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

describe('JSON import', () => {
  it('detects shipment records and keeps every field', async () => {
    const recs = [shipment(1), shipment(2, { productDetails: 'çelik "sac", rulo\nikinci satır' })];
    const r = await importFile(temp.lib, await file('s.json', JSON.stringify(recs)));
    expect(r).toMatchObject({ format: 'json', rows: 2, filterRestored: false });
    expect(r.dataset.kind).toBe('shipments');
    expect(r.dataset.source).toBe('import');
    expect(await rowsOf(r.dataset.id)).toEqual(recs);
  });

  it('detects firm records and a saved service response', async () => {
    const f = await importFile(temp.lib, await file('f.json', JSON.stringify([firm(1), firm(2)])));
    expect(f.dataset.kind).toBe('firms');
    expect((await rowsOf(f.dataset.id))[1]).toEqual(firm(2));
    const s = await importFile(
      temp.lib,
      await file('resp.json', JSON.stringify({ total: 40, shipments: [shipment(1)] })),
    );
    expect(s.dataset.reportedTotal).toBe(40);
  });

  it.each([
    ['truncated', JSON.stringify([shipment(1), shipment(2)]).slice(0, 500), /not valid JSON/],
    [
      'foreign',
      JSON.stringify([{ a: 1, b: 2 }, { a: 3 }]),
      /none of its columns is read as a shipment field/,
    ],
    ['not a list', JSON.stringify({ hello: 'world' }), /expected a JSON array/],
    ['empty', '[]', /no records/],
  ])('refuses a %s file with a clear message and changes nothing', async (_what, content, message) => {
    expect(await refusal(await file('x.json', content))).toMatch(message);
    await libraryIsEmpty();
  });
});

describe('CSV import', () => {
  const fields = [...SHIPMENT_FIELDS];
  const recs = [
    shipment(1, { importerName: 'Müller, "Söhne"', productDetails: 'line1\r\nline2' }),
    shipment(2),
  ];
  const csv =
    [fields.join(','), ...recs.map((r) => fields.map((f) => csvCell(r[f]!)).join(','))].join('\r\n') + '\r\n';

  it('reads UTF-8 with and without BOM, quoted commas, quotes and newlines', async () => {
    const a = await importFile(temp.lib, await file('a.csv', csv));
    const b = await importFile(temp.lib, await file('b.csv', `\uFEFF${csv}`));
    expect(await rowsOf(a.dataset.id)).toEqual(recs);
    expect(await rowsOf(b.dataset.id)).toEqual(recs);
  });

  it('reads firm CSVs with whole numbers', async () => {
    const head = 'name,country,country_code,firm_type,shipment_count';
    const r = await importFile(
      temp.lib,
      await file('f.csv', `${head}\nAcme,Türkiye,TR,2,17\nBeta,Germany,DE,1,\n`),
    );
    const rows = await rowsOf(r.dataset.id);
    expect(rows.map((x) => [x.name, x.firm_type, x.shipment_count])).toEqual([
      ['Acme', 2, 17],
      ['Beta', 1, null],
    ]);
  });

  it.each([
    ['cut inside a quoted field', csv.slice(0, csv.indexOf('line1') + 3), /never ends/],
    [
      'cut mid-row',
      csv.slice(0, csv.lastIndexOf('\r\n', csv.length - 3) + 40),
      /has \d+ cells but the header has/,
    ],
    ['foreign header', 'id,colour,mood\n1,red,calm\n', /none of its columns is read as a shipment field/],
    ['empty', '', /empty/],
  ])('refuses a CSV %s and changes nothing', async (_what, content, message) => {
    expect(await refusal(await file('x.csv', content))).toMatch(message);
    await libraryIsEmpty();
  });

  it('previews the head of a large CSV whose quoting goes wrong far below it, which the import refuses', async () => {
    // Some 130 KB: the preview's head is read from its first 64 KB, the stray quote is past them.
    const lines = Array.from({ length: 5000 }, (_, i) => `Importer ${i},72081${i % 10},${i}`);
    lines[3000] = '"Importer 3000"x,720810,3000';
    const path = await file('stray-quote.csv', `importerName,hsCode,fobValue\n${lines.join('\n')}\n`);
    const preview = await previewImport(path);
    expect(preview.headers).toEqual(['importerName', 'hsCode', 'fobValue']);
    expect(preview.raw.whole).toBe(false);
    expect(preview.raw.head.at(-1)?.values).toEqual(['Importer 58', '720818', '58']);
    expect(await refusal(path)).toMatch(/unexpected text after a closing quote \(record 3002\)/);
    await libraryIsEmpty();
  });
});

describe('xlsx import of the app’s own exports', () => {
  const filter = {
    importer_countries: ['TR'],
    hs_codes: ['7208'],
    start_date: '2024-01-01',
    end_date: '2024-06-30',
  };
  const query = {
    profile: 'Desk',
    account: 'acme',
    filter,
    fetchedAt: '2024-07-01T08:30:00.000Z',
    totalReported: 3,
    appVersion: 'test',
  };

  it('restores the rows and the filter from the Query sheet', async () => {
    const recs = [
      shipment(1, { fobValue: '12.5', createdAt: '1714567890.5' }),
      shipment(2),
      shipment(3, { fobValue: '-' }),
    ];
    const target = join(temp.dir, 'export.xlsx');
    await exportXlsx(
      createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows: recs, query }),
      target,
    );
    const r = await importFile(temp.lib, target);
    expect(r).toMatchObject({ format: 'xlsx', rows: 3, filterRestored: true });
    expect(r.dataset.request).toEqual(filter);
    expect(r.dataset).toMatchObject({
      name: 'Shipments · →TR · HS 7208 · 2024-01-01…2024-06-30',
      reportedTotal: 3,
      account: 'acme',
      profileName: 'Desk',
    });
    const rows = await rowsOf(r.dataset.id);
    expect(rows).toEqual(recs);
  });

  it('reads a firm export', async () => {
    const target = join(temp.dir, 'firms.xlsx');
    const firms = [firm(1), firm(2, { shipment_count: null })];
    await exportXlsx(
      createMemorySource({
        kind: 'firms',
        columns: firmColumns(),
        rows: firms,
        query: { ...query, filter: { product_detail: 'cotton' } },
      }),
      target,
    );
    const r = await importFile(temp.lib, target);
    expect(r.dataset.kind).toBe('firms');
    expect(await rowsOf(r.dataset.id)).toEqual(firms);
  });

  it('refuses a corrupt or foreign workbook and changes nothing', async () => {
    const target = join(temp.dir, 'export.xlsx');
    await exportXlsx(
      createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows: [shipment(1)], query }),
      target,
    );
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(target);
    await expect(
      importFile(temp.lib, await file('cut.xlsx', bytes.subarray(0, Math.floor(bytes.length / 2)))),
    ).rejects.toThrow(/not a readable .xlsx/);
    await expect(importFile(temp.lib, await file('junk.xlsx', 'this is not a zip'))).rejects.toThrow(
      /not a readable .xlsx/,
    );
    await libraryIsEmpty();
  });
});

/** A refusal's message: plain sentences, no stray "?." and the promise that nothing changed. */
async function refusal(path: string): Promise<string> {
  const e = await importFile(temp.lib, path).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Error);
  const message = (e as Error).message;
  expect(message).toMatch(/The library was not changed\.$/);
  expect(message).not.toMatch(/[?!.]\./);
  return message;
}

function utf16(text: string, order: 'le' | 'be'): Buffer {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
  if (order === 'le') return le;
  const be = Buffer.alloc(le.length);
  for (let i = 0; i < le.length; i += 2) {
    be[i] = le[i + 1]!;
    be[i + 1] = le[i]!;
  }
  return be;
}

describe('text encodings', () => {
  const head = 'name,country,country_code,firm_type,shipment_count';

  it('reads a Windows-1252 CSV as such, saying so in the preview, without garbling names', async () => {
    const latin1 = Buffer.concat([
      Buffer.from(`${head}\r\nAcme,Spain,ES,1,2\r\nP`),
      Buffer.from([0xe9]),
      Buffer.from('rez,Spain,ES,1,3\r\n'),
    ]);
    const path = await file('ansi.csv', latin1);
    const preview = await previewImport(path);
    expect(preview.view.notices.join(' ')).toMatch(/not UTF-8.*Windows-1252/);
    expect(preview.view.columns.find((c) => c.field === 'name')?.samples).toEqual(['Acme', 'Pérez']);
    const r = await importFile(temp.lib, path);
    const rows = await rowsOf(r.dataset.id);
    expect(rows.map((x) => x.name)).toEqual(['Acme', 'Pérez']);
    expect(JSON.stringify(rows)).not.toContain('\uFFFD');
  });

  it('reads a large UTF-8 CSV as UTF-8 whatever byte its pieces are cut at, and one bad byte deep in it as Windows-1252', async () => {
    // Plain rows up to a four-byte character that straddles the end of the first 1 MiB piece read,
    // then rows of two-, three- and four-byte characters.
    const plain = [`${head}\n`];
    let bytes = plain[0]!.length;
    for (let i = 0; bytes < 1024 * 1024 - 200; i++) {
      plain.push(`Acme ${i},Spain,ES,1,${i}\n`);
      bytes += plain[plain.length - 1]!.length;
    }
    let text = `${plain.join('')}${'a'.repeat(1024 * 1024 - 2 - bytes)}😀,Spain,ES,1,1\n`;
    expect(
      Buffer.from(text)
        .subarray(1024 * 1024 - 2, 1024 * 1024 + 2)
        .toString(),
    ).toBe('😀');
    for (let i = 0; i < 2000; i++) text += `Pérez ${i} ⟨€⟩ 😀 ${'é'.repeat(i % 5)},Spain,ES,1,${i}\n`;
    const utf8 = await previewImport(await file('big-utf8.csv', Buffer.from(text)));
    expect(utf8.view.notices.join(' ')).not.toMatch(/not UTF-8/);
    const bad = Buffer.from(text);
    bad[bad.length - 3] = 0xe9;
    const ansi = await previewImport(await file('big-ansi.csv', bad));
    expect(ansi.view.notices.join(' ')).toMatch(/not UTF-8.*Windows-1252/);
    // A character cut off by the file's end.
    const cut = await previewImport(
      await file('cut.csv', Buffer.from(`${head}\nP,Spain,ES,1,€`).subarray(0, -1)),
    );
    expect(cut.view.notices.join(' ')).toMatch(/not UTF-8/);
  });

  it('refuses a JSON file that is not UTF-8 and stores nothing', async () => {
    const bytes = Buffer.from(JSON.stringify([firm(1, { name: 'P#rez' }), firm(2)]), 'utf8');
    bytes[bytes.indexOf('#')] = 0xe9;
    expect(await refusal(await file('ansi.json', bytes))).toMatch(/not UTF-8/);
    await libraryIsEmpty();
  });

  it.each(['le', 'be'] as const)(
    'imports UTF-16 %s text with its byte order mark (Excel "Unicode text": tab-separated, saved as .txt)',
    async (order) => {
      const text = `${head.replace(/,/g, '\t')}\r\nPérez Ltd\tEspaña\tES\t1\t3\r\n上海钢铁\tChina\tCN\t2\t\r\n`;
      const r = await importFile(temp.lib, await file(`u16${order}.txt`, utf16(text, order)));
      const rows = await rowsOf(r.dataset.id);
      expect(rows.map((x) => [x.name, x.country, x.shipment_count])).toEqual([
        ['Pérez Ltd', 'España', 3],
        ['上海钢铁', 'China', null],
      ]);
    },
  );

  it('refuses UTF-16 text without a byte order mark instead of storing NUL characters', async () => {
    const bytes = Buffer.from(`${head}\r\nAcme,Spain,ES,1,2\r\n`, 'utf16le');
    expect(await refusal(await file('nobom.csv', bytes))).toMatch(/NUL bytes/);
    await libraryIsEmpty();
  });
});

describe('files with nothing to import or of the wrong type', () => {
  const fields = [...SHIPMENT_FIELDS];

  it.each([
    ['a header row', `${fields.join(',')}\r\n`],
    [
      'a header row and empty separator rows',
      `${fields.join(';')}\r\n${';'.repeat(fields.length - 1)}\r\n\r\n`,
    ],
  ])('refuses a CSV holding only %s, like an empty JSON list', async (_what, content) => {
    expect(await refusal(await file('empty.csv', content))).toMatch(/the file holds no records/);
    await libraryIsEmpty();
  });

  it('refuses an .xlsx export of no rows', async () => {
    const query = {
      profile: 'Desk',
      account: 'acme',
      filter: {},
      fetchedAt: '2024-07-01T08:30:00.000Z',
      totalReported: 0,
      appVersion: 'test',
    };
    const target = join(temp.dir, 'none.xlsx');
    await exportXlsx(
      createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows: [], query }),
      target,
    );
    expect(await refusal(target)).toMatch(/the file holds no records/);
    await libraryIsEmpty();
  });

  it('refuses a damaged Parquet file without quoting its bytes or DuckDB’s words', async () => {
    const message = await refusal(await file('export.parquet', Buffer.from('PAR1\u0015\u0004binary')));
    expect(message).toMatch(/not a readable Parquet file: the file is damaged or cut off/);
    expect(message).not.toMatch(/PAR1|binary|duckdb|magic|footer/i);
    await libraryIsEmpty();
  });

  it.each(['notes.docx', 'data.dat', 'noextension'])(
    'refuses %s by its type, naming the supported types',
    async (name) => {
      const message = await refusal(await file(name, JSON.stringify([shipment(1)])));
      expect(message).toMatch(/not supported|no extension/);
      expect(message).toMatch(/\.xlsx, \.xlsm, \.csv, \.tsv, \.txt, \.json, \.jsonl, \.parquet and \.html/);
      await libraryIsEmpty();
    },
  );

  it('explains a damaged workbook without passing on the zip library’s text', async () => {
    const message = await refusal(await file('junk.xlsx', 'this is not a zip'));
    expect(message).toMatch(/damaged/);
    expect(message).not.toMatch(/jszip|https?:|zip file/i);
    await libraryIsEmpty();
  });
});

describe('CSV separators', () => {
  const fields = [...SHIPMENT_FIELDS];
  const recs = [shipment(1, { importerName: 'Dupont; fils' }), shipment(2, { productDetails: 'a\tb' })];
  const withSeparator = (sep: string): string =>
    [
      fields.join(sep),
      ...recs.map((r) => fields.map((f) => (r[f]!.includes(sep) ? `"${r[f]}"` : r[f])).join(sep)),
    ].join('\r\n') + '\r\n';

  it.each([
    ['semicolons (European Excel)', ';'],
    ['tabs', '\t'],
  ])('imports a CSV separated by %s', async (_what, sep) => {
    const r = await importFile(temp.lib, await file('sep.csv', withSeparator(sep)));
    expect(await rowsOf(r.dataset.id)).toEqual(recs);
  });

  it('follows Excel’s "sep=;" first line', async () => {
    const r = await importFile(temp.lib, await file('sep.csv', `sep=;\r\n${withSeparator(';')}`));
    expect(await rowsOf(r.dataset.id)).toEqual(recs);
  });
});

describe('completeness and provenance', () => {
  const filter = { importer_countries: ['TR'], hs_codes: ['7208'] };
  const query = {
    profile: 'Desk',
    account: 'acme',
    filter,
    fetchedAt: '2024-07-01T08:30:00.000Z',
    totalReported: 3,
    appVersion: 'test',
  };
  const recs = [shipment(1), shipment(2), shipment(3)];

  async function exported(
    rows: Record<string, string>[],
    q: Parameters<typeof createMemorySource>[0]['query'],
  ): Promise<string> {
    const target = join(temp.dir, `export-${Math.random().toString(36).slice(2)}.xlsx`);
    await exportXlsx(
      createMemorySource({ kind: 'shipments', columns: shipmentColumns(), rows, query: q }),
      target,
    );
    return target;
  }

  it('keeps the fetch time of an xlsx export, so the list shows the data’s real age', async () => {
    const r = await importFile(temp.lib, await exported(recs, query));
    expect(r.dataset.fetchedAt).toBe('2024-07-01T08:30:00.000Z');
    expect((await temp.lib.get(r.dataset.id)).fetchedAt).toBe('2024-07-01T08:30:00.000Z');
    expect(r.dataset.status).toBe('complete');
  });

  it.each(['not a time', '2999-01-01T00:00:00.000Z', '2024-07-01'])(
    'uses the import time when the fetch time is %s',
    async (fetchedAt) => {
      const before = Date.now();
      const r = await importFile(temp.lib, await exported(recs, { ...query, fetchedAt }));
      expect(Date.parse(r.dataset.fetchedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(r.dataset.fetchedAt)).toBeLessThanOrEqual(Date.now() + 1000);
    },
  );

  it('marks an export of a filtered view as partial and says so in its notes', async () => {
    const view = {
      sortModel: [],
      filterModel: { importerName: { filterType: 'text', type: 'contains', filter: 'Imp' } },
      quickFilter: 'steel',
      columns: [...SHIPMENT_FIELDS],
    };
    const r = await importFile(temp.lib, await exported(recs, { ...query, view }));
    expect(r.dataset.status).toBe('partial');
    expect(r.dataset.notes).toMatch(/filtered view \(column filters on importerName; quick filter "steel"\)/);
    expect(r.dataset.name).toMatch(/· filtered view$/);
    expect(r.filterRestored).toBe(true);
  });

  it('keeps a sorted but unfiltered view export complete', async () => {
    const view = {
      sortModel: [{ colId: 'importerName', sort: 'asc' as const }],
      filterModel: null,
      quickFilter: null,
      columns: [...SHIPMENT_FIELDS],
    };
    const r = await importFile(temp.lib, await exported(recs, { ...query, view }));
    expect(r.dataset.status).toBe('complete');
  });

  it('marks an xlsx export with fewer rows than the service reported as partial', async () => {
    const r = await importFile(temp.lib, await exported(recs, { ...query, totalReported: 10 }));
    expect(r.dataset).toMatchObject({ status: 'partial', reportedTotal: 10, storedRows: 3 });
    expect(r.dataset.notes).toMatch(/3 of the 10 records the service reported/);
  });

  it('marks a workbook whose rows were deleted after export as partial', async () => {
    const target = await exported(recs, query);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(target);
    wb.getWorksheet('Shipments')!.spliceRows(2, 1);
    await wb.xlsx.writeFile(target);
    const r = await importFile(temp.lib, target);
    expect(r.dataset).toMatchObject({ status: 'partial', storedRows: 2 });
    expect(r.dataset.notes).toMatch(/rows were removed from the workbook after export \(2 of 3 left\)/);
  });

  it('marks a saved service response with fewer records than its total as partial, like a fetch', async () => {
    const body = { total: 9999, shipments: Array.from({ length: 50 }, (_, i) => shipment(i)) };
    const r = await importFile(temp.lib, await file('resp.json', JSON.stringify(body)));
    expect(r.dataset).toMatchObject({ status: 'partial', reportedTotal: 9999, storedRows: 50 });
    const whole = await importFile(
      temp.lib,
      await file('whole.json', JSON.stringify({ total: 2, shipments: [shipment(1), shipment(2)] })),
    );
    expect(whole.dataset.status).toBe('complete');
  });

  it('marks one saved page of a multi-page firm search as partial', async () => {
    const body = { total_shipment: 900, total_pages: 3, page: 1, firms_count: 2, firms: [firm(1), firm(2)] };
    const r = await importFile(temp.lib, await file('page.json', JSON.stringify(body)));
    expect(r.dataset.status).toBe('partial');
    expect(r.dataset.notes).toMatch(/page 1 of 3/);
  });
});

describe('CSV export → import round trip', () => {
  it('gives back formula-like text exactly, after the export escaped it', async () => {
    const tricky = [
      '=1+2',
      '=HYPERLINK("http://x","click")',
      '@SUM(1,1)',
      "'=already quoted",
      "''",
      '- Other',
      '-',
      '+44 20 7946 0000',
      '\t=tab',
    ];
    const recs = tricky.map((v, i) => shipment(i, { importerName: v, productDetails: v, exporterTel: v }));
    const target = join(temp.dir, 'round.csv');
    await exportCsv(
      createMemorySource({
        kind: 'shipments',
        columns: shipmentColumns(),
        rows: recs,
        query: {
          profile: '',
          account: '',
          filter: {},
          fetchedAt: '2024-07-01T08:30:00.000Z',
          totalReported: null,
          appVersion: 'test',
        },
      }),
      target,
    );
    expect(await readFile(target, 'utf8')).toContain("'=1+2");
    const r = await importFile(temp.lib, target);
    expect(await rowsOf(r.dataset.id)).toEqual(recs);
  });
});

describe('date and number formats', () => {
  const fields = [...SHIPMENT_FIELDS];
  const csvOf = (recs: Record<string, string>[], sep = ','): string =>
    [fields.join(sep), ...recs.map((r) => fields.map((f) => csvCell(r[f]!)).join(sep))].join('\r\n') + '\r\n';

  it('does not put the day order in question when every date is ISO (yyyy-MM-dd)', async () => {
    const path = await file(
      'iso.csv',
      csvOf([shipment(1, { arrivalDate: '2023-01-05' }), shipment(2, { arrivalDate: '2023-12-31' })]),
    );
    const preview = await previewImport(path);
    expect(preview.view.dateOrderMatters).toBe(false);
    expect(preview.view.localeProof.dates).toBeNull();
    const r = await importFile(temp.lib, path);
    expect((await rowsOf(r.dataset.id)).map((x) => x.arrivalDate)).toEqual(['2023-01-05', '2023-12-31']);
  });

  it('reads day-first dates once 31/12/2023 proves the order, and stores them as yyyy-MM-dd', async () => {
    const path = await file(
      'regional.csv',
      csvOf([shipment(1, { arrivalDate: '05/01/2023' }), shipment(2, { arrivalDate: '31/12/2023' })]),
    );
    const preview = await previewImport(path);
    expect(preview.view.locale.dates).toBe('dmy');
    expect(preview.view.localeProof.dates).toBe('31/12/2023');
    expect(preview.view.dateOrderMatters).toBe(true);
    const r = await importFile(temp.lib, path);
    expect((await rowsOf(r.dataset.id)).map((x) => x.arrivalDate)).toEqual(['2023-01-05', '2023-12-31']);
    expect(r.warnings).toEqual([]);
  });

  it('reads decimal commas once "1.234,5" proves them, and stores plain numbers', async () => {
    const path = await file(
      'comma.csv',
      csvOf([shipment(1, { fobValue: '1.234,5' }), shipment(2, { fobValue: '12,75' })], ';'),
    );
    const preview = await previewImport(path);
    expect(preview.view.locale.decimal).toBe(',');
    expect(preview.view.columns.find((c) => c.field === 'fobValue')?.samples).toEqual(['1234.5', '12.75']);
    const r = await importFile(temp.lib, path);
    expect((await rowsOf(r.dataset.id)).map((x) => x.fobValue)).toEqual(['1234.5', '12.75']);
  });

  it('leaves a firm count that is not a whole number empty and says so', async () => {
    const r = await importFile(
      temp.lib,
      await file('f.csv', 'name,country,country_code,firm_type\nAcme,TR,TR,two\n'),
    );
    expect((await rowsOf(r.dataset.id))[0]).toMatchObject({ name: 'Acme', firm_type: null });
    expect(r.warnings[0]?.message).toMatch(
      /Firm type: 1 value is not a whole number \(first: row 2, "two"\)/,
    );
  });

  it('reads numbers a JSON file gives for text fields as their text', async () => {
    const r = await importFile(
      temp.lib,
      await file('n.json', JSON.stringify([shipment(1), { ...shipment(2), fobValue: 7 }])),
    );
    expect((await rowsOf(r.dataset.id))[1]?.fobValue).toBe('7');
  });

  it('imports odd values the service itself sends, counting them in warnings', async () => {
    const recs = [
      shipment(1, { fobValue: '-', usdFob: 'N/A' }),
      shipment(2, { arrivalDate: '2023-02-30', grossWeight: '12 KG' }),
      shipment(3, { grossWeight: '7 t' }),
    ];
    const r = await importFile(temp.lib, await file('odd.csv', csvOf(recs)));
    expect(r.rows).toBe(3);
    expect(
      r.warnings.map(({ field, count, firstAt, example }) => ({ field, count, firstAt, example })),
    ).toEqual([
      { field: 'arrivalDate', count: 1, firstAt: 'row 3', example: '2023-02-30' },
      { field: 'grossWeight', count: 2, firstAt: 'row 3', example: '12 KG' },
    ]);
    expect(r.warnings[1]!.message).toMatch(/Gross Weight: 2 values are not plain numbers .*sort last/);
    expect(await rowsOf(r.dataset.id)).toEqual(recs);
  });

  it('has no warnings for values in the spec’s formats and fillers', async () => {
    const r = await importFile(
      temp.lib,
      await file('fine.csv', csvOf([shipment(1, { usdCif: '-', createdAt: '1714567890.5' }), shipment(2)])),
    );
    expect(r.warnings).toEqual([]);
  });

  it('names JSON records by their position', async () => {
    const r = await importFile(
      temp.lib,
      await file('odd.json', JSON.stringify([shipment(1), shipment(2, { quantity: '3 pcs' })])),
    );
    expect(r.warnings[0]).toMatchObject({ field: 'quantity', firstAt: 'record 2' });
  });
});
