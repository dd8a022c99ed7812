import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { AppError } from '@shared/ipc/errors';
import { MAX_TAG_LENGTH, MAX_TAGS, uniqueTags } from '@shared/library/dataset-fields';
import type { CoveredWindow, DatasetStatus, NewDataset } from './dataset-types';
import { ROW_TABLE, type DatasetKind } from './fields';
import { FirmWriter } from './firms/firm-writer';
import {
  RecordIssueError,
  appendRecords,
  appendStagedRows,
  rowColumnNames,
  type StagedSource,
} from './ingest';
import { JobStoreWriter } from './job-store';
import { readIn } from './db';
import { defaultDatasetName, filterKey, seriesKey } from './naming';
import { WatchWriter } from './watch/watch-store';

export function cleanTags(tags: readonly string[]): string[] {
  return uniqueTags(tags)
    .filter((t) => t.length <= MAX_TAG_LENGTH)
    .slice(0, MAX_TAGS);
}

/** Whether a dataset's name is the one the app makes for its query (a firm page's " · page n of m" included). */
function isMadeUpName(name: string, kind: DatasetKind, request: Record<string, unknown>): boolean {
  return name.startsWith(defaultDatasetName(kind, request));
}

function parseJsonValue(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? null;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return null;
  }
}

function parseObject(v: unknown): Record<string, unknown> {
  const o = parseJsonValue(v);
  return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
}

/** What a finished dataset records: its final status and counts. */
export interface DatasetFinish {
  status: DatasetStatus;
  storedRows: number;
  reportedTotal?: number | null;
  windows?: CoveredWindow[] | null;
  /** When the records really were fetched (an import of an earlier export); now otherwise. */
  fetchedAt?: string;
}

/**
 * The writes of one unit of work (`library.write(tx => …)`): everything done through it commits
 * together or not at all. The library's tables are written only here; a fetch job stores its rows and
 * its state in the same unit (`jobs`), firm resolution its decisions and results (`firms`).
 */
export class LibraryWriter {
  readonly jobs: JobStoreWriter;
  /** Firm resolution's tables: the analyst's decisions and the rebuilt resolution. */
  readonly firms: FirmWriter;
  /** Watched queries and their snapshots. */
  readonly watch: WatchWriter;

  constructor(private readonly conn: DuckDBConnection) {
    this.jobs = new JobStoreWriter(conn);
    this.firms = new FirmWriter(conn);
    this.watch = new WatchWriter(conn);
  }

  /** A new dataset (`pending`, invisible in the library, unless told otherwise); its id. */
  async createDataset(d: NewDataset, status: DatasetStatus | 'pending' = 'pending'): Promise<string> {
    const id = d.id ?? randomUUID();
    const own = d.name?.trim() || defaultDatasetName(d.kind, d.request);
    const prior = (d.source ?? 'fetch') === 'fetch' ? await this.latestVersionOf(d) : null;
    // A new version keeps what the analyst gave its series: a name they chose (unless this fetch was
    // given its own), the tags and the notes. A name the app made up is made up again for this fetch.
    const name =
      prior && isMadeUpName(own, d.kind, d.request) && !isMadeUpName(prior.name, d.kind, prior.request)
        ? prior.name
        : own;
    const tags = d.tags?.length ? d.tags : (prior?.tags ?? []);
    const notes = d.notes || prior?.notes || '';
    await this.conn.run(
      `INSERT INTO datasets (id, name, kind, request_json, filter_key, profile_id, profile_name, account, fetched_at,
         reported_total, stored_rows, notes, status, tags_json, windows_json, reported_json, source, job_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, $12, $13, NULL, $14, $15, $16)`,
      [
        id,
        name.slice(0, 300),
        d.kind,
        JSON.stringify(d.request),
        filterKey(d.kind, d.request),
        d.profileId ?? null,
        d.profileName ?? null,
        d.account ?? null,
        d.fetchedAt ?? new Date().toISOString(),
        d.reportedTotal ?? null,
        notes,
        status,
        JSON.stringify(cleanTags(tags)),
        d.reported ? JSON.stringify(d.reported) : null,
        d.source ?? 'fetch',
        d.jobId ?? null,
      ],
    );
    return id;
  }

  /** The newest visible dataset of the series a new fetch joins (`seriesKey`): what it inherits. */
  private async latestVersionOf(
    d: NewDataset,
  ): Promise<{ name: string; notes: string; tags: string[]; request: Record<string, unknown> } | null> {
    const rows = await readIn(
      this.conn,
      `SELECT name, notes, tags_json, request_json FROM datasets
       WHERE filter_key = $1 AND source = 'fetch' AND status <> 'pending'
         AND profile_id IS NOT DISTINCT FROM $2 AND account IS NOT DISTINCT FROM $3
       ORDER BY fetched_at DESC`,
      [filterKey(d.kind, d.request), d.profileId ?? null, d.account ?? null],
    );
    const series = seriesKey({
      ...d,
      id: '',
      source: 'fetch',
      profileId: d.profileId ?? null,
      account: d.account ?? null,
    });
    for (const r of rows) {
      const request = parseObject(r.request_json);
      const key = seriesKey({
        ...d,
        id: '',
        request,
        source: 'fetch',
        profileId: d.profileId ?? null,
        account: d.account ?? null,
      });
      if (key !== series) continue;
      const tags = parseJsonValue(r.tags_json);
      return {
        name: String(r.name ?? ''),
        notes: String(r.notes ?? ''),
        tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
        request,
      };
    }
    return null;
  }

  /**
   * Appends records as rows `firstRowNo…` of the dataset. Records are checked against the spec's rules
   * as they are laid out, unless the response parser already checked the list; a bad one rolls the whole
   * unit back with a `RecordIssueError` naming `records[i].field`, or, with `explain`, an InvalidInput
   * saying `context: path[i].field …`.
   */
  async appendRecords(
    kind: DatasetKind,
    datasetId: string,
    firstRowNo: number,
    records: readonly unknown[],
    explain?: { path: string; context: string },
    into?: { catalog: string; table: string },
  ): Promise<number> {
    try {
      return await appendRecords(this.conn, kind, datasetId, firstRowNo, records, explain?.path, into);
    } catch (e) {
      if (explain && e instanceof RecordIssueError)
        throw new AppError('InvalidInput', `${explain.context}: ${e.message}`);
      throw e;
    }
  }

  /**
   * Moves a dataset's rows held in another table of the row table's shape (`stagingTableDdl`, an
   * in-memory one of the library's) into the row table, as they are.
   */
  async copyRows(kind: DatasetKind, from: string): Promise<number> {
    const names = rowColumnNames(kind).join(', ');
    const r = await this.conn.run(`INSERT INTO ${ROW_TABLE[kind]} (${names}) SELECT ${names} FROM ${from}`);
    return Number(r.rowsChanged);
  }

  /** Copies rows the import worker staged as rows `firstRowNo…` of the dataset (see `appendStagedRows`). */
  appendStagedRows(
    kind: DatasetKind,
    datasetId: string,
    firstRowNo: number,
    staged: StagedSource,
    onProgress?: (share: number) => void,
    signal?: AbortSignal,
  ): Promise<number> {
    return appendStagedRows(this.conn, kind, datasetId, firstRowNo, staged, onProgress, signal);
  }

  /**
   * Sets the final counts and status of a dataset. Its fetch time becomes now (a fetch job ends when its
   * last rows arrive) unless `fetchedAt` says when the records really were fetched.
   */
  async finishDataset(id: string, f: DatasetFinish): Promise<void> {
    await this.conn.run(
      `UPDATE datasets SET status = $2, stored_rows = $3, reported_total = coalesce($4, reported_total),
         windows_json = $5, fetched_at = $6 WHERE id = $1`,
      [
        id,
        f.status,
        f.storedRows,
        f.reportedTotal ?? null,
        f.windows ? JSON.stringify(f.windows) : null,
        f.fetchedAt ?? new Date().toISOString(),
      ],
    );
  }

  /** What the service reported about the whole fetch (totals, requests spent, gaps). */
  async setReported(id: string, reported: Record<string, unknown>): Promise<void> {
    await this.conn.run(`UPDATE datasets SET reported_json = $2 WHERE id = $1`, [
      id,
      JSON.stringify(reported),
    ]);
  }

  /** What an import says of its file: its notes, the fields it lacked and the columns it had beyond them. */
  async setImportDetails(
    id: string,
    d: { notes: string; missingFields: readonly string[]; extraColumns: readonly string[] },
  ): Promise<void> {
    await this.conn.run(
      `UPDATE datasets SET notes = $2, missing_json = $3, extra_columns_json = $4 WHERE id = $1`,
      [
        id,
        d.notes.slice(0, 20_000),
        d.missingFields.length > 0 ? JSON.stringify(d.missingFields) : null,
        d.extraColumns.length > 0 ? JSON.stringify(d.extraColumns) : null,
      ],
    );
  }

  /** Renames, notes, tags: one metadata column. */
  async setMeta(id: string, column: 'name' | 'notes' | 'tags_json', value: string): Promise<void> {
    await this.conn.run(`UPDATE datasets SET ${column} = $2 WHERE id = $1`, [id, value]);
  }

  /** The extra columns a dataset's rows carry (a watched query's snapshot columns). */
  async setExtraColumns(id: string, headers: readonly string[]): Promise<void> {
    await this.conn.run(`UPDATE datasets SET extra_columns_json = $2 WHERE id = $1`, [
      id,
      headers.length > 0 ? JSON.stringify(headers) : null,
    ]);
  }

  /** A dataset left pending under this id (a save that failed half way), rows and all. */
  async discardPending(id: string): Promise<void> {
    const left = await readIn(this.conn, `SELECT 1 FROM datasets WHERE id = $1 AND status = 'pending'`, [id]);
    if (left.length > 0) await this.deleteDataset(id);
  }

  /** A dataset and its rows, and the watch whose dataset it is. */
  async deleteDataset(id: string): Promise<void> {
    await this.conn.run(
      `DELETE FROM watch_snapshots WHERE watch_id IN (SELECT id FROM watches WHERE dataset_id = $1)`,
      [id],
    );
    await this.conn.run(`DELETE FROM watches WHERE dataset_id = $1`, [id]);
    await this.conn.run(`DELETE FROM shipment_rows WHERE dataset_id = $1`, [id]);
    await this.conn.run(`DELETE FROM firm_rows WHERE dataset_id = $1`, [id]);
    await this.conn.run(`DELETE FROM datasets WHERE id = $1`, [id]);
  }
}
