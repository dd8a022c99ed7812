import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemorySource, exportCsv, firmColumns, shipmentColumns } from '../../src/main/export';
import { csvLine } from '../../src/main/export/csv-writer';
import { neutraliseCsvFormula } from '@shared/csv-formula';
import { parseCsv } from '../helpers/csv-parse';
import { makeFirms, makeShipments } from '../helpers/export-records';
import { abortingAfterFirstBatch, sampleQuery } from '../helpers/export-fixtures';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-export-test-');

describe('exportCsv', () => {
  it('writes a BOM, CRLF line ends and RFC 4180 quoting, byte for byte', async () => {
    const columns = [
      { field: 'a', header: 'a', type: 'text' as const },
      { field: 'b', header: 'b "quoted", header', type: 'decimal' as const },
    ];
    const rows = [
      { a: 'plain', b: 'with,comma' },
      { a: 'quote"inside', b: 'line\nbreak' },
      { a: '', b: null },
      { a: ' N/A ', b: '1234.50' },
      { a: 'İğüşçö 中文', b: 'cr\r\nlf' },
    ];
    const out = join(t.dir, 'small.csv');
    await exportCsv(createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery }), out);
    const bytes = await readFile(out);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8')).toBe(
      '\uFEFFa,"b ""quoted"", header"\r\n' +
        'plain,"with,comma"\r\n' +
        '"quote""inside","line\nbreak"\r\n' +
        ',\r\n' +
        ' N/A ,1234.50\r\n' +
        'İğüşçö 中文,"cr\r\nlf"\r\n',
    );
  });

  it('keeps every shipment value as its original text, read back by DuckDB', async () => {
    const rows = makeShipments(500, 9);
    const columns = shipmentColumns();
    const out = join(t.dir, 'shipments.csv');
    const result = await exportCsv(
      createMemorySource({ kind: 'shipments', columns, rows, query: sampleQuery, batchSize: 77 }),
      out,
    );
    expect(result.rowsWritten).toBe(500);

    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const reader = await conn.run(
        `SELECT * FROM read_csv('${out}', header = true, all_varchar = true, quote = '"', escape = '"', delim = ',', strict_mode = true)`,
      );
      expect(reader.columnNames()).toEqual(columns.map((c) => c.header));
      const back = await reader.getRowObjectsJson();
      expect(back.length).toBe(500);
      rows.forEach((source, r) => {
        for (const c of columns) {
          // DuckDB reads an empty unquoted field as NULL; formula-like text carries its escaping quote.
          expect(back[r]?.[c.field] ?? '', `row ${r} ${c.field}`).toBe(
            neutraliseCsvFormula(source[c.field]!),
          );
        }
      });
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    // And our own reader agrees on the shape, BOM stripped.
    const parsed = parseCsv((await readFile(out, 'utf8')).slice(1));
    expect(parsed.length).toBe(501);
    expect(parsed.every((r) => r.length === columns.length)).toBe(true);
  });

  it('writes firm counts as whole numbers and unknown counts as empty fields', async () => {
    const rows = makeFirms(40);
    const out = join(t.dir, 'firms.csv');
    await exportCsv(
      createMemorySource({ kind: 'firms', columns: firmColumns(), rows, query: sampleQuery }),
      out,
    );
    const parsed = parseCsv((await readFile(out, 'utf8')).slice(1));
    const col = (parsed[0] ?? []).indexOf('shipment_count');
    rows.forEach((r, i) => {
      const v = r['shipment_count'];
      expect(parsed[i + 1]?.[col]).toBe(v === null ? '' : String(v));
    });
  });

  it('fails, rather than waiting forever, when the file cannot be written', async () => {
    const source = createMemorySource({
      kind: 'shipments',
      columns: shipmentColumns(),
      rows: makeShipments(3_000),
      query: sampleQuery,
    });
    await expect(exportCsv(source, join(t.dir, 'missing-folder', 'x.csv'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('leaves no file when cancelled and never replaces a file unless asked', async () => {
    const controller = new AbortController();
    const rows = makeShipments(100);
    const source = abortingAfterFirstBatch(rows, controller);
    await expect(
      exportCsv(source, join(t.dir, 'c.csv'), { signal: controller.signal }),
    ).rejects.toMatchObject({ kind: 'Cancelled' });
    expect(await t.files()).toEqual([]);

    const taken = join(t.dir, 'taken.csv');
    await writeFile(taken, 'keep me');
    const small = createMemorySource({
      kind: 'shipments',
      columns: shipmentColumns(),
      rows: rows.slice(0, 3),
      query: sampleQuery,
    });
    await expect(exportCsv(small, taken)).rejects.toMatchObject({ kind: 'Conflict' });
    expect(await readFile(taken, 'utf8')).toBe('keep me');
    await exportCsv(small, taken, { overwrite: true });
    expect(parseCsv((await readFile(taken, 'utf8')).slice(1)).length).toBe(4);
    expect(await t.files()).toEqual(['taken.csv']);
  });
});

describe('csvLine', () => {
  it('round-trips any text, quotes, commas and line breaks included', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('"', ',', '\r\n', '\n', '\r', 'İ', '中', ' '),
    );
    const field = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const width = rows[0]?.length ?? 0;
          const table = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
          expect(parseCsv(table.map(csvLine).join(''))).toEqual(table);
        },
      ),
      { numRuns: 200 },
    );
  });
});
