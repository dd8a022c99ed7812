import ExcelJS from 'exceljs';
import { QUERY_KEYS, QUERY_SHEET_NAME } from '@shared/export/query-sheet-keys';
import { isPlainObject } from '@shared/spec/records';
import { columnsOf, findColumn, type DatasetKind } from '../fields';
import type { RecordObject } from '../ingest';
import { detectKind } from './detect';
import { NO_RECORDS, refuse, type Parsed } from './parsed';

type CellValue = ExcelJS.CellValue;

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** The text a cell of an exported column stands for (the exporter typed numbers and dates). */
function cellText(value: CellValue, type: string): string | number | null {
  if (value === null || value === undefined) return type === 'integer' ? null : '';
  if (value instanceof Date) {
    if (type === 'epoch') return String(value.getTime() / 1000);
    if (type === 'timestamp') return value.toISOString();
    return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  }
  if (typeof value === 'number') return type === 'integer' ? value : String(value);
  if (typeof value === 'string') return type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as CellValue, type);
    if ('error' in value) return '';
  }
  return String(value);
}

/** Clocks drift; a fetch time a little ahead of this machine's clock is still believed. */
const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * The Query sheet's fetch time when it is a real instant: an ISO 8601 time with its zone, not in the
 * future. Anything else (a hand-edited cell, a date without time zone) is not trusted, and the
 * import time is used as for any other file.
 */
export function trustedFetchedAt(text: string | undefined, now = Date.now()): string | undefined {
  const s = text?.trim() ?? '';
  if (!ISO_INSTANT.test(s)) return undefined;
  const ms = Date.parse(s);
  if (Number.isNaN(ms) || ms > now + CLOCK_SKEW_MS || ms < Date.UTC(2000, 0, 1)) return undefined;
  return new Date(ms).toISOString();
}

/** Why an export of a grid view holds only part of its dataset, from the Query sheet's view rows; null for a whole export. */
function viewNarrowing(query: ReadonlyMap<string, string>): string | null {
  const set = (key: string): string | null => {
    const v = (query.get(key) ?? '').trim();
    return v && v !== 'none' ? v : null;
  };
  const how: string[] = [];
  const filter = set(QUERY_KEYS.viewFilter);
  if (filter) {
    let columns = '';
    try {
      const model: unknown = JSON.parse(filter);
      if (isPlainObject(model)) columns = ` on ${Object.keys(model).join(', ')}`;
    } catch {
      // The columns are only named for the reader; the filter being there is what counts.
    }
    how.push(`column filters${columns}`);
  }
  const quick = set(QUERY_KEYS.viewQuickFilter);
  if (quick) how.push(`quick filter "${quick.slice(0, 80)}"`);
  return how.length > 0 ? `it was exported from a filtered view (${how.join('; ')})` : null;
}

/**
 * An `.xlsx` written by Portolan's exporter: the data sheets ("Shipments", "Shipments (2)", … or
 * "Firms") and the Query sheet, which gives back the filter, who fetched it and when, and whether the
 * export was the whole dataset or a filtered view of it.
 */
export async function parseXlsxRecords(path: string, file: string): Promise<Parsed> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.readFile(path);
  } catch {
    // The zip library's own message (often a link to its FAQ) means nothing to an analyst.
    throw refuse(
      file,
      'it is not a readable .xlsx workbook: the file is damaged or cut off, or it is another kind of file with an .xlsx name. ' +
        'If it opens in Excel, save it again as an Excel Workbook (.xlsx) and import that',
    );
  }
  const query = new Map<string, string>();
  wb.getWorksheet(QUERY_SHEET_NAME)?.eachRow((row, n) => {
    if (n === 1) return;
    const k = cellText(row.getCell(1).value, 'text');
    const v = cellText(row.getCell(2).value, 'timestamp');
    if (typeof k === 'string' && k) query.set(k, v === null ? '' : String(v));
  });
  const declared = query.get(QUERY_KEYS.kind);
  const sheets = wb.worksheets.filter((ws) => /^(Shipments|Firms)( \(\d+\))?$/.test(ws.name));
  if (sheets.length === 0)
    throw refuse(file, 'it has no "Shipments" or "Firms" sheet (it is not a Portolan export)');
  const kind: DatasetKind = sheets[0]!.name.startsWith('Firms') ? 'firms' : 'shipments';
  if (declared && declared !== kind) {
    const says = declared === 'shipments' || declared === 'firms' ? declared : 'another kind of record';
    throw refuse(file, `its Query sheet says ${says} but the data sheet holds ${kind}`);
  }
  const records: RecordObject[] = [];
  const sheetStarts: { start: number; name: string }[] = [];
  const rowNumbers: number[] = [];
  let header: string[] | null = null;
  for (const ws of sheets.filter((s) => s.name.startsWith(kind === 'firms' ? 'Firms' : 'Shipments'))) {
    const first = ws.getRow(1);
    const names: string[] = [];
    for (let c = 1; c <= first.cellCount; c++)
      names.push(String(cellText(first.getCell(c).value, 'text') ?? '').trim());
    if (header && header.join('\u0000') !== names.join('\u0000'))
      throw refuse(file, `sheet ${ws.name} has a different header`);
    header = names;
    if (detectKind(names) !== kind)
      throw refuse(file, `the header of sheet ${ws.name} is not ${kind} field names`);
    const types = names.map((n) => findColumn(kind, n)?.type ?? 'text');
    sheetStarts.push({ start: records.length, name: ws.name });
    ws.eachRow((row, n) => {
      if (n === 1) return;
      const rec: RecordObject = {};
      for (let c = 0; c < names.length; c++) {
        if (!names[c]) continue;
        rec[names[c]!] = cellText(row.getCell(c + 1).value, types[c]!);
      }
      records.push(rec);
      rowNumbers.push(n);
    });
  }
  if (records.length === 0)
    throw refuse(file, `${NO_RECORDS} (its data sheet has a header row and nothing else)`);
  // Columns the export left out come back as "" so every record has the full field list.
  for (const rec of records)
    for (const col of columnsOf(kind))
      if (!(col.field in rec)) rec[col.field] = col.type === 'integer' ? null : '';
  const locate = (i: number): string => {
    const sheet = sheetStarts.findLast((s) => s.start <= i)?.name ?? kind;
    return `sheet ${sheet}, row ${rowNumbers[i] ?? i + 2}`;
  };
  const out: Parsed = { kind, records, locate };
  const filterText = query.get(QUERY_KEYS.filter);
  if (filterText) {
    try {
      const f: unknown = JSON.parse(filterText);
      if (isPlainObject(f)) out.request = f;
    } catch {
      throw refuse(file, 'its Query sheet holds a filter that is not valid JSON (was the sheet edited?)');
    }
  }
  const profile = query.get(QUERY_KEYS.profile);
  if (profile) out.profileName = profile;
  const account = query.get(QUERY_KEYS.account);
  if (account) out.account = account;
  const fetchedAt = trustedFetchedAt(query.get(QUERY_KEYS.fetchedAt));
  if (fetchedAt) out.fetchedAt = fetchedAt;
  const totalText = query.get(QUERY_KEYS.totalReported) ?? '';
  if (/^\d+$/.test(totalText)) out.reportedTotal = Number(totalText);
  const narrowed = viewNarrowing(query);
  const partOnly = narrowed ? [narrowed] : [];
  const exportedText = query.get(QUERY_KEYS.rowsExported) ?? '';
  if (/^\d+$/.test(exportedText) && records.length < Number(exportedText)) {
    partOnly.push(
      `rows were removed from the workbook after export (${records.length} of ${exportedText} left)`,
    );
  }
  if (partOnly.length > 0) out.partOnly = partOnly;
  if (narrowed) out.fromFilteredView = true;
  return out;
}
