import Papa from 'papaparse';

/**
 * Reads CSV back with Papa Parse, a reader nobody on this project wrote; a final line break ends the
 * last record rather than starting an empty one.
 */
export function parseCsv(text: string): string[][] {
  const rows = Papa.parse<string[]>(text, { delimiter: ',', quoteChar: '"', skipEmptyLines: false }).data;
  const last = rows[rows.length - 1];
  if (last && last.length === 1 && last[0] === '') rows.pop();
  return rows;
}
