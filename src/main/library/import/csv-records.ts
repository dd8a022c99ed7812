import { parseCsv, type CsvDelimiter } from '@shared/csv';
import { restoreCsvFormulaText } from '@shared/csv-formula';
import { findColumn } from '../fields';
import type { RecordObject } from '../ingest';
import { detectKind } from './detect';
import { NO_RECORDS, refuse, type Parsed } from './parsed';

const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];
/** Excel's own hint line ("sep=;") that some European exports start with. */
const SEP_LINE = /^sep=([,;\t])\r?\n/;

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end < 0 ? text : text.slice(0, end)).replace(/\r$/, '');
}

function headerNames(line: string, delimiter: CsvDelimiter): string[] | null {
  const parsed = parseCsv(line, delimiter);
  return parsed.ok ? (parsed.rows[0] ?? []).map((h) => h.trim()) : null;
}

/**
 * The separator, read from the header line: the one that splits it into shipment or firm field
 * names. Excel writes commas, or semicolons under European regional settings, and tabs as "Unicode
 * text". When none does, the one that splits the line into the most names, so that the complaint
 * about the header quotes sensible column names.
 */
export function detectDelimiter(headerLine: string): CsvDelimiter {
  let best: CsvDelimiter = ',';
  let most = 0;
  for (const d of DELIMITERS) {
    const names = headerNames(headerLine, d);
    if (!names) continue;
    if (detectKind(names)) return d;
    if (names.length > most) {
      most = names.length;
      best = d;
    }
  }
  return best;
}

function isBlank(row: readonly string[]): boolean {
  return row.every((cell) => cell === '');
}

/**
 * A CSV whose header row holds the spec's field names (what Portolan's CSV export writes), separated
 * by commas, semicolons or tabs. Text the exporter escaped against formula injection is restored.
 */
export function parseCsvRecords(text: string, file: string): Parsed {
  let body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let delimiter: CsvDelimiter | null = null;
  const sep = SEP_LINE.exec(body);
  if (sep) {
    delimiter = sep[1] as CsvDelimiter;
    body = body.slice(sep[0].length);
  }
  delimiter ??= detectDelimiter(firstLine(body));
  const csv = parseCsv(body, delimiter);
  if (!csv.ok) throw refuse(file, csv.message);
  const rows = csv.rows;
  // Trailing empty lines, and the rows of only separators a spreadsheet leaves after the data, are not records.
  while (rows.length > 1 && isBlank(rows[rows.length - 1]!)) rows.pop();
  const header = rows[0];
  if (!header || isBlank(header)) throw refuse(file, 'the file is empty');
  const names = header.map((h) => restoreCsvFormulaText(h).trim());
  if (new Set(names).size !== names.length) throw refuse(file, 'the header row names a column twice');
  const kind = detectKind(names);
  if (!kind) {
    throw refuse(
      file,
      // The file's own header is not repeated: an error never echoes what a file holds.
      `its header row does not hold shipment or firm field names; the first row ` +
        'must name the columns exactly as the service does, like importerName, arrivalDate (shipments) or name, country (firms)',
    );
  }
  if (rows.length === 1) throw refuse(file, `${NO_RECORDS} (it has a header row and nothing else)`);
  const integer = names.map((n) => findColumn(kind, n)?.type === 'integer');
  const records: RecordObject[] = [];
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r]!;
    if (cells.length !== names.length) {
      throw refuse(
        file,
        `row ${r + 1} has ${cells.length} cells but the header has ${names.length}; the file may be cut off, or a value holds an unquoted separator`,
      );
    }
    const rec: RecordObject = {};
    for (let c = 0; c < names.length; c++) {
      const name = names[c]!;
      const cell = restoreCsvFormulaText(cells[c]!);
      if (!integer[c]) {
        rec[name] = cell;
        continue;
      }
      const whole = cell.trim();
      if (whole === '') rec[name] = null;
      else if (/^-?\d+$/.test(whole)) rec[name] = Number(whole);
      else throw refuse(file, `row ${r + 1}, ${name}: the value is not a whole number`);
    }
    records.push(rec);
  }
  return { kind, records, locate: (i) => `row ${i + 2}` };
}
