import Papa from 'papaparse';

export type CsvRows = { ok: true; rows: string[][] } | { ok: false; message: string };
/** Comma, or what Excel writes under European regional settings (semicolon) and as tab-separated text. */
export type CsvDelimiter = ',' | ';' | '\t';

/**
 * RFC 4180 CSV (quoted fields with commas, doubled quotes and line breaks; CRLF or LF; a leading BOM
 * dropped) through Papa Parse. Problems that would silently lose data — a quoted field that never ends
 * (a file cut off) or text after a closing quote — are reported, not guessed around.
 */
export function parseCsv(text: string, delimiter: CsvDelimiter = ','): CsvRows {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const result = Papa.parse<string[]>(input, { delimiter, quoteChar: '"', skipEmptyLines: false });
  const problem = result.errors.find((e) => e.type === 'Quotes');
  if (problem) {
    const where = problem.row !== undefined ? ` (record ${problem.row + 1})` : '';
    const message =
      problem.code === 'MissingQuotes'
        ? `a quoted field never ends${where}; the file may be cut off`
        : `unexpected text after a closing quote${where}`;
    return { ok: false, message };
  }
  return { ok: true, rows: result.data };
}
