import { parseHsNomenclature, type HsRow } from '@shared/reference/hs-nomenclature';

/** One row of the HS nomenclature (resources/data/hs-codes.csv). */
export type HsEntry = HsRow;

export interface HsIndex {
  entries: HsEntry[];
  byCode: Map<string, HsEntry>;
  /** Lower-cased descriptions, parallel to `entries`, so a search does not lower-case 7,000 strings each keystroke. */
  haystack: string[];
}

export function buildHsIndex(csvText: string): HsIndex {
  const entries: HsEntry[] = parseHsNomenclature(csvText);
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
