/**
 * Turns a file's raw rows into the library's columns under a confirmed plan: each mapped column into
 * its field's text (numbers read through their cell format, spreadsheet dates into yyyy-MM-dd or Unix
 * seconds, decimal commas and day-first dates under the confirmed locale), every other column into
 * an extra column. Counts what the analyst must hear about (odd values, formulas without a stored
 * result, HS codes that lost their leading zeros, blank lines skipped, the file's totals rows left
 * out). Runs in the import worker.
 */
import {
  fieldDefsOf,
  fieldTitleOf,
  fieldTypeOf,
  formatDecimal,
  isCalendarDay,
  isoDateTimeFromSerial,
  isoDayFromSerial,
  parseIsoDay,
  secondsTextFromSerial,
  type DatasetKind,
  type FieldType,
} from '@shared/fields';
import type { ImportLocale, ImportPlan, UnnamedColumnFound } from '@shared/library/import-contract';
import type { ImportWarningView } from '@shared/library/library-contract';
import { columnLetters } from '@shared/spreadsheet-columns';
import { decimalShadow } from '../shadows';
import { COUNTRY_CODE_FIELDS, countryCodeOf } from './country-codes';
import { dayOfTimestamp, withoutCurrency, withoutMidnight, withTrailingMinus } from './mapping';
import type { RawRow } from './table-types';
import { NO_RESULT, type CellValue } from './xlsx/spreadsheet-xml';
import type { NumberFormat } from './xlsx/workbook';

export type StoredValue = string | number | null;

/** One batch ready for the library: a value array per field of the kind, the extras as JSON text. */
export interface ConvertedBatch {
  n: number;
  columns: StoredValue[][];
  extras: (string | null)[];
  /** The row of the file each record came from (the preview shows a left-out column's cells by them). */
  rowNumbers: number[];
}

const PLAIN_FORMAT = /^(#,##0|0)(?:\.(0+))?$/;

/** The label of a totals row: "Total", "Totals:", "Grand total", "Subtotal", "Sub-total", "Sum". */
export const TOTALS_LABEL = /^\s*(?:(?:grand\s+|sub-?\s*)?totals?|sum)\s*:?\s*$/i;

/** Text that is a number as a report writes one: signs, currency, grouping, percent, parentheses. */
const NUMBER_TEXT = /^\s*[(+-]?\s*[$€£¥]?\s*\d[\d.,' \u00a0]*\s*%?\)?\s*$/;

/** What a report writes in a cell it has no number for: a dash, "n/a". */
const FILLER = /^\s*(?:[-\u2013\u2014]|n\/?a)\s*$/i;

/** The number a report's text stands for ("$1,022.50", "(12)", "1.234,5" with decimal commas); NaN if none. */
function reportNumber(text: string, decimal: ImportLocale['decimal']): number {
  let t = text.replace(/[\s$€£¥'%\u00a0]/g, '');
  const negative = /^\(.*\)$/.test(t);
  if (negative) t = t.slice(1, -1);
  t = decimal === ',' ? (fromDecimalComma(t) ?? t) : t.replace(/,/g, '');
  const n = Number(t);
  return negative ? -n : n;
}

/** How a number format writes numbers as text: fixed decimals (grouped or not), or null for the shortest text. */
type DecimalLayout = { decimals: number; grouped: boolean } | null;

/**
 * What numberText and epochDecimals read from a format, once per format: a workbook has a handful of
 * formats and millions of number cells, and reading the code again for every cell cost a tenth of
 * the conversion.
 */
const layouts = new WeakMap<NumberFormat, { layout: DecimalLayout; epochDecimals: number }>();

function readFormat(format: NumberFormat): { layout: DecimalLayout; epochDecimals: number } {
  let read = layouts.get(format);
  if (read) return read;
  const sections = format.code.split(';');
  const m = PLAIN_FORMAT.exec(sections[0] ?? '');
  const layout: DecimalLayout =
    m && sections.length <= 2
      ? { decimals: (m[2] ?? '').length, grouped: sections.length === 2 && sections[1] === `-${sections[0]}` }
      : null;
  const empties = /((?:"")+)$/.exec(format.code);
  read = { layout, epochDecimals: empties ? empties[1]!.length / 2 - 1 : 6 };
  layouts.set(format, read);
  return read;
}

/**
 * The text a number cell stands for, read through its format: "#,##0.00" gives two decimals. A
 * format with an explicit negative section that repeats the first (`#,##0.00;-#,##0.00`, shown the
 * same) marks a number Portolan's export wrote from text with thousands commas, which comes back with
 * them; anything else is the shortest text of the number.
 */
export function numberText(n: number, format: NumberFormat | null): string {
  const layout = format ? readFormat(format).layout : null;
  if (layout && Number.isFinite(n) && Math.abs(n) < 1e15)
    return formatDecimal({ value: n, decimals: layout.decimals, grouped: layout.grouped });
  return String(n);
}

/**
 * Digits of the seconds an epoch cell stands for: Portolan's export writes a count other than the
 * service's 6 as that many plus one empty literals (`""`) after the format; otherwise 6.
 */
export function epochDecimals(format: NumberFormat | null): number {
  return format ? readFormat(format).epochDecimals : 6;
}

const COMMA_NUMBER = /^([+-]?)(\d{1,3}(?:[. \u00a0\u202f']\d{3})+|\d+)(?:,(\d+))?$/;
const PARTS_DATE = /^(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})$/;
const DIGIT = /\d/;
/** The unit field of each field whose values may be written with a unit ("1,200 kg", "40 pcs"). */
const UNIT_FIELDS: Readonly<Record<string, string>> = {
  grossWeight: 'grossWeightUnit',
  netWeight: 'netWeightUnit',
  quantity: 'quantityUnit',
};
/** A number and a unit of weight or count after it ("1,200 kg", "2.5 t", "40 pcs"). */
const WITH_UNIT =
  /^([+-]?\d[\d.,'\s\u00a0\u202f]*?)\s*(kgs?|kilos?|kilograms?|g|grams?|t|mt|tons?|tonnes?|lbs?|pounds?|pcs|pieces?|units?|cartons?|ctns?|pkgs?|packages?|bags?|boxes|box|pallets?|sets?|pairs?|doz|dozens?|m2|m3|l|litres?|liters?)\.?$/i;
/** What a decoder puts where bytes are no character of the file's encoding. */
const REPLACEMENT = '\ufffd';
/** Compared with every cell: a local binding, not a re-exported one read through its module per use. */
const NO_VALUE: typeof NO_RESULT = NO_RESULT;

/** A number written with a decimal comma ("1.234,5", "12,5") as plain text ("1234.5"); null otherwise. */
export function fromDecimalComma(text: string): string | null {
  const m = COMMA_NUMBER.exec(text.trim());
  if (!m) return null;
  const whole = m[2]!.replace(/[. \u00a0\u202f']/g, '');
  return `${m[1] === '-' ? '-' : ''}${whole}${m[3] !== undefined ? `.${m[3]}` : ''}`;
}

/** Digits grouped by thousands with spaces or apostrophes, with a decimal point: "1 234.50", "1'000" (Swiss). */
const SPACED_NUMBER = /^([+-]?)(\d{1,3}(?:[ \u00a0\u202f']\d{3})+)(\.\d+)?$/;

/** A number grouped with spaces or apostrophes and a decimal point as plain text ("1 234.50" → "1234.50"); null otherwise. */
export function fromSpacedGroups(text: string): string | null {
  const m = SPACED_NUMBER.exec(text.trim());
  return m ? `${m[1] === '-' ? '-' : ''}${m[2]!.replace(/[ \u00a0\u202f']/g, '')}${m[3] ?? ''}` : null;
}

/** A day written as yyyyMMdd ("20250105"), as ERP and customs systems export dates. */
const COMPACT_DATE = /^(19\d\d|20\d\d|2100)(\d\d)(\d\d)$/;
/** A spreadsheet's day number saved as text (a date column formatted as a number): 1954 to 2119. */
const SERIAL_DAY = /^[2-7]\d{4}$/;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A month written by its English name or abbreviation ("Jan", "Sept.", "January"). */
const MONTH_NAME = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;

/** "5-Jan-25", "05 Jan 2025", "5 January 2025": the day, then the month by name, then the year. */
const DAY_MONTH_NAME = new RegExp(String.raw`^(\d{1,2})[-\s/]+${MONTH_NAME}[-\s/,]+(\d{2}|\d{4})$`, 'i');
/** "Jan 6 2025", "January 6, 2025", "Jan-06-2025": the month by name, then the day, then the year. */
const MONTH_NAME_DAY = new RegExp(
  String.raw`^${MONTH_NAME}[-\s/]+(\d{1,2})(?:st|nd|rd|th)?[-\s/,]+(\d{2}|\d{4})$`,
  'i',
);

function fullYear(y: string): number {
  return y.length === 2 ? 2000 + Number(y) - (Number(y) >= 70 ? 100 : 0) : Number(y);
}

/** A date with its month written by name, in either order, as yyyy-MM-dd; null otherwise. */
function fromMonthName(text: string): string | null {
  let d: number;
  let month: string;
  let y: number;
  const dm = DAY_MONTH_NAME.exec(text);
  const md = dm ? null : MONTH_NAME_DAY.exec(text);
  if (dm) [d, month, y] = [Number(dm[1]), dm[2]!, fullYear(dm[3]!)];
  else if (md) [month, d, y] = [md[1]!, Number(md[2]), fullYear(md[3]!)];
  else return null;
  const mo = MONTHS.indexOf(month.slice(0, 3).toLowerCase()) + 1;
  if (mo === 0 || !isCalendarDay(y, mo, d)) return null;
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * A date in a regional order ("31.12.2025", "12/31/25", "2025/12/31"), with its month written by name
 * ("5-Jan-25", "Jan 6, 2025"), or any of these with midnight after it ("2025-01-05 00:00:00"), as
 * yyyy-MM-dd; null otherwise. A day at another time stays as written.
 */
export function fromRegionalDate(text: string, order: ImportLocale['dates']): string | null {
  // The day order comes from the same text (guessLocale reads it without the midnight too).
  const day = withoutMidnight(text);
  const compact = COMPACT_DATE.exec(day);
  if (compact) {
    const [y, mo, d] = [Number(compact[1]), Number(compact[2]), Number(compact[3])];
    return isCalendarDay(y, mo, d) ? `${compact[1]}-${compact[2]}-${compact[3]}` : null;
  }
  const m = PARTS_DATE.exec(day);
  if (!m) return fromMonthName(day);
  const [a, b, c] = [m[1]!, m[3]!, m[4]!];
  let y: number;
  let mo: number;
  let d: number;
  if (a.length === 4) [y, mo, d] = [Number(a), Number(b), Number(c)];
  else if (c.length === 2 || c.length === 4) {
    y = fullYear(c);
    [d, mo] = order === 'dmy' ? [Number(a), Number(b)] : [Number(b), Number(a)];
  } else return null;
  if (!isCalendarDay(y, mo, d)) return null;
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
}

interface Counter {
  count: number;
  firstAt: string;
  example: string;
  /** Where the first few are ("row 4", "sheet Data, row 9"): what the import preview lists. */
  at: string[];
}

/** How many places of one problem are listed (the count says how many there are in all). */
const LISTED_PLACES = 5;

const HS_FIELDS: ReadonlySet<string> = new Set(['hsCode', 'hsCodeKeyword']);

/** A heading of 3–4 digits (3: its leading zero lost) then groups of 2 or 4 digits, after a dot or a space. */
const HS_WITH_SEPARATORS = /^\d{3,4}(?:[. ]\d{2}(?:\d{2})?){1,3}$/;

/** How one column of the file is converted: the same plan for the row path and DuckDB's CSV reader. */
export interface ColumnPlan {
  /** Index of its field among the kind's fields; -1 for an extra column. */
  target: number;
  type: FieldType;
  /** An HS code field (checked for lost leading zeros). */
  hs: boolean;
  /** A field of two-letter ISO country codes (a country's name is stored as its code). */
  country: boolean;
  /** Its name as an extra column; null for a mapped one or one left out. */
  extraHeader: string | null;
  /** Not imported at all: its cells are neither stored nor looked at. */
  leftOut: boolean;
  /**
   * An extra column with no name in the header row: kept only once a value is seen in it (trailing
   * separators and blank columns of a sheet make such columns, holding nothing).
   */
  unnamed: boolean;
}

/** Converts rows of one file under one plan, batch by batch, and keeps the counts for the report. */
export class RowConverter {
  readonly fields: readonly string[];
  private readonly targets: Int32Array;
  private readonly types: FieldType[];
  private readonly hs: boolean[];
  private readonly country: boolean[];
  /** Per column: the target of the unit field its values may carry ("1,200 kg"), -1 for none. */
  private readonly unitTargets: Int32Array;
  /** The unit written with the value just read (set by `value`, taken by `record`). */
  private unitRead: string | null = null;
  /** Unit fields a value gave a unit to. */
  private readonly unitsGiven = new Set<string>();
  private readonly extraHeaders: (string | null)[];
  /** 1 for a column the plan leaves out. */
  private readonly leftOut: Uint8Array;
  /** 1 for an extra column whose header cell is blank (named by its letters by headerNames). */
  private readonly unnamed: Uint8Array;
  /** 1 for a column a value was seen in (or known to be in the file: `valuesSeenIn`). */
  private readonly filled: Uint8Array;
  /** Columns past the header row's width that hold a value, by position: the name they are kept under. */
  private readonly beyond = new Map<number, string>();
  /** Each unnamed column's values (past the header's width too): how many, and where the first one was seen. */
  private readonly firstValues = new Map<number, { count: number; at: string; example: string }>();
  /** The kind's fields no column of the file is (see `missingFields`). */
  private readonly unmapped: string[];
  rows = 0;
  blankRows = 0;
  private readonly odd = new Map<string, Counter>();
  private readonly formulas = new Map<string, Counter>();
  /** Texts holding U+FFFD: characters the file's encoding could not give, by column. */
  private readonly unreadable = new Map<string, Counter>();
  private lostZeros: Counter | null = null;
  /** HS codes whose leading zero a spreadsheet dropped, stored with it again. */
  private restoredZeros: Counter | null = null;
  /** HS codes written with separators ("7208.10.00"), stored as their digits. */
  private dottedCodes: Counter | null = null;
  /** Amounts written with a currency sign, stored without it, by field: the signs seen and the first amount. */
  private readonly currencies = new Map<string, { counter: Counter; signs: Set<string>; amount: string }>();
  /** Weights and quantities written with their unit, by field: the first one's number. */
  private readonly units = new Map<string, { counter: Counter; first: string }>();
  /** Country names and three-letter codes in ISO code fields, stored as codes, by field: the first one's code. */
  private readonly countryNames = new Map<string, { counter: Counter; code: string }>();
  /** Texts in ISO code fields that name no country known, by field. */
  private readonly unknownCountries = new Map<string, Counter>();
  /** Texts in ISO code fields that name more than one country, by field: the first one's codes. */
  private readonly ambiguousCountries = new Map<string, { counter: Counter; codes: string[] }>();
  /** Amounts written with the minus after them ("1234-"), by field: the first one as stored (before the locale). */
  private readonly trailingMinus = new Map<string, { counter: Counter; first: string }>();
  /** Timestamps in date fields whose time of day was dropped, by field: the first one's day. */
  private readonly timesDropped = new Map<string, { counter: Counter; day: string }>();
  /** Spreadsheet day numbers in date fields, read as days, by field: the first one's day. */
  private readonly serialDays = new Map<string, { counter: Counter; day: string }>();
  /** A blank row came after the table's rows: lines of text alone may be notes under it. */
  private afterBlank = false;
  /** The number of the last row read, to see the empty rows a sheet leaves out. */
  private lastNumber = -1;
  /** Lines of text alone below a blank row, not yet known to be notes or records. */
  private held: RawRow[] = [];
  /** Records in rows the sheet hides (by its filter or by hand), imported as the others are. */
  private hiddenRows: Counter | null = null;
  /** Notes under the table ("Source: …"), left out once the file ended with them. */
  private notes: Counter | null = null;
  /** Rows of the file's totals ("Total", then sums), left out; keyed by the column of the label. */
  private totals: { column: string; counter: Counter } | null = null;
  /**
   * Each column's sum of the records' numbers (cells that are numbers, and the text of decimal fields):
   * since the last totals row, and over the whole file. A totals row gives one of them back.
   */
  private sectionSums: Float64Array;
  private fileSums: Float64Array;

  /** Rows read after the header, blank ones aside: the records, and the totals and notes left out or held. */
  get rowsRead(): number {
    return this.rows + (this.totals?.counter.count ?? 0) + this.held.length + (this.notes?.count ?? 0);
  }

  constructor(
    private readonly kind: DatasetKind,
    private readonly plan: ImportPlan,
    headers: readonly string[],
    private readonly numberFormat: (style: number | undefined) => NumberFormat | null,
    private readonly date1904: boolean,
    private readonly locate: (row: RawRow) => string,
    /** Text values are the dataset's exact text (Portolan's own Parquet): no regional reading. */
    private readonly verbatim = false,
    /** The HS headings (4 digits) known (hs-codes.csv); empty when not at hand. */
    private readonly hsHeadings: ReadonlySet<string> = new Set(),
    /** The columns whose header cell is blank (blankHeaders), whatever name they were given. */
    blankHeaders: readonly number[] = [],
  ) {
    const defs = fieldDefsOf(kind);
    this.fields = defs.map((d) => d.field);
    const index = new Map(this.fields.map((f, i) => [f, i]));
    this.targets = new Int32Array(headers.length).fill(-1);
    this.types = headers.map(() => 'text' as FieldType);
    this.hs = headers.map(() => false);
    this.country = headers.map(() => false);
    this.extraHeaders = headers.map((h) => h);
    this.leftOut = new Uint8Array(headers.length);
    for (const c of plan.leftOut ?? []) {
      if (c >= headers.length) continue;
      this.leftOut[c] = 1;
      this.extraHeaders[c] = null;
    }
    const used = new Set<string>();
    headers.forEach((_, c) => {
      const field = plan.mapping[c] ?? null;
      if (field === null || this.leftOut[c] || used.has(field) || !index.has(field)) return;
      used.add(field);
      this.targets[c] = index.get(field)!;
      this.types[c] = fieldTypeOf(kind, field);
      this.hs[c] = HS_FIELDS.has(field);
      this.country[c] = COUNTRY_CODE_FIELDS.has(field);
      this.extraHeaders[c] = null;
    });
    this.unmapped = this.fields.filter((f) => !used.has(f));
    // A weight or quantity written with its unit gives the unit to its unit field, when no column of
    // the file is that field.
    this.unitTargets = new Int32Array(headers.length).fill(-1);
    headers.forEach((_, c) => {
      const unit = this.targets[c]! >= 0 ? UNIT_FIELDS[this.fields[this.targets[c]!]!] : undefined;
      if (unit !== undefined && !used.has(unit) && index.has(unit)) this.unitTargets[c] = index.get(unit)!;
    });
    this.sectionSums = new Float64Array(headers.length);
    this.fileSums = new Float64Array(headers.length);
    this.unnamed = new Uint8Array(headers.length);
    for (const c of blankHeaders)
      if (c < headers.length && this.extraHeaders[c] !== null) this.unnamed[c] = 1;
    this.filled = new Uint8Array(headers.length);
  }

  /** The fields the file does not give: no column is them, nor did a value carry one (a unit). */
  get missingFields(): string[] {
    return this.unmapped.filter((f) => !this.unitsGiven.has(f));
  }

  /**
   * The extra columns' headers, in file order. A column with no name in the header row and no value
   * in any row read is not a column of the data (a line's trailing separators, a sheet's blank
   * column): it is left out, so a file read whole decides it for the whole file.
   */
  get extraColumns(): string[] {
    const named = this.extraHeaders.filter(
      (h, c): h is string => h !== null && !(this.unnamed[c] === 1 && this.filled[c] === 0),
    );
    return [...named, ...[...this.beyond].sort(([a], [b]) => a - b).map(([, name]) => name)];
  }

  /**
   * Values were found in these columns by another reader of the whole file (DuckDB's CSV reader): how
   * many, and the first one in each, in the file's row `row`.
   */
  valuesSeenIn(found: readonly { column: number; count: number; row: number; example: string }[]): void {
    for (const { column: c, count, row, example } of found) {
      if (c >= this.filled.length) continue;
      this.filled[c] = 1;
      if (this.unnamed[c] === 1 && !this.firstValues.has(c))
        this.firstValues.set(c, {
          count,
          at: this.locate({ number: row, values: [] }),
          example: example.slice(0, 40),
        });
    }
  }

  /**
   * The columns with a blank header cell that hold a value, with where the first one is: kept as
   * extra columns under the name they were given ("Column E").
   */
  unnamedFound(): UnnamedColumnFound[] {
    return [...this.firstValues]
      .sort(([a], [b]) => a - b)
      .map(([index, first]) => ({
        index,
        header: this.extraHeaders[index] ?? this.beyond.get(index)!,
        ...first,
      }));
  }

  /** Each column's conversion, in file order. */
  columnPlan(): ColumnPlan[] {
    return Array.from(this.targets, (target, c) => ({
      target,
      type: this.types[c]!,
      hs: this.hs[c]!,
      country: this.country[c]!,
      extraHeader: this.extraHeaders[c] ?? null,
      leftOut: this.leftOut[c] === 1,
      unnamed: this.unnamed[c] === 1,
    }));
  }

  /**
   * Rows after the header row, blank ones skipped, as the library's columns. Lines of text alone in
   * the first column below a blank row are held back: notes under the table ("Source: …") when the
   * file ends with them (`endOfFile`), records after all when the table goes on.
   */
  convert(rows: readonly RawRow[]): ConvertedBatch {
    const batch: ConvertedBatch = {
      n: 0,
      columns: this.fields.map(() => new Array<StoredValue>(rows.length)),
      extras: new Array<string | null>(rows.length),
      rowNumbers: [],
    };
    for (const row of rows) {
      if (row.number <= this.plan.headerRow) continue;
      // A sheet leaves its empty rows out: a row number skipped is a blank row between.
      const skipped = this.lastNumber >= 0 && row.number > this.lastNumber + 1;
      this.lastNumber = row.number;
      if (skipped && (this.rows > 0 || this.held.length > 0)) this.afterBlank = true;
      // Looked at before the blank rows: a note may stand in a column left out (a row index's).
      if (this.afterBlank && this.isNoteLike(row)) {
        this.held.push(row);
        continue;
      }
      if (this.isBlank(row.values)) {
        this.blankRows += 1;
        this.afterBlank = this.rows > 0 || this.held.length > 0;
        continue;
      }
      // A row of another width is only ever a note: the table going on after it refuses the file.
      if (row.ragged) throw row.ragged;
      this.afterBlank = false;
      if (this.held.length > 0) {
        for (const h of this.held) if (h.ragged) throw h.ragged;
        for (const h of this.held) this.record(h, batch);
        this.held = [];
      }
      const label = this.totalsLabel(row.values);
      if (label >= 0) {
        const text = String(row.values[label]).trim();
        if (this.totals) this.tally(this.totals.counter, row, text);
        else this.totals = { column: this.headerOf(label), counter: this.tally(null, row, text) };
        this.sectionSums.fill(0);
        continue;
      }
      this.record(row, batch);
    }
    for (const col of batch.columns) col.length = batch.n;
    batch.extras.length = batch.n;
    return batch;
  }

  /**
   * The file has no more rows: the lines of text held back below the table are its notes, left out
   * and reported. Not called on a preview of the file's head, which cannot tell.
   */
  endOfFile(): void {
    for (const row of this.held) {
      const text = this.noteText(row);
      if (this.notes) this.tally(this.notes, row, text);
      else this.notes = this.tally(null, row, text.slice(0, 60));
    }
    this.held = [];
  }

  /** Adds a record to the batch: each column's value, and the extra columns as JSON text. */
  private record(row: RawRow, batch: ConvertedBatch): void {
    const n = batch.n;
    const width = this.targets.length;
    let extra: Record<string, string> | null = null;
    for (let c = 0; c < width; c++) {
      if (this.leftOut[c]) continue;
      const raw = row.values[c];
      const target = this.targets[c]!;
      if (raw === NO_VALUE) this.count(this.formulas, this.headerOf(c), row, '');
      this.unitRead = null;
      const value = this.value(c, raw, row);
      const unitTarget = this.unitTargets[c]!;
      if (unitTarget >= 0) {
        batch.columns[unitTarget]![n] = this.unitRead ?? '';
        if (this.unitRead !== null) this.unitsGiven.add(this.fields[unitTarget]!);
      }
      if (target >= 0) batch.columns[target]![n] = value;
      else if (value !== null && value !== '') {
        (extra ??= {})[this.extraHeaders[c]!] = String(value);
        if (this.unnamed[c] === 1) this.unnamedValue(c, row, value);
        this.filled[c] = 1;
      }
    }
    // Cells past the header row's width have no header: kept as extras named by their column's
    // letters, as a blank header cell is, and said as such columns are.
    for (let c = width; c < row.values.length; c++) {
      const v = this.value(c, row.values[c], row);
      if (v === null || v === '') continue;
      (extra ??= {})[this.beyondName(c)] = String(v);
      this.unnamedValue(c, row, v);
    }
    batch.extras[n] = extra ? JSON.stringify(extra) : null;
    if (row.hidden) {
      if (this.hiddenRows) this.tally(this.hiddenRows, row, '');
      else this.hiddenRows = this.tally(null, row, '');
    }
    batch.rowNumbers.push(row.number);
    batch.n = n + 1;
    this.rows += 1;
  }

  /** Counts a value of a column with no name, and keeps where the first one is. */
  private unnamedValue(c: number, row: RawRow, value: string | number): void {
    const first = this.firstValues.get(c);
    if (first) first.count += 1;
    else this.firstValues.set(c, { count: 1, at: this.locate(row), example: String(value).slice(0, 40) });
  }

  /**
   * The name of a column past the header row's width: its letters ("Column H"), as headerNames names a
   * blank header cell, unless a column of the header row already has that name.
   */
  private beyondName(c: number): string {
    const known = this.beyond.get(c);
    if (known !== undefined) return known;
    const taken = new Set(
      [...this.extraHeaders, ...this.beyond.values()].flatMap((h) => (h === null ? [] : [h.toLowerCase()])),
    );
    const base = `Column ${columnLetters(c)}`;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    this.beyond.set(c, name);
    return name;
  }

  /** The first column read (the first not left out): where a note under a table is written. */
  private get firstColumn(): number {
    const c = this.leftOut.indexOf(0);
    return c < 0 ? 0 : c;
  }

  /**
   * A line of text alone in its row, with a letter in it ("Source: customs, 2025"), whichever column
   * it is in (a row index left out included); in a CSV, the text may run on into the next cells past
   * an unquoted comma (the row then has another width).
   */
  private isNoteLike(row: RawRow): boolean {
    const { values } = row;
    const first = firstFilled(values);
    const v = values[first];
    if (typeof v !== 'string' || !/\p{L}/u.test(v)) return false;
    if (row.ragged) return true;
    for (let c = first + 1; c < values.length; c++) if (!this.leftOut[c] && filled(values[c])) return false;
    return true;
  }

  /** A note's text as written: a CSV line's cells joined again where an unquoted comma split it. */
  private noteText(row: RawRow): string {
    const first = firstFilled(row.values);
    const cells = row.ragged ? row.values.slice(first) : [row.values[first]];
    return cells
      .filter((v) => filled(v as CellValue))
      .map((v) => String(v).trim())
      .join(', ');
  }

  /**
   * The column of the label when the row is the file's totals rather than a record: its first
   * filled cell says "Total" (or "Grand total", "Subtotal", "Sum"), no HS code column holds a value,
   * and every other filled cell is a number. A firm named "Total" has a country, a shipment an HS code
   * or text beside its numbers, so neither is taken for one. -1 for any other row.
   */
  private totalsLabel(values: readonly CellValue[]): number {
    let label = -1;
    let sums = false;
    for (let c = 0; c < values.length; c++) {
      const v = values[c];
      if (v === null || v === undefined || v === NO_VALUE || this.leftOut[c]) continue;
      if (typeof v === 'string' && (v.trim() === '' || FILLER.test(v))) continue;
      if (label < 0) {
        if (typeof v !== 'string' || !TOTALS_LABEL.test(v)) return -1;
        label = c;
      } else if (this.hs[c] || !(typeof v === 'number' || (typeof v === 'string' && NUMBER_TEXT.test(v))))
        return -1;
      else sums ||= this.isSum(c, v);
    }
    return sums ? label : -1;
  }

  /** Whether a totals row's cell is the sum of its column, over the rows since the last totals or all. */
  private isSum(c: number, v: string | number): boolean {
    if (c >= this.fileSums.length) return false;
    const n = typeof v === 'number' ? v : reportNumber(v, this.plan.locale.decimal);
    const near = (sum: number): boolean => Math.abs(n - sum) <= 0.005 + 1e-9 * Math.abs(sum);
    return Number.isFinite(n) && (near(this.sectionSums[c]!) || near(this.fileSums[c]!));
  }

  private addToSums(c: number, n: number): void {
    if (c >= this.fileSums.length || !Number.isFinite(n)) return;
    this.sectionSums[c]! += n;
    this.fileSums[c]! += n;
  }

  private headerOf(c: number): string {
    const t = this.targets[c]!;
    return t >= 0
      ? this.fields[t]!
      : (this.extraHeaders[c] ?? this.beyond.get(c) ?? `Column ${columnLetters(c)}`);
  }

  /**
   * Counts a value of one kind in a field, as `count` does; the field's first also keeps `first`,
   * what the report says of it (its code, its day, its number).
   */
  private note<T extends object>(
    map: Map<string, { counter: Counter } & T>,
    field: string,
    row: RawRow,
    example: string,
    first: T,
  ): void {
    const hit = map.get(field);
    if (hit) this.tally(hit.counter, row, example);
    else map.set(field, { ...first, counter: this.tally(null, row, example.slice(0, 40)) });
  }

  private count(map: Map<string, Counter>, key: string, row: RawRow, example: string): void {
    const hit = map.get(key);
    if (hit) this.tally(hit, row, example);
    else map.set(key, this.tally(null, row, example.slice(0, 40)));
  }

  private value(c: number, raw: CellValue | undefined, row: RawRow): StoredValue {
    const type = c < this.types.length ? this.types[c]! : 'text';
    const field = c < this.targets.length && this.targets[c]! >= 0 ? this.fields[this.targets[c]!]! : null;
    if (raw === undefined || raw === null || raw === NO_VALUE) return type === 'integer' ? null : '';
    const style = row.styles?.[c];
    let text: string;
    if (typeof raw === 'number') {
      this.addToSums(c, raw);
      const format = this.numberFormat(style);
      if (type === 'integer') {
        if (Number.isSafeInteger(raw)) return raw;
        this.count(this.odd, field ?? '', row, String(raw));
        return null;
      }
      if (format?.date) {
        if (type === 'date') text = isoDayFromSerial(raw, this.date1904) ?? String(raw);
        else if (type === 'epoch')
          text =
            secondsTextFromSerial(raw + (this.date1904 ? 1462 : 0), epochDecimals(format)) ?? String(raw);
        else text = isoDateTimeFromSerial(raw, this.date1904) ?? String(raw);
      } else if (this.hs[c]) {
        // A code kept as a number shows its zeros only through a format of zeros ("000000"): as shown.
        const zeros =
          format && /^0+$/.test(format.code) && Number.isSafeInteger(raw) ? format.code.length : 0;
        text = zeros > 0 ? String(raw).padStart(zeros, '0') : numberText(raw, format);
        text = this.verbatim ? this.flagLostZeros(text, row) : this.leadingZero(text, row);
      } else text = numberText(raw, format);
    } else if (typeof raw === 'boolean') {
      text = raw ? 'TRUE' : 'FALSE';
    } else {
      text = raw;
      if (text.indexOf(REPLACEMENT) >= 0) this.count(this.unreadable, this.headerOf(c), row, text);
      if (type === 'decimal' && !this.verbatim) {
        const bare = field !== null && DIGIT.test(text) ? withoutCurrency(text) : null;
        if (bare) {
          this.countCurrency(field!, row, text, bare);
          text = bare.amount;
        }
        const negative = field !== null ? withTrailingMinus(text) : null;
        if (negative !== null) {
          const written = typeof raw === 'string' ? raw.trim() : text;
          this.note(this.trailingMinus, field!, row, written, { first: negative });
          text = negative;
        }
        if (field !== null && c < this.unitTargets.length && this.unitTargets[c]! >= 0) {
          const m = WITH_UNIT.exec(text.trim());
          if (m) {
            const written = text.trim();
            this.note(this.units, field, row, written, { first: m[1]! });
            text = m[1]!;
            this.unitRead = m[2]!;
          }
        }
        text = this.numberText(text);
      } else if (type === 'date' && !this.verbatim && parseIsoDay(text) === null) {
        const day = fromRegionalDate(text, this.plan.locale.dates);
        if (day !== null) text = day;
        else if (field !== null) text = this.dayOfTimestamp(field, text, row) ?? text;
      } else if (type === 'integer') {
        const t = text.trim();
        if (t === '') return null;
        if (/^[+-]?\d{1,15}$/.test(t)) {
          this.addToSums(c, Number(t));
          return Number(t);
        }
        this.count(this.odd, field ?? '', row, text);
        return null;
      }
      if (this.hs[c])
        text = this.verbatim
          ? this.flagLostZeros(text, row)
          : this.leadingZero(this.hsDigits(text, row), row);
      if (this.country[c] && !this.verbatim) text = this.countryCode(field!, text, row);
    }
    // A day number in a date column (a spreadsheet's date saved as a plain number): the day it counts.
    if (type === 'date' && field !== null && !this.verbatim && SERIAL_DAY.test(text.trim())) {
      const day = isoDayFromSerial(Number(text.trim()), this.date1904);
      if (day !== null) {
        this.note(this.serialDays, field, row, text.trim(), { day });
        text = day;
      }
    }
    // Only texts with a digit that do not read as their type are odd ("n/a" is not); checked in the
    // cheaper order, the value rule first (decimalShadow reads what parseDecimalText does).
    if (field !== null && text !== '' && (type === 'date' || type === 'decimal' || type === 'epoch')) {
      const n = type === 'date' ? NaN : decimalShadow(text);
      if (type === 'decimal' && typeof raw === 'string') this.addToSums(c, n);
      const ok = type === 'date' ? parseIsoDay(text) !== null : !Number.isNaN(n);
      if (!ok && DIGIT.test(text)) this.count(this.odd, field, row, text);
    }
    return text;
  }

  /**
   * A country field's text as the two-letter ISO code it holds: a country's name or three-letter code
   * is stored as its code, and text naming no country as written; both are counted for the report.
   */
  private countryCode(field: string, text: string, row: RawRow): string {
    const found = countryCodeOf(text);
    if (found === null) {
      this.count(this.unknownCountries, field, row, text.trim());
      return text;
    }
    if ('codes' in found) {
      this.note(this.ambiguousCountries, field, row, text.trim(), { codes: found.codes });
      return text;
    }
    if (!found.converted) return found.code;
    this.note(this.countryNames, field, row, text.trim(), { code: found.code });
    return found.code;
  }

  /**
   * The day of a timestamp in a date field ("2025-01-05 14:30:00" → 2025-01-05), counted for the
   * report: a date field holds days, and left as text the value would escape every date filter.
   */
  private dayOfTimestamp(field: string, text: string, row: RawRow): string | null {
    const written = dayOfTimestamp(text);
    if (written === null) return null;
    const day = parseIsoDay(written) !== null ? written : fromRegionalDate(written, this.plan.locale.dates);
    if (day === null) return null;
    this.note(this.timesDropped, field, row, text.trim(), { day });
    return day;
  }

  private countCurrency(
    field: string,
    row: RawRow,
    text: string,
    bare: { amount: string; sign: string },
  ): void {
    const hit = this.currencies.get(field);
    if (hit) {
      this.tally(hit.counter, row, text);
      hit.signs.add(bare.sign);
    } else
      this.currencies.set(field, {
        counter: this.tally(null, row, text.trim().slice(0, 40)),
        signs: new Set([bare.sign]),
        amount: bare.amount,
      });
  }

  /**
   * An HS code as tariff schedules and many tools write it ("7208.10", "7208 10 00", "8471.30.0100"):
   * the service writes and filters digits only, so such a code is stored as its digits (and counted for
   * the report); anything else is left as it is.
   */
  private hsDigits(text: string, row: RawRow): string {
    const t = text.trim();
    if (!HS_WITH_SEPARATORS.test(t)) return text;
    this.dottedCodes = this.tally(this.dottedCodes, row, t);
    return t.replace(/[. ]/g, '');
  }

  /**
   * HS codes have an even number of digits (4, 6, 8, 10): one of an odd count that does not start
   * with 0 lost its leading zero in a spreadsheet (030490 kept as the number 30490), and is counted.
   * Answers the text as it is.
   */
  private flagLostZeros(text: string, row: RawRow): string {
    const t = text.trim();
    if (/^[1-9]\d+$/.test(t) && t.length % 2 === 1 && t.length >= 5)
      this.lostZeros = this.tally(this.lostZeros, row, t);
    return text;
  }

  /**
   * An HS code that lost its leading zero, with it again: chapters 01–09 (animals, fish, dairy,
   * vegetables, coffee) lose it whenever a spreadsheet keeps the code as a number, and "30490" would
   * otherwise be filtered and summed as chapter 30 (pharmaceuticals). Restored when the code with
   * the zero starts with a known heading and the code as written does not (a 9-digit national code
   * such as Japan's 847130000 stays); without the headings at hand, only 5 and 7 digits, which no
   * code has. Any other odd code is counted as before and imported as it is.
   */
  private leadingZero(text: string, row: RawRow): string {
    const t = text.trim();
    if (!/^[1-9]\d+$/.test(t) || t.length % 2 === 0) return text;
    const padded = `0${t}`;
    const lost =
      this.hsHeadings.size > 0
        ? t.length >= 3 &&
          t.length <= 11 &&
          this.hsHeadings.has(padded.slice(0, 4)) &&
          !this.hsHeadings.has(t.slice(0, 4))
        : t.length === 5 || t.length === 7;
    if (!lost) return this.flagLostZeros(text, row);
    this.restoredZeros = this.tally(this.restoredZeros, row, t);
    return padded;
  }

  /**
   * A number's text as stored under the file's decimal sign. Grouped by spaces or apostrophes: the
   * digits are the number under either sign; text that is no such number stays as it is.
   */
  private numberText(text: string): string {
    return (this.plan.locale.decimal === ',' ? fromDecimalComma(text) : fromSpacedGroups(text)) ?? text;
  }

  /** One more place of a problem counted once per file: the first one's example, the first few places. */
  private tally(c: Counter | null, row: RawRow, example: string): Counter {
    if (!c) {
      const at = this.locate(row);
      return { count: 1, firstAt: at, example, at: [at] };
    }
    c.count += 1;
    if (c.at.length < LISTED_PLACES) c.at.push(this.locate(row));
    return c;
  }

  /**
   * What the analyst reads about values that do not import as they are, one sentence per kind of
   * problem, naming the field as the grid does: before the import (the preview, over its first rows)
   * and after it (over the whole file). Present tense, so both read right.
   */
  warnings(): ImportWarningView[] {
    const out: ImportWarningView[] = [];
    for (const [field, c] of this.odd) {
      const type = fieldTypeOf(this.kind, field);
      out.push({ field, ...c, message: oddMessage(type, fieldTitleOf(this.kind, field), c) });
    }
    for (const [column, c] of this.formulas) {
      const values =
        c.count === 1 ? '1 formula cell has' : `${c.count.toLocaleString('en-US')} formula cells have`;
      out.push({
        field: column,
        ...c,
        message:
          `${fieldTitleOf(this.kind, column)}: ${values} no stored result (first: ${c.firstAt}); the file was saved by a program that does not calculate. ` +
          `${c.count === 1 ? 'It is' : 'They are'} imported empty: open the file in Excel or LibreOffice, save it, and import it again to get the values`,
      });
    }
    for (const [column, c] of this.unreadable) {
      const values = c.count === 1 ? '1 value holds' : `${c.count.toLocaleString('en-US')} values hold`;
      out.push({
        field: column,
        ...c,
        message:
          `${fieldTitleOf(this.kind, column)}: ${values} characters that could not be read, shown as \ufffd (first: ${c.firstAt}, "${c.example}"). ` +
          `${c.count === 1 ? 'It is' : 'They are'} imported as ${c.count === 1 ? 'it is' : 'they are'}: save the file again as UTF-8 in the program that made it, and import that`,
      });
    }
    if (this.dottedCodes) {
      const c = this.dottedCodes;
      out.push({
        field: 'hsCode',
        ...c,
        message:
          `${fieldTitleOf(this.kind, 'hsCode')}: ${c.count === 1 ? '1 code is' : `${c.count.toLocaleString('en-US')} codes are`} written with dots or spaces (first: ${c.firstAt}, "${c.example}"). ` +
          `${c.count === 1 ? 'It is' : 'They are'} stored as digits (${c.example.replace(/[. ]/g, '')}), as the service writes HS codes, so HS code filters and the HS breakdown find ${c.count === 1 ? 'it' : 'them'}`,
      });
    }
    if (this.totals) {
      const { column, counter: c } = this.totals;
      const one = c.count === 1;
      const record = this.kind === 'firms' ? 'firm' : 'shipment';
      out.push({
        field: column,
        ...c,
        message:
          `${one ? '1 row holds' : `${c.count.toLocaleString('en-US')} rows hold`} the file's totals, not ${one ? `a ${record}` : `${record}s`} (first: ${c.firstAt}, "${c.example}"). ` +
          `${one ? 'It is' : 'They are'} left out, so ${one ? 'its' : 'their'} sums are not counted twice in totals and summaries`,
      });
    }
    for (const [field, { counter: c, first }] of this.units) {
      const one = c.count === 1;
      const stored = this.numberText(first);
      out.push({
        field,
        ...c,
        message:
          `${fieldTitleOf(this.kind, field)}: ${valuesAre(c)} written with ${one ? 'its' : 'their'} unit (first: ${c.firstAt}, "${c.example}"). ` +
          `${one ? 'It is' : 'They are'} stored as ${one ? 'a number' : 'numbers'} (${stored}), the unit in ${fieldTitleOf(this.kind, UNIT_FIELDS[field]!)}`,
      });
    }
    for (const [field, { counter: c, code }] of this.countryNames) {
      const one = c.count === 1;
      out.push({
        field,
        ...c,
        message:
          `${fieldTitleOf(this.kind, field)}: ${one ? '1 value is a country name or three-letter code' : `${c.count.toLocaleString('en-US')} values are country names or three-letter codes`}, not the two-letter ISO codes the field holds (first: ${c.firstAt}, "${c.example}"). ` +
          `${one ? 'It is' : 'They are'} stored as ${one ? 'its code' : 'their codes'} (${code}), so country filters and breakdowns find ${one ? 'it' : 'them'}`,
      });
    }
    for (const [field, c] of this.unknownCountries) {
      const one = c.count === 1;
      out.push({
        field,
        ...c,
        message:
          `${fieldTitleOf(this.kind, field)}: ${valuesAre(c)} no country Portolan knows (first: ${c.firstAt}, "${c.example}"). ` +
          `${one ? 'It is' : 'They are'} stored as written: country filters and breakdowns do not find ${one ? 'it' : 'them'}`,
      });
    }
    for (const [field, { counter: c, codes }] of this.ambiguousCountries) {
      const one = c.count === 1;
      out.push({
        field,
        ...c,
        message:
          `${fieldTitleOf(this.kind, field)}: ${one ? '1 value names' : `${c.count.toLocaleString('en-US')} values name`} more than one country (first: ${c.firstAt}, "${c.example}", which could be ${codes.slice(0, -1).join(', ')} or ${codes.at(-1)!}). ` +
          `${one ? 'It is' : 'They are'} stored as written: country filters and breakdowns do not find ${one ? 'it' : 'them'}; write the two-letter code in the file to say which`,
      });
    }
    for (const [field, { counter: c, first }] of this.trailingMinus) {
      const one = c.count === 1;
      const stored = this.numberText(first);
      out.push({
        field,
        ...c,
        message:
          `${fieldTitleOf(this.kind, field)}: ${valuesAre(c)} written with the minus after the number (first: ${c.firstAt}, "${c.example}"), as accounting systems such as SAP write negative amounts. ` +
          `${one ? 'It is' : 'They are'} stored as ${one ? 'a negative number' : 'negative numbers'} (${stored})`,
      });
    }
    for (const [field, { counter: c, signs, amount }] of this.currencies) {
      const one = c.count === 1;
      const differ =
        signs.size > 1
          ? `. The signs differ (${[...signs].join(', ')}): check that ${fieldTitleOf(this.kind, field)} holds one currency`
          : '';
      out.push({
        field,
        ...c,
        message:
          `${fieldTitleOf(this.kind, field)}: ${valuesAre(c)} written with a currency sign (first: ${c.firstAt}, "${c.example}"). ` +
          `${one ? 'It is' : 'They are'} stored as ${one ? 'a number' : 'numbers'} without it ("${amount}")${differ}`,
      });
    }
    for (const [field, { counter: c, day }] of this.timesDropped) {
      const one = c.count === 1;
      const title = fieldTitleOf(this.kind, field);
      out.push({
        field,
        ...c,
        message:
          `${title}: ${one ? '1 value has' : `${c.count.toLocaleString('en-US')} values have`} a time of day after the date (first: ${c.firstAt}, "${c.example}"). ` +
          `The day is kept (${day}) and the time left out, as ${title} holds days`,
      });
    }
    for (const [field, { counter: c, day }] of this.serialDays) {
      const one = c.count === 1;
      out.push({
        field,
        ...c,
        message:
          `${fieldTitleOf(this.kind, field)}: ${one ? '1 value is a' : `${c.count.toLocaleString('en-US')} values are`} spreadsheet day ${one ? 'number' : 'numbers'} (first: ${c.firstAt}, "${c.example}"), as a date column formatted as a number saves ${one ? 'it' : 'them'}. ` +
          `${one ? 'It is' : 'They are'} read as the ${one ? 'day it counts' : 'days they count'} (${day})`,
      });
    }
    if (this.hiddenRows) {
      const c = this.hiddenRows;
      const one = c.count === 1;
      out.push({
        field: this.headerOf(this.firstColumn),
        ...c,
        message:
          `${one ? '1 row is' : `${c.count.toLocaleString('en-US')} rows are`} hidden in the sheet, by its filter or by hand (first: ${c.firstAt}). ` +
          `${one ? 'It is' : 'They are'} imported with the rows shown; to import only those, copy the rows shown to a new sheet in Excel and import that`,
      });
    }
    if (this.notes) {
      const c = this.notes;
      const one = c.count === 1;
      const record = this.kind === 'firms' ? 'firm' : 'shipment';
      out.push({
        field: this.headerOf(this.firstColumn),
        ...c,
        message:
          `${one ? '1 line' : `${c.count.toLocaleString('en-US')} lines`} of text below the table ${one ? 'is a note' : 'are notes'}, not ${one ? `a ${record}` : `${record}s`} (first: ${c.firstAt}, "${c.example}"). ` +
          `${one ? 'It is' : 'They are'} left out`,
      });
    }
    if (this.restoredZeros) {
      const c = this.restoredZeros;
      const one = c.count === 1;
      out.push({
        field: 'hsCode',
        ...c,
        message:
          `${fieldTitleOf(this.kind, 'hsCode')}: ${one ? '1 code' : `${c.count.toLocaleString('en-US')} codes`} lost ${one ? 'its' : 'their'} leading zero in a spreadsheet (first: ${c.firstAt}, "${c.example}"). ` +
          `${one ? 'It is' : 'They are'} stored with it (0${c.example}), as the service writes HS codes, so HS code filters and the HS breakdown find ${one ? 'it' : 'them'} under ${one ? 'its' : 'their'} chapter`,
      });
    }
    if (this.lostZeros) {
      const c = this.lostZeros;
      out.push({
        field: 'hsCode',
        ...c,
        message:
          `${fieldTitleOf(this.kind, 'hsCode')}: ${c.count === 1 ? '1 code has' : `${c.count.toLocaleString('en-US')} codes have`} an odd number of digits (first: ${c.firstAt}, "${c.example}"), ` +
          'as HS codes that lost a leading zero in a spreadsheet do (0301 became 301). They are imported as they are',
      });
    }
    return out;
  }

  /** Why the dataset holds only part of what the file meant (formulas without values). */
  partOnly(): string[] {
    let formulas = 0;
    for (const c of this.formulas.values()) formulas += c.count;
    return formulas > 0 ? [`${formulas.toLocaleString('en-US')} formula cell(s) had no stored result`] : [];
  }

  /** A row with nothing in it but blanks, the columns left out aside. */
  private isBlank(values: readonly CellValue[]): boolean {
    for (let c = 0; c < values.length; c++) if (!this.leftOut[c] && filled(values[c])) return false;
    return true;
  }
}

function filled(v: CellValue | undefined): boolean {
  return v !== null && v !== undefined && !(typeof v === 'string' && v.trim() === '');
}

/** The first cell of a row that holds something; -1 for a blank row. */
function firstFilled(values: readonly CellValue[]): number {
  for (let c = 0; c < values.length; c++) if (filled(values[c])) return c;
  return -1;
}

/** How a warning counts the values it speaks of: "1 value is", "1,234 values are". */
function valuesAre(c: Counter): string {
  return c.count === 1 ? '1 value is' : `${c.count.toLocaleString('en-US')} values are`;
}

function oddMessage(type: FieldType, title: string, c: Counter): string {
  const one = c.count === 1;
  const what =
    type === 'date'
      ? one
        ? 'a date written as yyyy-MM-dd'
        : 'dates written as yyyy-MM-dd'
      : type === 'epoch'
        ? one
          ? 'a Unix time in seconds'
          : 'Unix times in seconds'
        : type === 'integer'
          ? one
            ? 'a whole number'
            : 'whole numbers'
          : one
            ? 'a plain number'
            : 'plain numbers';
  if (type === 'integer') {
    return `${title}: ${valuesAre(c)} not ${what} (first: ${c.firstAt}, "${c.example}"). ${one ? 'It is' : 'They are'} left empty`;
  }
  const use = type === 'date' ? 'date' : 'number';
  return (
    `${title}: ${valuesAre(c)} not ${what} (first: ${c.firstAt}, "${c.example}"). ${one ? 'It is' : 'They are'} imported as text: ` +
    `${one ? 'it sorts' : 'they sort'} last and ${one ? 'is' : 'are'} left out by ${use} filters`
  );
}
