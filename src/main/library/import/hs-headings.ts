import { readFile } from 'node:fs/promises';
import { parseHsNomenclature } from '@shared/reference/hs-nomenclature';

/**
 * The HS headings (4 digits) of the nomenclature file (`hs-codes.csv`): what tells an HS code that
 * lost its leading zero in a spreadsheet from a national code of an odd length (convert.ts).
 */
export async function loadHsHeadings(csvPath: string): Promise<string[]> {
  return parseHsNomenclature(await readFile(csvPath, 'utf8'))
    .filter((r) => r.code.length === 4)
    .map((r) => r.code);
}
