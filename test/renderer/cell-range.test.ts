import { describe, expect, it } from 'vitest';
import { COUNT, MONEY, WEIGHT } from '@shared/fields';
import {
  cellCount,
  collapsedRange,
  extendRange,
  inBounds,
  rangeBounds,
  summarise,
  toTsv,
  tsvField,
} from '../../src/renderer/src/components/grid/cell-range';

const COLS = ['importerName', 'hsCode', 'usdFob', 'grossWeight', 'packageAmount'];

describe('cell range', () => {
  it('a click selects one cell; Shift+click or a drag spans the block between anchor and focus, either way round', () => {
    const one = collapsedRange({ row: 4, col: 'usdFob' });
    expect(rangeBounds(one, COLS)).toEqual({ top: 4, bottom: 4, cols: ['usdFob'] });
    const up = extendRange(one, { row: 1, col: 'hsCode' });
    expect(up.anchor).toEqual({ row: 4, col: 'usdFob' });
    const b = rangeBounds(up, COLS);
    expect(b).toEqual({ top: 1, bottom: 4, cols: ['hsCode', 'usdFob'] });
    expect(b && cellCount(b)).toBe(8);
    expect(inBounds(b, 2, 'hsCode')).toBe(true);
    expect(inBounds(b, 5, 'hsCode')).toBe(false);
    expect(inBounds(b, 2, 'grossWeight')).toBe(false);
    // Extending again keeps the first anchor.
    const down = extendRange(up, { row: 6, col: 'packageAmount' });
    expect(rangeBounds(down, COLS)).toEqual({
      top: 4,
      bottom: 6,
      cols: ['usdFob', 'grossWeight', 'packageAmount'],
    });
    // No range yet: the new cell is the anchor.
    expect(extendRange(null, { row: 2, col: 'hsCode' })).toEqual(collapsedRange({ row: 2, col: 'hsCode' }));
  });

  it('follows the grid’s column order (a moved column), and has no block once a column of it is hidden', () => {
    const r = extendRange(collapsedRange({ row: 0, col: 'importerName' }), { row: 1, col: 'usdFob' });
    expect(rangeBounds(r, ['usdFob', 'hsCode', 'importerName'])?.cols).toEqual([
      'usdFob',
      'hsCode',
      'importerName',
    ]);
    expect(rangeBounds(r, ['hsCode', 'importerName'])).toBeNull();
  });

  it('writes tab-separated text Excel pastes: tabs between cells, CRLF between rows, quotes only where needed', () => {
    expect(tsvField('plain, text')).toBe('plain, text');
    expect(tsvField('two\nlines')).toBe('"two\nlines"');
    expect(tsvField('a\tb')).toBe('"a\tb"');
    expect(tsvField('12" pipe')).toBe('"12"" pipe"');
    expect(
      toTsv([
        ['ACME', '1234.5'],
        ['Line\r\nbreak', ''],
      ]),
    ).toBe('ACME\t1234.5\r\n"Line\r\nbreak"\t');
  });

  it('sums and averages the numbers of a selection; text and empty cells count as cells, not as numbers', () => {
    const s = summarise([
      { value: 1000.5, display: MONEY },
      { value: 250.25, display: MONEY },
      { value: null, display: MONEY },
      { value: 'ACME' },
      { value: 1234567, display: MONEY },
    ]);
    expect(s.cells).toBe(5);
    expect(s.numbers).toBe(3);
    expect(s.sum).toBeCloseTo(1235817.75, 6);
    expect(s.sumText).toBe('1,235,817.75');
    expect(s.average).toBeCloseTo(411939.25, 6);
    expect(s.averageText).toBe('411,939.25');
  });

  it('shows the figures with the decimals of the fields summed; an average of counts with 2', () => {
    const counts = summarise([
      { value: 3, display: COUNT },
      { value: 4, display: COUNT },
    ]);
    expect(counts.sumText).toBe('7');
    expect(counts.averageText).toBe('3.50');
    const mixed = summarise([
      { value: 0.1, display: MONEY },
      { value: 0.2, display: WEIGHT },
    ]);
    // 0.1 + 0.2 is 0.30000000000000004 in binary: shown as the fields show it.
    expect(mixed.sumText).toBe('0.300');
    const none = summarise([{ value: 'x' }, { value: '' }]);
    expect(none).toMatchObject({ cells: 2, numbers: 0, average: null, averageText: '' });
  });
});
