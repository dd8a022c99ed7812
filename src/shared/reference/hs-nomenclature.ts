import { parseCsv } from '../csv';

/** One row of the HS nomenclature file (`section,hscode,description,parent,level`). */
export interface HsRow {
  section: string;
  code: string;
  description: string;
  parent: string;
  level: number;
}

/**
 * The rows of `hs-codes.csv` whose code is all digits (chapters, headings, subheadings), in file order;
 * the file's roots point at "TOTAL" and are not usable as filters. Throws on a file without the columns.
 */
export function parseHsNomenclature(csvText: string): HsRow[] {
  const parsed = parseCsv(csvText);
  if (!parsed.ok) throw new Error(`the HS code file is not valid CSV: ${parsed.message}`);
  const [header = [], ...rows] = parsed.rows;
  const col = (name: string) => header.indexOf(name);
  const [cSection, cCode, cDesc, cParent, cLevel] = [
    'section',
    'hscode',
    'description',
    'parent',
    'level',
  ].map(col);
  if (cCode === undefined || cCode < 0 || cDesc === undefined || cDesc < 0) {
    throw new Error('the HS code file has no hscode and description columns');
  }
  const out: HsRow[] = [];
  for (const r of rows) {
    const code = (r[cCode] ?? '').trim();
    if (!/^\d+$/.test(code)) continue;
    out.push({
      section: cSection !== undefined && cSection >= 0 ? (r[cSection] ?? '') : '',
      code,
      description: (r[cDesc] ?? '').trim(),
      parent: cParent !== undefined && cParent >= 0 ? (r[cParent] ?? '') : '',
      level: cLevel !== undefined && cLevel >= 0 ? Number(r[cLevel]) || code.length : code.length,
    });
  }
  return out;
}
