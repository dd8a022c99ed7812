import { KEYWORD_FIELDS } from '@shared/spec/filter';
import type { DatasetKind } from './fields';

/** Request fields that shape how much is fetched, not which records match. */
const PAGING_FIELDS = new Set(['size', 'page']);
/** Lists whose order means nothing to the service. */
const SET_FIELDS = new Set(['importer_countries', 'exporter_countries', 'hs_codes', 'firm_filter']);

/**
 * A canonical text for "the same question": paging fields dropped, empty values dropped, set-like
 * lists sorted and deduplicated, keys sorted. Two requests with the same key return the same records.
 */
export function filterKey(kind: DatasetKind, request: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(request).sort()) {
    if (PAGING_FIELDS.has(key)) continue;
    let v = request[key];
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) {
      if (v.length === 0) continue;
      if (SET_FIELDS.has(key)) {
        v = [...new Set(v.map((x) => (typeof x === 'string' ? x.trim() : x)))].sort((a, b) =>
          String(a).localeCompare(String(b)),
        );
      }
    } else if (typeof v === 'string') {
      v = v.trim();
    }
    out[key] = v;
  }
  // Rule 3 of firm search: an omitted importer_countries means ALL, so both spell the same question.
  if (kind === 'firms' && JSON.stringify(out.importer_countries) === '["ALL"]') delete out.importer_countries;
  return `${kind}:${JSON.stringify(out)}`;
}

function list(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String).filter((s) => s.length > 0) : [];
}

/** "Shipments · DE→TR · HS 7208 · 2024-01-01…2024-06-30" — what the filter asked, in a few words. */
export function defaultDatasetName(kind: DatasetKind, request: Record<string, unknown>): string {
  const parts: string[] = [kind === 'shipments' ? 'Shipments' : 'Firms'];
  const exp = list(request.exporter_countries);
  const imp = list(request.importer_countries).filter((c) => c !== 'ALL');
  if (exp.length || imp.length) parts.push(`${exp.join(',')}→${imp.join(',')}`);
  const hs = list(request.hs_codes);
  if (hs.length) parts.push(`HS ${hs.join(', ')}`);
  const start = typeof request.start_date === 'string' ? request.start_date : '';
  const end = typeof request.end_date === 'string' ? request.end_date : '';
  if (start || end) parts.push(start && end ? `${start}…${end}` : start ? `from ${start}` : `until ${end}`);
  for (const f of KEYWORD_FIELDS) {
    const v = request[f];
    if (typeof v === 'string' && v.trim()) parts.push(`“${v.trim()}”`);
  }
  if (request.search_type === 'importer' || request.search_type === 'exporter')
    parts.push(`${request.search_type}s`);
  if (parts.length === 1) parts.push('all');
  return parts.join(' · ');
}

/** What a dataset's series and source are computed from. */
export interface SeriesSource {
  id: string;
  kind: DatasetKind;
  request: Record<string, unknown>;
  source: 'fetch' | 'import';
  profileId: string | null;
  account: string | null;
}

/**
 * The versions a dataset belongs to: every fetch of the same question (`filterKey`) for the same
 * profile and account is a version of one dataset, so searching again adds to its history instead of
 * piling up same-named datasets. A firm search's pages are different records, so each page is its own
 * series; an import is a series of its own.
 */
export function seriesKey(d: SeriesSource): string {
  if (d.source === 'import') return `import:${d.id}`;
  const page = d.kind === 'firms' && typeof d.request.page === 'number' ? `#page=${d.request.page}` : '';
  return `${filterKey(d.kind, d.request)}${page}|${d.profileId ?? ''}|${d.account ?? ''}`;
}

/** The query a dataset answers, in a few words; for an import without its query, where it came from. */
export function describeSource(d: SeriesSource): string {
  if (d.source === 'import' && Object.keys(d.request).length === 0)
    return `Imported ${d.kind === 'firms' ? 'firms' : 'shipments'} (no query)`;
  const words = defaultDatasetName(d.kind, d.request);
  const page = d.kind === 'firms' && typeof d.request.page === 'number' ? ` · page ${d.request.page}` : '';
  return words + page;
}
