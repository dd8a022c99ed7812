/**
 * The preview of an import, built in the import worker from the head of the file it read:
 * the header row, the kind, the mapping (a Portolan export's own field names, a mapping the analyst
 * confirmed for files of the same columns, or the automatic one), the locale, and sample values
 * exactly as they will be stored. Cheap: a few dozen rows.
 */
import { createHash } from 'node:crypto';
import { fieldTypeOf, findFieldDef, isDatasetKind, type DatasetKind } from '@shared/fields';
import { QUERY_KEYS } from '@shared/export/query-sheet-keys';
import type {
  ImportColumnView,
  ImportLocale,
  ImportPlan,
  ImportPreviewChoices,
  ImportPreviewView,
} from '@shared/library/import-contract';
import type { ImportWarningView } from '@shared/library/library-contract';
import { RowConverter } from './convert';
import {
  autoMapping,
  findHeaderRow,
  guessKind,
  guessLocale,
  headerKey,
  blankHeaders,
  headerNames,
  type FileHeaders,
  rowIndexColumns,
  twoRowHeader,
} from './mapping';
import { CsvWidthGuard, NO_RESULT, type CellValue, type NumberFormat } from './table-source';
import type { RawRow } from './table-types';
import type { PreviewRow, RawPreview } from './raw-preview';
import { dateOrderOf } from './xlsx/number-formats';

const SAMPLES = 5;

/** A mapping the analyst confirmed, kept for files whose columns are the same. */
export interface RememberedMapping {
  kind: DatasetKind;
  mapping: (string | null)[];
  /** The columns left out (none when absent: mappings kept before columns could be left out). */
  leftOut?: number[];
  locale: ImportLocale;
}

export interface PreparedImport {
  view: ImportPreviewView;
  /** The plan the preview shows; what an import without the analyst's changes runs. */
  plan: ImportPlan;
  headers: string[];
  /** The columns whose header cell is blank (named by their letters in `headers`). */
  blank: number[];
  /** Identifies files with the same columns (order and names), to remember a mapping by. */
  shapeKey: string;
  raw: RawPreview;
  /** The HS headings (4 digits) known: an HS code that lost its leading zero is restored by them. */
  hsHeadings: readonly string[];
}

function asRawRows(head: readonly PreviewRow[]): { rows: RawRow[]; formats: (NumberFormat | null)[] } {
  const formats: (NumberFormat | null)[] = [];
  const index = new Map<string, number>();
  const rows = head.map((r) => {
    const styles: number[] = [];
    const values: CellValue[] = r.values.map((v, c) => {
      const f = r.formats[c];
      if (f) {
        const key = `${f.code}\u0000${f.date}\u0000${f.regional === true}`;
        let i = index.get(key);
        if (i === undefined) {
          i = formats.length;
          formats.push(f);
          index.set(key, i);
        }
        styles[c] = i;
      }
      return v !== null && typeof v === 'object' ? NO_RESULT : v;
    });
    return r.hidden
      ? { number: r.number, values, styles, hidden: true as const }
      : { number: r.number, values, styles };
  });
  return { rows, formats };
}

/**
 * The order the date cells of the rows read show day and month in, by their format (dd/mm/yyyy): of
 * the cells of the date columns mapped when they agree, else of the sheet's cells when those agree.
 * Built-in date formats follow the reader's regional settings and say nothing (NumberFormat.regional).
 */
function dateCellOrder(
  rows: readonly RawRow[],
  formats: readonly (NumberFormat | null)[],
  mapping: readonly (string | null)[],
  kind: DatasetKind,
): { order: ImportLocale['dates']; format: string } | null {
  const dateColumns = new Set(
    mapping.flatMap((f, c) => (f !== null && fieldTypeOf(kind, f) === 'date' ? [c] : [])),
  );
  const found = {
    column: new Map<ImportLocale['dates'], string>(),
    sheet: new Map<ImportLocale['dates'], string>(),
  };
  for (const r of rows) {
    r.styles?.forEach((style, c) => {
      const f = formats[style];
      if (!f?.date || f.regional || typeof r.values[c] !== 'number') return;
      const order = dateOrderOf(f.code);
      if (order === null) return;
      if (!found.sheet.has(order)) found.sheet.set(order, f.code);
      if (dateColumns.has(c) && !found.column.has(order)) found.column.set(order, f.code);
    });
  }
  for (const orders of [found.column, found.sheet]) {
    if (orders.size !== 1) continue;
    const [[order, format]] = [...orders] as [[ImportLocale['dates'], string]];
    return { order, format };
  }
  return null;
}

function text(v: CellValue | undefined): string {
  return typeof v === 'string' ? v.trim() : '';
}

/** A cell as the file writes it, for a column shown but not imported. */
function rawText(v: CellValue | undefined): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** What the dialog says of the row index columns it leaves out. */
function rowIndexNotice(headers: readonly string[]): string {
  const one = headers.length === 1;
  return (
    `${headers.join(' and ')} ${one ? 'has' : 'have'} no name in the header and ${one ? 'holds' : 'hold'} ` +
    `only row numbers (the index pandas and other tools write), so ${one ? 'it is' : 'they are'} left out. ` +
    `To import ${one ? 'it' : 'them'}, choose a field or "Extra column" under "Imported as".`
  );
}

export function shapeKeyOf(format: string, headers: readonly string[]): string {
  return createHash('sha256')
    .update(`${format}\u0000${headers.map(headerKey).join('\u0000')}`)
    .digest('hex')
    .slice(0, 32);
}

/** The field names a Portolan export wrote for its columns, when they fit the header row. */
function portolanFields(
  raw: RawPreview,
  width: number,
): { kind: DatasetKind; fields: (string | null)[] } | null {
  if (!raw.query) return null;
  const query = new Map(raw.query);
  const kind = query.get(QUERY_KEYS.kind);
  if (!isDatasetKind(kind)) return null;
  let names: unknown;
  try {
    names = JSON.parse(query.get(QUERY_KEYS.fieldNames) ?? 'null');
  } catch {
    return null;
  }
  if (!Array.isArray(names) || names.length !== width) return null;
  return { kind, fields: names.map((n) => (typeof n === 'string' && findFieldDef(kind, n) ? n : null)) };
}

export function prepareImport(
  raw: RawPreview,
  fileName: string,
  choices: ImportPreviewChoices,
  remembered: (shapeKey: string) => RememberedMapping | null,
  hsHeadings: readonly string[] = [],
): PreparedImport {
  const { rows, formats } = asRawRows(raw.head);
  let headerIndex =
    choices.headerRow !== undefined ? rows.findIndex((r) => r.number === choices.headerRow) : -1;
  // A Parquet file's header is its column names (row 1), never a guess among the values.
  if (headerIndex < 0)
    headerIndex = raw.format === 'parquet' ? 0 : findHeaderRow(rows.map((r) => r.values.map(text)));
  // A header of two rows (columns grouped under a heading) is known by its second row, the last one
  // above the records: found here, or chosen in the dialog, it is read with the row above it.
  const twoRows = (top: RawRow | undefined, under: RawRow | undefined): string[] | null =>
    top && under && raw.format !== 'parquet' && top.number === under.number - 1
      ? twoRowHeader(top.values, under.values)
      : null;
  if (choices.headerRow === undefined && twoRows(rows[headerIndex], rows[headerIndex + 1])) headerIndex += 1;
  const merged = twoRows(rows[headerIndex - 1], rows[headerIndex]);
  const headerRow = merged
    ? { number: rows[headerIndex]!.number, values: merged }
    : (rows[headerIndex] ?? { number: 1, values: [] });
  // A CSV's head was read without knowing its header (a title block above it may be of any width):
  // the rows below the header are held to its width here, as the import holds every row.
  if (raw.format === 'csv') {
    const guard = new CsvWidthGuard(headerRow.values.length, choices.headerRow);
    for (const r of rows.slice(headerIndex + 1)) {
      const ragged = guard.check(r.number, r.values);
      if (ragged) r.ragged = ragged;
    }
  }
  const width = Math.max(
    headerRow.values.length,
    ...rows
      .slice(headerIndex + 1, headerIndex + 20)
      .filter((r) => !r.ragged)
      .map((r) => r.values.length),
    0,
  );
  const headerCells = headerRow.values.map((v) => (typeof v === 'symbol' ? '' : v));
  const headers = headerNames(headerCells, width);
  const blank = blankHeaders(headerCells, width);
  const shapeKey = shapeKeyOf(raw.format, headers);
  const ours = portolanFields(raw, width);
  const memory = ours ? null : remembered(shapeKey);
  let kind: DatasetKind;
  let mapping: (string | null)[];
  let leftOut: number[] = [];
  const notices = [...raw.notices];
  const dataRows = rows.slice(headerIndex + 1);
  const chosen = choices.mapping?.length === width ? choices.mapping : null;
  if (chosen) {
    // The analyst's own mapping: fields of another kind are not read (kept as extra columns).
    kind = choices.kind ?? ours?.kind ?? memory?.kind ?? guessKind(headers);
    const k = kind;
    mapping = chosen.map((f) => (f !== null && findFieldDef(k, f) ? f : null));
    leftOut = choices.leftOut ?? [];
  } else if (ours && (choices.kind === undefined || choices.kind === ours.kind)) {
    kind = ours.kind;
    mapping = ours.fields;
  } else if (
    memory &&
    (choices.kind === undefined || choices.kind === memory.kind) &&
    memory.mapping.length === width
  ) {
    kind = memory.kind;
    mapping = memory.mapping;
    leftOut = memory.leftOut ?? [];
  } else {
    kind = choices.kind ?? guessKind(headers);
    mapping = autoMapping(kind, headers);
    if (raw.format !== 'parquet' && raw.format !== 'json') {
      leftOut = rowIndexColumns(
        headerRow.values,
        dataRows.map((r) => r.values),
      ).filter((c) => mapping[c] === null);
      if (leftOut.length > 0) notices.push(rowIndexNotice(leftOut.map((c) => headers[c]!)));
    }
  }
  leftOut = [...new Set(leftOut)].filter((c) => c < width && mapping[c] === null).sort((a, b) => a - b);
  // A dataset's exact text (Portolan's own Parquet) proves no locale and is read without one.
  const evidence = guessLocale(
    (raw.verbatim ? [] : mapping)
      .map((field, c) => ({ field, c }))
      .filter((m): m is { field: string; c: number } => m.field !== null)
      .map(({ field, c }) => ({ type: fieldTypeOf(kind, field), values: dataRows.map((r) => r.values[c]) })),
    raw.csvDelimiter === ';',
    raw.verbatim ? null : dateCellOrder(dataRows, formats, mapping, kind),
  );
  const locale = choices.locale ?? (memory && !ours ? memory.locale : evidence.locale);
  const doubt = evidence.decimalInDoubt;
  // Said of the guess only: a locale the analyst chose, now or for files of the same columns, stands.
  if (doubt !== null && locale.decimal === '.' && choices.locale === undefined && !(memory && !ours))
    notices.push(
      `Numbers such as “${doubt}” are read with a decimal point (${Number(doubt.replace(/[^\d.+-]/g, ''))}). ` +
        `If the dot groups thousands (${doubt.replace(/[^\d+-]/g, '')}), choose 1.234,56 under “Numbers are written”.`,
    );
  const plan: ImportPlan = {
    sheet: raw.sheet,
    headerRow: headerRow.number,
    kind,
    mapping,
    ...(leftOut.length > 0 ? { leftOut } : {}),
    locale,
  };
  const checked = checkPlan(
    plan,
    { headers, blank },
    rows,
    formats,
    raw.date1904,
    raw.verbatim,
    raw.whole,
    hsHeadings,
  );
  const view: ImportPreviewView = {
    fileName,
    format: raw.format,
    sheets: raw.sheets,
    sheet: raw.sheet,
    headerRow: headerRow.number,
    kind,
    columns: checked.columns,
    locale,
    localeProof: {
      decimal: evidence.decimalProof,
      dates: evidence.dateProof,
      dateFormat: evidence.dateFormatProof,
    },
    dateOrderMatters: evidence.dateOrderMatters,
    notices,
    remembered: memory !== null && !ours && mapping === memory.mapping,
    fromPortolan: ours !== null && mapping === ours.fields,
    verbatim: raw.verbatim,
    issues: checked.issues,
    rowsChecked: checked.rowsChecked,
    blankRows: checked.blankRows,
  };
  return { view, plan, headers, blank, shapeKey, raw, hsHeadings };
}

/** The most characters of a value the preview shows (its table shows less): the value is stored whole. */
export const SAMPLE_CHARS = 200;

/**
 * A value as the preview shows it: a text of megabytes (a whole document pasted into a cell) would
 * otherwise travel to the dialog whole, five times per column, and stall it.
 */
function shortSample(v: string): string {
  if (v.length <= SAMPLE_CHARS) return v;
  // Not between the two halves of a character outside the BMP (an emoji, a CJK extension).
  const end = /[\ud800-\udbff]/.test(v[SAMPLE_CHARS - 1]!) ? SAMPLE_CHARS - 1 : SAMPLE_CHARS;
  return `${v.slice(0, end)}…`;
}

/**
 * A column whose header cell is blank and with no value in the rows read. The run decides over the
 * whole file (RowConverter.extraColumns).
 */
function unnamedAndEmpty(blank: ReadonlySet<number>, c: number, rows: readonly RawRow[]): boolean {
  return blank.has(c) && rows.every((r) => rawText(r.values[c]).trim() === '');
}

/** A plan tried on the file's head: its columns with their first values, and what would not import as it is. */
export interface CheckedPlan {
  columns: ImportColumnView[];
  issues: ImportWarningView[];
  rowsChecked: number;
  blankRows: number;
}

/**
 * Converts the head of the file exactly as the import will (the same RowConverter): the first values
 * of each column as they will be stored, and the values of those rows that will not import as they
 * are, with the rows they are in.
 */
export function checkPlan(
  plan: ImportPlan,
  { headers, blank }: FileHeaders,
  rows: readonly RawRow[],
  formats: readonly (NumberFormat | null)[],
  date1904: boolean,
  verbatim = false,
  /** The rows are the whole sheet, so lines of text held back at their end are notes under it. */
  whole = false,
  hsHeadings: readonly string[] = [],
): CheckedPlan {
  const converter = new RowConverter(
    plan.kind,
    plan,
    headers,
    (style) => (style === undefined ? null : (formats[style] ?? null)),
    date1904,
    (r) => `row ${r.number}`,
    verbatim,
    new Set(hsHeadings),
    blank,
  );
  const blankSet = new Set(blank);
  const batch = converter.convert(rows.filter((r) => r.number > plan.headerRow));
  if (whole) converter.endOfFile();
  const fieldIndex = new Map(converter.fields.map((f, i) => [f, i]));
  const extras = batch.extras
    .slice(0, SAMPLES)
    .map((e) => (e ? (JSON.parse(e) as Record<string, string>) : {}));
  const leftOut = new Set(plan.leftOut ?? []);
  const below = rows.filter((r) => r.number > plan.headerRow);
  // A column left out shows its first values as the file writes them, in the rows the others show.
  const byNumber = new Map(rows.map((r) => [r.number, r]));
  const shown = batch.rowNumbers.slice(0, SAMPLES).map((n) => byNumber.get(n)!);
  const columns = headers.map((header, c) => {
    if (leftOut.has(c))
      return {
        index: c,
        header,
        field: null,
        leftOut: true,
        samples: shown.map((r) => shortSample(rawText(r.values[c]))),
      };
    const field = plan.mapping[c] ?? null;
    const at = field === null ? undefined : fieldIndex.get(field);
    const samples =
      at === undefined
        ? extras.map((e) => shortSample(e[header] ?? ''))
        : (batch.columns[at] ?? []).slice(0, SAMPLES).map((v) => (v === null ? '' : shortSample(String(v))));
    const view = { index: c, header, field: at === undefined ? null : field, leftOut: false, samples };
    return at === undefined && unnamedAndEmpty(blankSet, c, below) ? { ...view, empty: true } : view;
  });
  return {
    columns,
    issues: converter.warnings(),
    rowsChecked: converter.rowsRead,
    blankRows: converter.blankRows,
  };
}

/** The columns of a plan with their first values converted exactly as the import will store them. */
export function previewColumns(
  plan: ImportPlan,
  headers: FileHeaders,
  rows: readonly RawRow[],
  formats: readonly (NumberFormat | null)[],
  date1904: boolean,
  verbatim = false,
  hsHeadings: readonly string[] = [],
): ImportColumnView[] {
  return checkPlan(plan, headers, rows, formats, date1904, verbatim, false, hsHeadings).columns;
}

/** Re-derives the preview's columns for a plan the analyst changed (mapping, locale, kind). */
export function previewForPlan(prepared: PreparedImport, plan: ImportPlan): ImportColumnView[] {
  const { rows, formats } = asRawRows(prepared.raw.head);
  return previewColumns(
    plan,
    { headers: prepared.headers, blank: prepared.blank },
    rows,
    formats,
    prepared.raw.date1904,
    prepared.raw.verbatim,
    prepared.hsHeadings,
  );
}
