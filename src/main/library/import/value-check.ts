import type { ImportWarningView } from '@shared/library/library-contract';
import { columnsOf, type ColumnType, type DatasetKind } from '../fields';
import type { RecordObject } from '../ingest';

export type ImportWarning = ImportWarningView;

/**
 * Dates and numbers are stored as the text they came as and read as dates and numbers only when
 * sorted or filtered (fields.ts), so a value in another format imports fine and then quietly sorts
 * last and drops out of every filter. This check decides what is said about such values:
 *
 * - Empty text and fillers without a digit ("-", "N/A") are how the service says "no data": fine.
 * - A date or number in a regional spreadsheet format ("31/12/2023", "31.12.2023", "1.234,5", "12,5",
 *   "1,234") means the whole file went through a spreadsheet's regional settings. Every such column
 *   would be useless, so the import is refused, naming the row and column, and nothing is stored.
 * - Any other value with digits that is not in the spec's format (an impossible date, "12 KG") is the
 *   odd value the service itself sometimes sends: refusing would make such a dataset impossible to
 *   export and import again, so it is imported and counted in the result's warnings.
 */

const PLAIN_NUMBER = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const REGIONAL_DATE = /^(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|\d{4})|\d{4}[./]\d{1,2}[./]\d{1,2})$/;
const REGIONAL_NUMBER =
  /^[+-]?(?:\d+,\d+|\d{1,3}(?:[. \u00a0\u202f']\d{3})+(?:,\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?)$/;
const DIGIT = /\d/;
const EXAMPLE_CHARS = 40;

type Verdict = 'ok' | 'regional' | 'odd';

function isCalendarDay(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function judge(type: ColumnType, value: unknown): Verdict {
  // Most values are empty or plain: settle those before any trimming or second pattern.
  if (typeof value !== 'string' || value === '') return 'ok';
  if (type !== 'date' && PLAIN_NUMBER.test(value)) return 'ok';
  const text = value.trim();
  if (text === '' || !DIGIT.test(text)) return 'ok';
  if (type === 'date') {
    if (isCalendarDay(text)) return 'ok';
    return REGIONAL_DATE.test(text) ? 'regional' : 'odd';
  }
  return REGIONAL_NUMBER.test(text) ? 'regional' : 'odd';
}

function example(value: string): string {
  return value.length > EXAMPLE_CHARS ? `${value.slice(0, EXAMPLE_CHARS)}…` : value;
}

/** Names where the value is, never the value: an error must not echo a file's content. */
function regionalProblem(type: ColumnType, field: string, at: string): string {
  const shown = `${at}, ${field}`;
  if (type === 'date') {
    return (
      `${shown} is a date in a regional format, but dates must be written as yyyy-MM-dd (like 2023-12-31). ` +
      'The file was probably saved by a spreadsheet with regional date settings: format the date columns as ' +
      'yyyy-mm-dd (or import the .xlsx export instead) and import again'
    );
  }
  return (
    `${shown} is a number with thousands separators or a decimal comma, but numbers must be plain, with a ` +
    'decimal point (like 1234.5). The file was probably saved by a spreadsheet with regional number settings: ' +
    'format the number columns without separators and with a decimal point (or import the .xlsx export instead) ' +
    'and import again'
  );
}

function warningText(type: ColumnType, field: string, count: number, at: string, value: string): string {
  const one = count === 1;
  const what =
    type === 'date'
      ? one
        ? 'a date written as yyyy-MM-dd'
        : 'dates written as yyyy-MM-dd'
      : type === 'epoch'
        ? one
          ? 'a Unix time in seconds'
          : 'Unix times in seconds'
        : one
          ? 'a plain number'
          : 'plain numbers';
  const use = type === 'date' ? 'date' : 'number';
  const values = one ? '1 value is' : `${count.toLocaleString('en-US')} values are`;
  return (
    `${field}: ${values} not ${what} (first: ${at}, "${example(value)}"). ${one ? 'It was' : 'They were'} imported as text: ` +
    `${one ? 'it sorts' : 'they sort'} last and ${one ? 'is' : 'are'} left out by ${use} filters`
  );
}

export type ValueCheck = { ok: true; warnings: ImportWarning[] } | { ok: false; problem: string };

/**
 * Checks the date and number fields of records about to be imported. `locate(i)` names record i the
 * way the analyst finds it in the file ("row 12", "record 3").
 */
export function checkValueFormats(
  kind: DatasetKind,
  records: readonly RecordObject[],
  locate: (index: number) => string,
): ValueCheck {
  const typed = columnsOf(kind).filter(
    (c) => c.type === 'date' || c.type === 'decimal' || c.type === 'epoch',
  );
  const counts = new Array<number>(typed.length).fill(0);
  const firsts = new Array<number>(typed.length).fill(-1);
  // Record by record, not column by column: records are large objects, and reading each once is
  // about twice as fast as walking every record again for every column.
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    for (let c = 0; c < typed.length; c++) {
      const col = typed[c]!;
      const value = rec[col.field];
      const verdict = judge(col.type, value);
      if (verdict === 'ok') continue;
      if (verdict === 'regional')
        return { ok: false, problem: regionalProblem(col.type, col.field, locate(i)) };
      if (firsts[c]! < 0) firsts[c] = i;
      counts[c]!++;
    }
  }
  const warnings: ImportWarning[] = [];
  typed.forEach((col, c) => {
    const count = counts[c]!;
    if (count === 0) return;
    const first = firsts[c]!;
    const value = String(records[first]![col.field]);
    const at = locate(first);
    warnings.push({
      field: col.field,
      count,
      firstAt: at,
      example: example(value),
      message: warningText(col.type, col.field, count, at, value),
    });
  });
  return { ok: true, warnings };
}
