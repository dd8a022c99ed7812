import { readFileSync } from 'node:fs';

export interface HsSubheading {
  /** Six digits. */
  code: string;
  description: string;
}

/** Parses RFC 4180 CSV text (quoted fields, doubled quotes, CRLF or LF, optional BOM). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The HS6 subheadings of `hs-codes.csv` (`section,hscode,description,parent,level`), in file order. */
export function loadHsSubheadings(csvPath: string): HsSubheading[] {
  let text: string;
  try {
    text = readFileSync(csvPath, 'utf8');
  } catch (e) {
    throw new Error(`cannot read the HS code file ${csvPath}: ${(e as Error).message}`);
  }
  const rows = parseCsv(text);
  const header = rows[0] ?? [];
  const codeCol = header.indexOf('hscode');
  const descCol = header.indexOf('description');
  const sectionCol = header.indexOf('section');
  if (codeCol < 0 || descCol < 0) throw new Error(`${csvPath}: expected columns hscode and description`);
  const out: HsSubheading[] = [];
  for (const r of rows.slice(1)) {
    const code = r[codeCol] ?? '';
    // Section TOTAL holds 999999 "not specified": not a real subheading, so no shipment gets it.
    if (/^\d{6}$/.test(code) && r[sectionCol] !== 'TOTAL') out.push({ code, description: r[descCol] ?? '' });
  }
  if (out.length === 0) throw new Error(`${csvPath}: no six-digit HS codes found`);
  return out;
}
