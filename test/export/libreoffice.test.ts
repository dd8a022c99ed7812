/**
 * The workbook read back by LibreOffice, a reader nobody on this project wrote: every data cell of
 * every sheet compared with the source text, and the Query sheet's filter. One conversion, ~3 s.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, exportXlsx, shipmentColumns, type ExportColumn } from '../../src/main/export';
import { parseCsv } from '../helpers/csv-parse';
import { makeShipments } from '../helpers/export-records';
import { sampleQuery } from '../helpers/export-fixtures';
import { tempDir } from '../helpers/temp-dir';

const run = promisify(execFile);
const soffice = ['/usr/bin/libreoffice', '/usr/bin/soffice'].find((p) => existsSync(p));
/** Filter options: comma, double quote, UTF-8, start row 1, …, last token -1 = every sheet to its own file. */
const ALL_SHEETS_CSV = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1';

const rows = makeShipments(300, 5);
rows[7]!['productDetails'] = 'Çok satırlı\r\nürün "açıklaması", 中文描述';
rows[8]!['importerName'] = '  leading and trailing spaces  ';
const columns = shipmentColumns();
let t: Awaited<ReturnType<typeof tempDir>>;
const sheets = new Map<string, string[][]>();

function checkValue(got: string, source: string, col: ExportColumn, where: string): void {
  const number = /^-?\d+(\.\d+)?$/.test(source) && source.replace(/\D/g, '').replace(/^0+/, '').length <= 15;
  if (source === '') expect(got, where).toBe('');
  else if ((col.type === 'decimal' || col.type === 'integer') && number)
    expect(Number(got), where).toBe(Number(source));
  else if (col.type === 'epoch' && number) {
    // Shown to the second: within one second of the source instant, in UTC.
    const ms = Date.parse(got.replace(' ', 'T') + 'Z');
    expect(Math.abs(ms - Number(source) * 1000), `${where}: ${got} vs ${source}`).toBeLessThanOrEqual(1000);
  } else expect(got, where).toBe(source);
}

describe.skipIf(!soffice)('xlsx read back by LibreOffice', () => {
  beforeAll(async () => {
    t = await tempDir('portolan-export-test-');
    const xlsx = join(t.dir, 'book.xlsx');
    await exportXlsx(
      createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery, batchSize: 64 }),
      xlsx,
      {
        rowsPerSheet: 120,
      },
    );
    const profile = await mkdtemp(join(tmpdir(), 'portolan-lo-profile-'));
    try {
      await run(
        soffice as string,
        [
          '--headless',
          `-env:UserInstallation=file://${profile}`,
          '--convert-to',
          ALL_SHEETS_CSV,
          '--outdir',
          t.dir,
          xlsx,
        ],
        {
          timeout: 90_000,
        },
      );
    } finally {
      await rm(profile, { recursive: true, force: true });
    }
    for (const f of await readdir(t.dir)) {
      const m = /^book-(.+)\.csv$/.exec(f);
      if (m) sheets.set(m[1] as string, parseCsv(await readFile(join(t.dir, f), 'utf8')));
    }
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it('finds every sheet: three data sheets and the Query sheet', () => {
    expect([...sheets.keys()].sort()).toEqual(['Query', 'Shipments', 'Shipments (2)', 'Shipments (3)']);
  });

  it('reads every data cell back as the source value, Turkish and Chinese text included', () => {
    const data = ['Shipments', 'Shipments (2)', 'Shipments (3)'].flatMap((name) => {
      const sheet = sheets.get(name) ?? [];
      expect(sheet[0], name).toEqual(columns.map((c) => c.title ?? c.header));
      return sheet.slice(1);
    });
    expect(data.length).toBe(rows.length);
    rows.forEach((source, r) => {
      columns.forEach((col, c) => {
        const got = data[r]?.[c] ?? '';
        checkValue(got, source[col.field] ?? '', col, `row ${r} ${col.field}`);
      });
    });
    expect(data.some((r) => r.includes('İstanbul Şeker Ürünleri A.Ş.'))).toBe(true);
    expect(data.some((r) => r.includes('深圳市华强电子有限公司'))).toBe(true);
  });

  it('reads the Query sheet: the exact filter JSON and the split', () => {
    const q = new Map((sheets.get('Query') ?? []).map((r) => [r[0], r[1]]));
    expect(JSON.parse(q.get('filter') ?? 'null')).toEqual(sampleQuery.filter);
    expect(q.get('rows_exported')).toBe('300');
    expect(q.get('total_reported')).toBe('123456');
    expect(q.get('data_sheets')).toBe('Shipments, Shipments (2), Shipments (3)');
    expect(q.get('hs_codes')).toBe('8471, 6109');
  });
});
