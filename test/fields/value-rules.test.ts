import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SHIPMENT_COLUMNS,
  SHIPMENT_FIELD_DEFS,
  exactDecimalShape,
  fieldTitleOf,
  fieldTypeOf,
  formatDecimal,
  parseDecimalText,
  parseIsoDay,
} from '@shared/fields';
import { dateExpression, decimalExpression } from '../../src/main/library/fields';
import { parseDecimalText as excelNumber } from '../../src/main/export/cell-values';
import {
  DEFAULT_VISIBLE,
  parseDecimal,
  parseDay,
} from '../../src/renderer/src/components/grid/shipment-columns';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

/** What the library's SQL makes of each text, in one query. */
async function sqlNumbers(texts: readonly string[]): Promise<(number | null)[]> {
  const reader = await conn.runAndReadAll(
    `SELECT ${decimalExpression('v')} AS n FROM (SELECT unnest($1::VARCHAR[]) AS v, generate_subscripts($1::VARCHAR[], 1) AS i) ORDER BY i`,
    [`[${texts.map((t) => `'${t.replace(/'/g, "''")}'`).join(',')}]`],
  );
  return reader.getRowObjectsJS().map((r) => (r.n === null ? null : Number(r.n)));
}

async function sqlDays(texts: readonly string[]): Promise<(string | null)[]> {
  const reader = await conn.runAndReadAll(
    `SELECT CAST(${dateExpression('v')} AS VARCHAR) AS d FROM (SELECT unnest($1::VARCHAR[]) AS v, generate_subscripts($1::VARCHAR[], 1) AS i) ORDER BY i`,
    [`[${texts.map((t) => `'${t.replace(/'/g, "''")}'`).join(',')}]`],
  );
  return reader.getRowObjectsJS().map((r) => (r.d === null ? null : String(r.d)));
}

const NUMBERS: readonly [string, number | null][] = [
  ['1234.50', 1234.5],
  ['1,234.50', 1234.5],
  ['12,345,678', 12345678],
  ['-1,234', -1234],
  ['  42 ', 42],
  ['\t7\n', 7],
  ['.5', 0.5],
  ['5.', 5],
  ['+3', 3],
  ['1.5e3', 1500],
  ['0012', 12],
  ['12,5', null],
  ['1,23', null],
  ['1.234,5', null],
  ['1 000', null],
  ['1_000', null],
  ['inf', null],
  ['Infinity', null],
  ['NaN', null],
  ['1e309', null],
  ['0x1F', null],
  ['12\u00a0', null],
  ['-', null],
  ['N/A', null],
  ['', null],
  ['1,234.5e3', null],
];

describe('one decimal-text rule for the search grid, the library’s SQL and the exporters', () => {
  it.each(NUMBERS)('reads %j as %s', (text, expected) => {
    expect(parseDecimalText(text)).toBe(expected);
    // The search grid's value getter is the same rule.
    expect(parseDecimal(text)).toBe(expected);
  });

  it('gives the same numbers in SQL as in JavaScript, value by value', async () => {
    const texts = NUMBERS.map(([t]) => t);
    expect(await sqlNumbers(texts)).toEqual(NUMBERS.map(([, n]) => n));
  });

  it('agrees with SQL on any text made of digits, signs, separators, blanks and letters', async () => {
    const piece = fc.constantFrom(
      '0',
      '1',
      '2',
      '5',
      '9',
      '12',
      '234',
      '999',
      ',',
      ',',
      '.',
      '-',
      '+',
      'e',
      'E',
      'n',
      'N',
      '_',
      ' ',
      '\t',
      'x',
      'a',
    );
    const texts = fc.sample(
      fc.array(piece, { minLength: 1, maxLength: 8 }).map((p) => p.join('')),
      3000,
    );
    const sql = await sqlNumbers(texts);
    const mismatches = texts
      .map((t, i) => ({ t, js: parseDecimalText(t), sql: sql[i] }))
      .filter((m) => m.js !== m.sql && !(Object.is(m.js, -0) && m.sql === 0));
    expect(mismatches).toEqual([]);
  });

  it('writes thousands-comma text to Excel as the number it is', () => {
    expect(excelNumber('1,234.50')).toBe(1234.5);
    expect(excelNumber('12,5')).toBeNull();
  });
});

describe('days and exact decimal shapes', () => {
  it('reads only real yyyy-MM-dd days, the same in SQL', async () => {
    const texts = [
      '2024-02-29',
      ' 2024-01-05 ',
      '2023-02-29',
      '2024-1-5',
      '2024/01/05',
      '31.12.2025',
      '2024-01-05T10:00',
    ];
    const js = texts.map((t) => {
      const d = parseIsoDay(t);
      return d ? `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` : null;
    });
    expect(js).toEqual(['2024-02-29', '2024-01-05', null, null, null, null, null]);
    expect(await sqlDays(texts)).toEqual(js);
    expect(parseDay('2023-02-30')).toBeNull();
  });

  it('knows which decimal texts a number and a format give back exactly', () => {
    expect(exactDecimalShape('1,234.50')).toEqual({ value: 1234.5, decimals: 2, grouped: true });
    expect(exactDecimalShape('1234.50')).toEqual({ value: 1234.5, decimals: 2, grouped: false });
    expect(exactDecimalShape('-0.125')).toEqual({ value: -0.125, decimals: 3, grouped: false });
    for (const odd of ['.5', '+5', '-0', '1e3', ' 5', '007', '1234567890123456', '12,5'])
      expect(exactDecimalShape(odd)).toBeNull();
    expect(formatDecimal({ value: -1234567.5, decimals: 1, grouped: true })).toBe('-1,234,567.5');
  });
});

describe('the field model', () => {
  it('types every shipment field once, epochs before decimals', () => {
    expect(fieldTypeOf('shipments', 'createdAt')).toBe('epoch');
    expect(fieldTypeOf('shipments', 'usdFob')).toBe('decimal');
    expect(fieldTypeOf('shipments', 'arrivalDate')).toBe('date');
    expect(fieldTypeOf('firms', 'shipment_count')).toBe('integer');
    expect(fieldTypeOf('shipments', 'Something Else')).toBe('text');
    expect(SHIPMENT_FIELD_DEFS).toHaveLength(88);
  });

  it('names fields in the grid’s words when they stand alone', () => {
    expect(fieldTitleOf('shipments', 'usdFob')).toBe('USD FOB');
    expect(fieldTitleOf('shipments', 'importerName')).toBe('Importer Name');
    expect(fieldTitleOf('shipments', 'exporterTel')).toBe('Exporter Tel.');
    // Names read as analysts write them, not word by word from the field's name.
    expect(fieldTitleOf('shipments', 'importerCityState')).toBe('Importer City / State');
    expect(fieldTitleOf('shipments', 'billOfLadingNo')).toBe('Bill of Lading No.');
    expect(fieldTitleOf('shipments', 'portOfArrival')).toBe('Port of Arrival');
    expect(fieldTitleOf('shipments', 'countryOfOrigin')).toBe('Country of Origin');
    expect(fieldTitleOf('shipments', 'conditionNewUsed')).toBe('Condition (New / Used)');
    expect(fieldTitleOf('shipments', 'exporterLinkedin')).toBe('Exporter LinkedIn');
    expect(fieldTitleOf('shipments', 'itemNo')).toBe('Item No.');
    expect(fieldTitleOf('firms', 'shipment_count')).toBe('Shipments');
  });

  it('has one default column list, the one the grids show', () => {
    expect(DEFAULT_VISIBLE).toBe(DEFAULT_SHIPMENT_COLUMNS);
  });
});
