import { readFileSync } from 'node:fs';
import { parseHsNomenclature, type HsRow } from '@shared/reference/hs-nomenclature';

export interface HsSubheading {
  /** Six digits. */
  code: string;
  description: string;
}

/** The HS6 subheadings of `hs-codes.csv` (`section,hscode,description,parent,level`), in file order. */
export function loadHsSubheadings(csvPath: string): HsSubheading[] {
  let text: string;
  try {
    text = readFileSync(csvPath, 'utf8');
  } catch (e) {
    throw new Error(`cannot read the HS code file ${csvPath}: ${(e as Error).message}`);
  }
  let rows: HsRow[];
  try {
    rows = parseHsNomenclature(text);
  } catch (e) {
    throw new Error(`${csvPath}: ${(e as Error).message}`);
  }
  // Section TOTAL holds 999999 "not specified": not a real subheading, so no shipment gets it.
  const out: HsSubheading[] = rows
    .filter((r) => r.code.length === 6 && r.section !== 'TOTAL')
    .map((r) => ({ code: r.code, description: r.description }));
  if (out.length === 0) throw new Error(`${csvPath}: no six-digit HS codes found`);
  return out;
}
