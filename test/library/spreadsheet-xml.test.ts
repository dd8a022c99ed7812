import { describe, expect, it } from 'vitest';
import {
  NO_RESULT,
  SheetRowScanner,
  parseRow,
  type SheetRow,
} from '../../src/main/library/import/xlsx/spreadsheet-xml';

const shared = ['first shared', 'second & shared'];

function rowsOf(xml: string, pieces: number): SheetRow[] {
  const scanner = new SheetRowScanner(shared);
  const out: SheetRow[] = [];
  const size = Math.ceil(xml.length / pieces);
  for (let i = 0; i < xml.length; i += size) scanner.push(xml.slice(i, i + size), out);
  return out;
}

describe('the sheet reader', () => {
  it('reads the cells every writer produces: addressed or not, attributes in any order or quotes', () => {
    const row = parseRow(
      '<c r="A2" t="str"><v>Adriatica &amp; Co_x000D_</v></c><c s="4"><v>17617.21</v></c>' +
        `<c t='s' s='2' r='D2'><v>1</v></c><c r="E2" s="3"/><c t="b"><v>1</v></c>` +
        '<c t="e"><v>#N/A</v></c><c><v> </v></c><c r="AB2"></c><c t="s"><v>0</v></c>',
      2,
      shared,
    );
    expect(row.number).toBe(2);
    expect(row.values[0]).toBe('Adriatica & Co\r');
    expect(row.values[1]).toBe(17617.21);
    expect(row.values[2]).toBeUndefined();
    expect(row.values[3]).toBe('second & shared');
    expect(row.values[4]).toBeUndefined();
    expect(row.values.slice(5, 8)).toEqual([true, '#N/A', null]);
    expect(row.values[27]).toBeNull();
    expect(row.values[28]).toBe('first shared');
    expect(row.styles[1]).toBe(4);
    expect(row.styles[3]).toBe(2);
    expect(row.styles[4]).toBe(3);
  });

  it('reads formulas, inline strings and prefixed elements the way it reads plain cells', () => {
    const row = parseRow(
      '<x:c r="A3"><x:f>B3*2</x:f><x:v>12</x:v></x:c><x:c r="B3"><x:f>C3*2</x:f></x:c>' +
        '<x:c r="C3" t="inlineStr"><x:is><x:t>inline</x:t></x:is></x:c><x:c r="D3" t="str"><x:v>text</x:v></x:c>',
      3,
      shared,
      'x:',
    );
    expect(row.values).toEqual([12, NO_RESULT, 'inline', 'text']);
  });

  it('gives the same rows whatever pieces the text arrives in', () => {
    const body = Array.from(
      { length: 50 },
      (_, i) =>
        `<row r="${i + 1}"><c r="A${i + 1}" t="str"><v>name ${i}</v></c><c s="1"><v>${i}.5</v></c>` +
        `<c r="C${i + 1}"><f>A1</f><v>${i}</v></c></row>`,
    ).join('');
    const xml = `<worksheet><sheetData>${body}</sheetData></worksheet>`;
    const whole = rowsOf(xml, 1);
    expect(whole).toHaveLength(50);
    expect(whole[49]!.values).toEqual(['name 49', 49.5, 49]);
    expect(rowsOf(xml, 97)).toEqual(whole);
  });
});
