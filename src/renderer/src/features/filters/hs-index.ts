/** One row of the HS nomenclature (resources/data/hs-codes.csv). */
export interface HsEntry {
  code: string;
  description: string;
  parent: string;
  level: number;
  section: string;
}

export interface HsIndex {
  entries: HsEntry[];
  byCode: Map<string, HsEntry>;
  /** Lower-cased descriptions, parallel to `entries`, so a search does not lower-case 7,000 strings each keystroke. */
  haystack: string[];
}

/** RFC 4180 fields: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export function buildHsIndex(csvText: string): HsIndex {
  const rows = parseCsv(csvText);
  const header = rows[0] ?? [];
  const col = (name: string) => header.indexOf(name);
  const [cSection, cCode, cDesc, cParent, cLevel] = ['section', 'hscode', 'description', 'parent', 'level'].map(col);
  const entries: HsEntry[] = [];
  for (const r of rows.slice(1)) {
    const code = r[cCode ?? -1]?.trim() ?? '';
    // The file's chapter roots point at "TOTAL"; only real digit codes are usable as filters.
    if (!/^\d+$/.test(code)) continue;
    entries.push({
      code,
      description: r[cDesc ?? -1] ?? '',
      parent: r[cParent ?? -1] ?? '',
      level: Number(r[cLevel ?? -1] ?? code.length),
      section: r[cSection ?? -1] ?? '',
    });
  }
  entries.sort((a, b) => a.level - b.level || a.code.localeCompare(b.code));
  return {
    entries,
    byCode: new Map(entries.map((e) => [e.code, e])),
    haystack: entries.map((e) => e.description.toLowerCase()),
  };
}

/**
 * Codes by code prefix ("7208") or by description words ("hot rolled steel": every word must
 * appear). Broader codes (chapters, then headings) come first, since they are the likelier filters.
 */
export function searchHs(index: HsIndex, query: string, limit = 50): HsEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  if (/^\d+$/.test(q)) {
    return index.entries.filter((e) => e.code.startsWith(q)).slice(0, limit);
  }
  const words = q.split(/\s+/).filter(Boolean);
  const out: HsEntry[] = [];
  for (let i = 0; i < index.entries.length && out.length < limit; i++) {
    const h = index.haystack[i] as string;
    if (words.every((w) => h.includes(w))) out.push(index.entries[i] as HsEntry);
  }
  return out;
}

/** The description of a code, or of its nearest known parent for a longer national code. */
export function describeHs(index: HsIndex, code: string): string | null {
  if (!/^\d+$/.test(code)) return null;
  for (let n = code.length; n >= 2; n--) {
    const e = index.byCode.get(code.slice(0, n));
    if (e) return n === code.length ? e.description : `${e.description} (under ${e.code})`;
  }
  return null;
}
