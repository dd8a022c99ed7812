import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import ExcelJS from 'exceljs';
import { AppError } from '@shared/ipc/errors';
import { describeIssue } from '@shared/spec/issues';
import { isPlainObject } from '@shared/spec/records';
import { columnsOf, findColumn, type DatasetKind } from '../fields';
import { checkRecords, type RecordObject } from '../ingest';
import type { DatasetMeta, Library } from '../library';
import { defaultDatasetName } from '../naming';
import { parseCsv } from '@shared/csv';
import { detectKind } from './detect';

export type ImportFormat = 'json' | 'csv' | 'xlsx';

export interface ImportResult {
  dataset: DatasetMeta;
  format: ImportFormat;
  rows: number;
  /** True when an xlsx export's Query sheet gave back the original filter. */
  filterRestored: boolean;
}

/** Files above this are refused before reading: the library is for query results, not dumps. */
const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

interface Parsed {
  kind: DatasetKind;
  records: RecordObject[];
  request?: Record<string, unknown>;
  profileName?: string | null;
  account?: string | null;
  fetchedAt?: string;
  reportedTotal?: number | null;
}

/** Every import problem is reported the same way: which file, what is wrong, nothing changed. */
function refuse(file: string, problem: string): AppError {
  return new AppError('InvalidInput', `Cannot import ${file}: ${problem}. The library was not changed.`);
}

/**
 * Imports a JSON array of shipment or firm records, a CSV with the spec's field names as header, or an
 * `.xlsx` written by Portolan's exporter, as one new dataset. A malformed, truncated or foreign file
 * is refused with a message and leaves the library as it was (one transaction, all or nothing).
 */
export async function importFile(
  library: Library,
  path: string,
  opts: { name?: string; tags?: string[] } = {},
): Promise<ImportResult> {
  const file = basename(path);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw refuse(file, 'the file does not exist');
  if (info.size > MAX_IMPORT_BYTES) throw refuse(file, 'the file is larger than 512 MB');
  const ext = extname(path).toLowerCase();
  const format: ImportFormat = ext === '.xlsx' ? 'xlsx' : ext === '.csv' ? 'csv' : 'json';
  let parsed: Parsed;
  if (format === 'xlsx') parsed = await parseXlsx(path, file);
  else {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(await readFile(path));
    parsed = format === 'csv' ? parseCsvRecords(text, file) : parseJsonRecords(text, file);
  }
  const checked = checkRecords(parsed.kind, parsed.records, 'records');
  if (!checked.ok) throw refuse(file, describeIssue(checked.issue));
  const request = parsed.request ?? {};
  const name =
    opts.name?.trim() ||
    (parsed.request ? defaultDatasetName(parsed.kind, request) : `Imported ${parsed.kind} · ${file}`);
  const dataset = await library.saveRecords(
    {
      kind: parsed.kind,
      request,
      name,
      source: 'import',
      profileName: parsed.profileName ?? null,
      account: parsed.account ?? null,
      reportedTotal: parsed.reportedTotal ?? null,
      tags: opts.tags ?? [],
      notes: `Imported from ${file}`,
      ...(parsed.fetchedAt ? { fetchedAt: parsed.fetchedAt } : {}),
    },
    checked.value,
  );
  return { dataset, format, rows: checked.value.length, filterRestored: parsed.request !== undefined };
}

function parseJsonRecords(text: string, file: string): Parsed {
  let body: unknown;
  try {
    body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw refuse(file, `it is not valid JSON (${(e as Error).message}); it may be cut off`);
  }
  let list: unknown = body;
  let reportedTotal: number | null = null;
  // A saved service response is accepted too: `{ total, shipments }` or `{ firms, … }`.
  if (isPlainObject(body)) {
    if (Array.isArray(body.shipments)) {
      list = body.shipments;
      if (Number.isInteger(body.total)) reportedTotal = body.total as number;
    } else if (Array.isArray(body.firms)) list = body.firms;
  }
  if (!Array.isArray(list)) throw refuse(file, 'expected a JSON array of shipment or firm records');
  if (list.length === 0) throw refuse(file, 'the file holds no records');
  const keys = new Set<string>();
  for (const r of list.slice(0, 50)) if (isPlainObject(r)) for (const k of Object.keys(r)) keys.add(k);
  const kind = detectKind([...keys]);
  if (!kind) throw refuse(file, 'its records are neither shipment nor firm records (unknown field names)');
  return { kind, records: list as RecordObject[], reportedTotal };
}

function parseCsvRecords(text: string, file: string): Parsed {
  const csv = parseCsv(text);
  if (!csv.ok) throw refuse(file, csv.message);
  const rows = csv.rows;
  // A trailing empty line is not a record.
  while (rows.length > 1 && rows[rows.length - 1]!.length === 1 && rows[rows.length - 1]![0] === '') rows.pop();
  const header = rows[0];
  if (!header || header.length === 0 || (header.length === 1 && header[0] === '')) throw refuse(file, 'the file is empty');
  const names = header.map((h) => h.trim());
  if (new Set(names).size !== names.length) throw refuse(file, 'the header row names a column twice');
  const kind = detectKind(names);
  if (!kind) throw refuse(file, 'its header row does not hold shipment or firm field names');
  const records: RecordObject[] = [];
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r]!;
    if (cells.length !== names.length) {
      throw refuse(file, `row ${r + 1} has ${cells.length} cells but the header has ${names.length} (is the file cut off?)`);
    }
    const rec: RecordObject = {};
    for (let c = 0; c < names.length; c++) {
      const name = names[c]!;
      const cell = cells[c]!;
      const col = findColumn(kind, name);
      if (col?.type === 'integer') {
        if (cell.trim() === '') rec[name] = null;
        else if (/^-?\d+$/.test(cell.trim())) rec[name] = Number(cell.trim());
        else throw refuse(file, `row ${r + 1}, ${name}: "${cell.slice(0, 40)}" is not a whole number`);
      } else rec[name] = cell;
    }
    records.push(rec);
  }
  return { kind, records };
}

type CellValue = ExcelJS.CellValue;

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** The text a cell of an exported column stands for (the exporter typed numbers and dates). */
function cellText(value: CellValue, type: string): string | number | null {
  if (value === null || value === undefined) return type === 'integer' ? null : '';
  if (value instanceof Date) {
    if (type === 'epoch') return String(value.getTime() / 1000);
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

async function parseXlsx(path: string, file: string): Promise<Parsed> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.readFile(path);
  } catch (e) {
    throw refuse(file, `it is not a readable .xlsx workbook (${(e as Error).message.slice(0, 120)})`);
  }
  const query = new Map<string, string>();
  const qs = wb.getWorksheet('Query');
  qs?.eachRow((row, n) => {
    if (n === 1) return;
    const k = cellText(row.getCell(1).value, 'text');
    const v = cellText(row.getCell(2).value, 'text');
    if (typeof k === 'string' && k) query.set(k, v === null ? '' : String(v));
  });
  const declared = query.get('kind');
  const sheets = wb.worksheets.filter((ws) => /^(Shipments|Firms)( \(\d+\))?$/.test(ws.name));
  if (sheets.length === 0) throw refuse(file, 'it has no "Shipments" or "Firms" sheet (not a Portolan export)');
  const kind: DatasetKind = sheets[0]!.name.startsWith('Firms') ? 'firms' : 'shipments';
  if (declared && declared !== kind) throw refuse(file, `its Query sheet says ${declared} but the data sheet holds ${kind}`);
  const records: RecordObject[] = [];
  let header: string[] | null = null;
  for (const ws of sheets.filter((s) => s.name.startsWith(kind === 'firms' ? 'Firms' : 'Shipments'))) {
    const first = ws.getRow(1);
    const names: string[] = [];
    for (let c = 1; c <= first.cellCount; c++) names.push(String(cellText(first.getCell(c).value, 'text') ?? '').trim());
    if (header && header.join('\u0000') !== names.join('\u0000')) throw refuse(file, `sheet ${ws.name} has a different header`);
    header = names;
    if (detectKind(names) !== kind) throw refuse(file, `the header of sheet ${ws.name} is not ${kind} field names`);
    const types = names.map((n) => findColumn(kind, n)?.type ?? 'text');
    ws.eachRow((row, n) => {
      if (n === 1) return;
      const rec: RecordObject = {};
      for (let c = 0; c < names.length; c++) {
        if (!names[c]) continue;
        rec[names[c]!] = cellText(row.getCell(c + 1).value, types[c]!);
      }
      records.push(rec);
    });
  }
  // Columns the export left out come back as "" so every record has the full field list.
  for (const rec of records) for (const col of columnsOf(kind)) if (!(col.field in rec)) rec[col.field] = col.type === 'integer' ? null : '';
  const out: Parsed = { kind, records };
  const filterText = query.get('filter');
  if (filterText) {
    try {
      const f: unknown = JSON.parse(filterText);
      if (isPlainObject(f)) out.request = f;
    } catch {
      throw refuse(file, 'its Query sheet holds a filter that is not valid JSON');
    }
  }
  const profile = query.get('profile');
  if (profile) out.profileName = profile;
  const account = query.get('account');
  if (account) out.account = account;
  const fetchedAt = query.get('fetched_at');
  if (fetchedAt && !Number.isNaN(Date.parse(fetchedAt))) out.fetchedAt = fetchedAt;
  const totalText = query.get('total_reported') ?? '';
  if (/^\d+$/.test(totalText)) out.reportedTotal = Number(totalText);
  return out;
}
