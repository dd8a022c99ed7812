import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { describeIssue } from '@shared/spec/issues';
import { checkRecords } from '../ingest';
import type { DatasetMeta, DatasetStatus, Library } from '../library';
import { defaultDatasetName } from '../naming';
import { parseCsvRecords } from './csv-records';
import { decodeText, type DecodedText } from './decode-text';
import { importFormatOf, type ImportFormat } from './file-type';
import { parseJsonRecords } from './json-records';
import { refuse, type Parsed } from './parsed';
import { checkValueFormats, type ImportWarning } from './value-check';
import { parseXlsxRecords } from './xlsx-records';

export type { ImportFormat } from './file-type';
export type { ImportWarning } from './value-check';

export interface ImportResult {
  dataset: DatasetMeta;
  format: ImportFormat;
  rows: number;
  /** True when an xlsx export's Query sheet gave back the original filter. */
  filterRestored: boolean;
  /** Date and number values kept as text that will not sort or filter as dates and numbers; empty when none. */
  warnings: ImportWarning[];
}

/** Files above this are refused before reading: the library is for query results, not dumps. */
const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

function undecodable(format: ImportFormat, decoded: Extract<DecodedText, { ok: false }>): string {
  const fix =
    format === 'csv'
      ? 'In Excel use File > Save As > "CSV UTF-8 (Comma delimited) (*.csv)", then import the new file'
      : 'Save it again with UTF-8 encoding, then import the new file';
  if (decoded.reason === 'binary') {
    return `it is not text Portolan can read: it holds NUL bytes, as UTF-16 text without a byte order mark or a binary file does. ${fix}`;
  }
  if (decoded.reason === 'bad-utf16') return `it says it is UTF-16 text but is damaged or cut off. ${fix}`;
  const where = decoded.line ? `line ${decoded.line}` : 'it';
  return (
    `the file is not UTF-8 text: ${where} holds characters in another encoding, probably Windows-1252 ("ANSI"), ` +
    `which would be stored garbled. ${fix}`
  );
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
  const type = importFormatOf(path);
  if (!type.ok) throw refuse(file, type.problem);
  const { format } = type;
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw refuse(file, 'the file does not exist');
  if (info.size > MAX_IMPORT_BYTES) throw refuse(file, 'the file is larger than 512 MB');
  let parsed: Parsed;
  if (format === 'xlsx') parsed = await parseXlsxRecords(path, file);
  else {
    const decoded = decodeText(await readFile(path));
    if (!decoded.ok) throw refuse(file, undecodable(format, decoded));
    parsed = format === 'csv' ? parseCsvRecords(decoded.text, file) : parseJsonRecords(decoded.text, file);
  }
  const checked = checkRecords(parsed.kind, parsed.records, 'records');
  if (!checked.ok) throw refuse(file, describeIssue(checked.issue));
  const values = checkValueFormats(parsed.kind, checked.value, parsed.locate);
  if (!values.ok) throw refuse(file, values.problem);

  const rows = checked.value.length;
  const reportedTotal = parsed.reportedTotal ?? null;
  // The rule fetched datasets follow: fewer rows than the service reported is only part of the answer.
  const partOnly = [...(parsed.partOnly ?? [])];
  if (reportedTotal !== null && rows < reportedTotal) {
    partOnly.push(
      `it holds ${rows.toLocaleString('en-US')} of the ${reportedTotal.toLocaleString('en-US')} records the service reported`,
    );
  }
  const status: DatasetStatus = partOnly.length > 0 ? 'partial' : 'complete';
  const request = parsed.request ?? {};
  const name =
    opts.name?.trim() ||
    (parsed.request
      ? defaultDatasetName(parsed.kind, request) + (parsed.fromFilteredView ? ' · filtered view' : '')
      : `Imported ${parsed.kind} · ${file}`);
  const notes =
    `Imported from ${file}` +
    (partOnly.length > 0 ? `. Only part of its query's records: ${partOnly.join('; ')}.` : '');
  const dataset = await library.saveRecords(
    {
      kind: parsed.kind,
      request,
      name,
      source: 'import',
      profileName: parsed.profileName ?? null,
      account: parsed.account ?? null,
      reportedTotal,
      reported: parsed.reported ?? null,
      tags: opts.tags ?? [],
      notes,
      ...(parsed.fetchedAt ? { fetchedAt: parsed.fetchedAt } : {}),
    },
    checked.value,
    { status },
  );
  return { dataset, format, rows, filterRestored: parsed.request !== undefined, warnings: values.warnings };
}
