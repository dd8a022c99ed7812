import { describe, expect, it } from 'vitest';
import { wholeRowsHeight, type RowSpan } from '../../src/renderer/src/features/filters/whole-rows';

/** Rows of `per` fields, each `h` high with `gap` between rows, from the top. */
function rows(heights: number[], per: number, gap: number): RowSpan[] {
  const spans: RowSpan[] = [];
  let top = 0;
  for (const h of heights) {
    for (let i = 0; i < per; i++) spans.push({ top, bottom: top + h });
    top += h + gap;
  }
  return spans;
}

describe('the filter area ends between fields', () => {
  it('keeps the whole limit when every field fits', () => {
    expect(wholeRowsHeight(rows([50, 50], 3, 4), 104, 340)).toBe(340);
  });

  it('ends at the last row that fits whole, not inside the next one', () => {
    // Rows end at 50, 104, 158, 212, 266, 320, 374: a limit of 340 cuts the seventh row's label off.
    expect(wholeRowsHeight(rows([50, 50, 50, 50, 50, 50, 50], 2, 4), 374, 340)).toBe(320);
  });

  it('does not end where a taller field of the same row still goes on', () => {
    const spans: RowSpan[] = [
      { top: 0, bottom: 50 },
      { top: 0, bottom: 120 }, // a picker grown with its pills
      { top: 124, bottom: 174 },
    ];
    expect(wholeRowsHeight(spans, 174, 100)).toBe(100);
    expect(wholeRowsHeight(spans, 174, 150)).toBe(120);
  });

  it('keeps the limit when not even the first field fits', () => {
    expect(wholeRowsHeight([{ top: 0, bottom: 300 }], 300, 190)).toBe(190);
  });
});
