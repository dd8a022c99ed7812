import type { DatasetKind } from './fields';
import type { RecordObject } from './ingest';

export type DatasetStatus = 'complete' | 'partial';
export type DatasetSource = 'fetch' | 'import';

/** A part of a sliced fetch: the filter overrides that narrowed it, what it held, what was stored. */
export interface CoveredWindow {
  /** e.g. `{ start_date, end_date }` or `{ start_date, end_date, hs_codes: ['7208'] }`. */
  filter: Record<string, unknown>;
  total: number;
  /** False when the window could not be narrowed below the per-call cap and was fetched capped. */
  complete: boolean;
}

/** Who fetched: the connection profile and account a dataset came from. */
export interface Provenance {
  profileId: string | null;
  profileName: string | null;
  account: string | null;
}

export interface DatasetMeta extends Provenance {
  id: string;
  name: string;
  kind: DatasetKind;
  /** The exact request/filter JSON as sent (or as restored by an import). */
  request: Record<string, unknown>;
  fetchedAt: string;
  /** What the service reported as matching (`total` for shipments); null when unknown. */
  reportedTotal: number | null;
  storedRows: number;
  notes: string;
  tags: string[];
  status: DatasetStatus;
  /** The covered windows of a sliced fetch; null for a single-call fetch or an import. */
  windows: CoveredWindow[] | null;
  /** Extra summary fields the service reported (e.g. `total_pages` of a firm search). */
  reported: Record<string, unknown> | null;
  source: DatasetSource;
  /** Fields the imported file did not have: missing (null), not empty. Empty for fetched data. */
  missingFields: string[];
  /** The imported file's columns beyond the record's fields, by header, in file order. */
  extraColumns: string[];
}

export interface NewDataset extends Partial<Provenance> {
  /** An id given before the dataset is stored (a search's answer is shown while it is saved); new by default. */
  id?: string;
  kind: DatasetKind;
  request: Record<string, unknown>;
  name?: string;
  fetchedAt?: string;
  reportedTotal?: number | null;
  reported?: Record<string, unknown> | null;
  notes?: string;
  tags?: string[];
  source?: DatasetSource;
  jobId?: string | null;
}

export interface ListOptions {
  /** Matched case-insensitively against name, notes and tags. */
  search?: string;
  kind?: DatasetKind;
  tag?: string;
}

export interface RowsBlock {
  /** Records as stored, plus `_row`: the row's stable position in the dataset (use as row id). */
  rows: RecordObject[];
  /** Number of rows matching the query (ag-grid's `lastRow`). */
  lastRow: number;
}

export interface Equivalent {
  dataset: DatasetMeta;
  ageSeconds: number;
}
