import { randomUUID } from 'node:crypto';
import { chmod, mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DuckDBConnection, Json } from '@duckdb/node-api';
import { AppError } from '@shared/ipc/errors';
import { MAX_TAG_LENGTH, MAX_TAGS, uniqueTags } from '@shared/library/dataset-fields';
import { RESOLVED_FIRM_COLUMNS, isResolvedFirmColumn } from '@shared/library/library-contract';
import { isPlainObject, typeName } from '@shared/spec/records';
import { Db, readIn, toNumber, type Row, type SqlParams } from './db';
import { EXTRA_COLUMN, ROW_TABLE, columnsOf, type DatasetKind } from './fields';
import { RecordIssueError, appendColumns, appendRecords, rowToRecord, type RecordObject } from './ingest';
import { defaultDatasetName, filterKey } from './naming';
import { buildQuery, parseGridQuery, selectedColumns, type GridQuery } from './query';
import { FirmBook } from './firms/firm-book';
import { firmNameSql } from './firms/firm-sql';
import { migrate } from './schema';
import {
  diskFullError,
  isDamagedLibrary,
  isDiskFull,
  libraryLockedError,
  lockHolder,
} from './storage-errors';

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

const META_COLUMNS =
  'id, name, kind, request_json, profile_id, profile_name, account, fetched_at, reported_total, stored_rows, notes, status, tags_json, windows_json, reported_json, source, missing_json, extra_columns_json';

/** Job states whose pending dataset must survive a restart (the job can still be resumed). */
export const RESUMABLE_JOB_STATES = ['running', 'interrupted', 'paused', 'failed'] as const;

function text(v: Json | undefined): string | null {
  return v === null || v === undefined ? null : String(v);
}

function parseJson<T>(v: Json | undefined, fallback: T): T {
  if (typeof v !== 'string' || !v) return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

function toMeta(r: Row): DatasetMeta {
  return {
    id: String(r.id),
    name: String(r.name),
    kind: r.kind === 'firms' ? 'firms' : 'shipments',
    request: parseJson<Record<string, unknown>>(r.request_json, {}),
    profileId: text(r.profile_id),
    profileName: text(r.profile_name),
    account: text(r.account),
    fetchedAt: String(r.fetched_at),
    reportedTotal:
      r.reported_total === null || r.reported_total === undefined ? null : toNumber(r.reported_total),
    storedRows: toNumber(r.stored_rows),
    notes: String(r.notes ?? ''),
    tags: parseJson<string[]>(r.tags_json, []),
    status: r.status === 'partial' ? 'partial' : 'complete',
    windows: parseJson<CoveredWindow[] | null>(r.windows_json, null),
    reported: parseJson<Record<string, unknown> | null>(r.reported_json, null),
    source: r.source === 'import' ? 'import' : 'fetch',
    missingFields: parseJson<string[]>(r.missing_json, []),
    extraColumns: parseJson<string[]>(r.extra_columns_json, []),
  };
}

/** Appends inside the caller's transaction; a record that breaks the spec becomes an InvalidInput error. */
async function appendOrExplain(
  conn: DuckDBConnection,
  kind: DatasetKind,
  id: string,
  records: readonly unknown[],
  path: string,
  context: string,
): Promise<number> {
  try {
    return await appendRecords(conn, kind, id, 0, records, path);
  } catch (e) {
    if (e instanceof RecordIssueError) throw new AppError('InvalidInput', `${context}: ${e.message}`);
    throw e;
  }
}

function cleanTags(tags: readonly string[]): string[] {
  return uniqueTags(tags)
    .filter((t) => t.length <= MAX_TAG_LENGTH)
    .slice(0, MAX_TAGS);
}

/** The library's file in the data folder. */
export const LIBRARY_FILE = 'library.duckdb';

/** Where a damaged library file went, and why it could not be read. */
export interface LibraryRecovery {
  /** The name it was kept under, beside the new library (`library.damaged-<date>.duckdb`). */
  keptAs: string;
  reason: string;
}

/** Moves a damaged library file (and its write-ahead log) aside under a dated name; returns the new path. */
async function keepAside(path: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  const aside = path.replace(/\.duckdb$/, `.damaged-${stamp}.duckdb`);
  await rename(path, aside);
  await rename(`${path}.wal`, `${aside}.wal`).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  return aside;
}

/** The library file and its log readable by the analyst alone, whatever the umask made them. */
async function makePrivate(path: string): Promise<void> {
  for (const file of [path, `${path}.wal`]) {
    await chmod(file, 0o600).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }
}

/**
 * The offline library: every fetched or imported result as a dataset in one DuckDB file. Plain Node;
 * knows nothing of Electron or of the service client.
 */
export class Library {
  /** Firm resolution over every dataset, with the analyst's decisions. */
  readonly firms: FirmBook;

  private constructor(
    readonly db: Db,
    readonly path: string,
  ) {
    this.firms = new FirmBook(db);
  }

  /**
   * Set when the library file could not be read and was kept aside: this library is a fresh one, and
   * the analyst is told where the old file is.
   */
  recovery: LibraryRecovery | null = null;

  /**
   * Opens (or creates) `<dataDir>/library.duckdb`, migrates it and discards uncommitted leftovers. The
   * folder is the analyst's alone (0700) and so are the files (0600). A file held by another program
   * is a StorageLocked error naming that program; a damaged file is kept aside under a dated name and a
   * fresh library opens in its place (`recovery` says so).
   */
  static async open(dataDir: string): Promise<Library> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await chmod(dataDir, 0o700);
    const path = join(dataDir, LIBRARY_FILE);
    try {
      return await Library.openFile(path);
    } catch (e) {
      const holder = lockHolder(e);
      if (holder) throw libraryLockedError(holder);
      if (isDiskFull(e)) throw diskFullError('library');
      if (!isDamagedLibrary(e)) throw e;
      const keptAs = await keepAside(path);
      const lib = await Library.openFile(path);
      lib.recovery = { keptAs: basename(keptAs), reason: e instanceof Error ? e.message.slice(0, 300) : '' };
      return lib;
    }
  }

  private static async openFile(path: string): Promise<Library> {
    const db = await Db.open(path);
    try {
      await migrate(db);
      const lib = new Library(db, path);
      await lib.recover();
      await makePrivate(path);
      return lib;
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /**
   * After a crash: a job that was running is now interrupted (resumable); a pending dataset that no
   * resumable job owns is a leftover and goes, rows and all.
   */
  private async recover(): Promise<void> {
    await this.db.transaction(async (conn) => {
      await conn.run(`UPDATE jobs SET status = 'interrupted' WHERE status = 'running'`);
      const states = RESUMABLE_JOB_STATES.map((s) => `'${s}'`).join(', ');
      const orphans = await readIn(
        conn,
        `SELECT id FROM datasets WHERE status = 'pending'
           AND id NOT IN (SELECT dataset_id FROM jobs WHERE status IN (${states}))`,
      );
      for (const o of orphans) await deleteDatasetIn(conn, String(o.id));
    });
  }

  /** Folds the write-ahead log into the file; cheap to call when the app is idle. */
  checkpoint(): Promise<void> {
    return this.db.exec('CHECKPOINT');
  }

  async close(): Promise<void> {
    await this.checkpoint().catch(() => undefined);
    await this.db.closeWhenIdle();
  }

  // ---- writing datasets ----

  /** Inserts a dataset row (status `pending` unless told otherwise) inside the caller's transaction. */
  async insertDataset(
    conn: DuckDBConnection,
    d: NewDataset,
    status: DatasetStatus | 'pending',
  ): Promise<string> {
    const id = randomUUID();
    const name = d.name?.trim() || defaultDatasetName(d.kind, d.request);
    await conn.run(
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
        d.notes ?? '',
        status,
        JSON.stringify(cleanTags(d.tags ?? [])),
        d.reported ? JSON.stringify(d.reported) : null,
        d.source ?? 'fetch',
        d.jobId ?? null,
      ],
    );
    return id;
  }

  /**
   * Sets the final counts and status of a dataset inside the caller's transaction. Its fetch time
   * becomes now (a fetch job ends when its last rows arrive) unless `fetchedAt` says when the records
   * really were fetched, as an import of an earlier export does.
   */
  async finishDataset(
    conn: DuckDBConnection,
    id: string,
    f: {
      status: DatasetStatus;
      storedRows: number;
      reportedTotal?: number | null;
      windows?: CoveredWindow[] | null;
      fetchedAt?: string;
    },
  ): Promise<void> {
    await conn.run(
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

  /**
   * Saves already-checked records as one complete (or partial) dataset in a single transaction: the
   * dataset either appears whole or not at all.
   */
  async saveRecords(
    d: NewDataset,
    records: readonly RecordObject[],
    opts: { status?: DatasetStatus; windows?: CoveredWindow[] | null } = {},
  ): Promise<DatasetMeta> {
    const id = await this.db.transaction(async (conn) => {
      const id = await this.insertDataset(conn, d, 'pending');
      const n = await appendOrExplain(conn, d.kind, id, records, d.kind, 'Cannot save');
      await this.finishDataset(conn, id, {
        status: opts.status ?? 'complete',
        storedRows: n,
        reportedTotal: d.reportedTotal ?? null,
        windows: opts.windows ?? null,
        ...(d.fetchedAt ? { fetchedAt: d.fetchedAt } : {}),
      });
      return id;
    });
    return this.get(id);
  }

  /** Saves a shipment search response (as the API client returns it) as a dataset. */
  saveShipmentSearch(
    request: Record<string, unknown>,
    response: { total: number; shipments: readonly RecordObject[] },
    provenance: Partial<Provenance> & { name?: string } = {},
  ): Promise<DatasetMeta> {
    const complete = response.shipments.length >= response.total;
    return this.saveRecords(
      {
        ...provenance,
        kind: 'shipments',
        request,
        reportedTotal: response.total,
        reported: { total: response.total },
      },
      response.shipments,
      { status: complete ? 'complete' : 'partial' },
    );
  }

  /**
   * The fast path for a raw response body: parse, check, store. The body must be the JSON of a
   * shipment search response (`{ total, shipments }`).
   */
  async ingestShipmentSearchText(
    body: string,
    request: Record<string, unknown>,
    provenance: Partial<Provenance> & { name?: string } = {},
  ): Promise<DatasetMeta> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (e) {
      throw new AppError('InvalidInput', `The response is not valid JSON: ${(e as Error).message}`);
    }
    if (!isPlainObject(parsed) || !Number.isInteger(parsed.total)) {
      throw new AppError(
        'InvalidInput',
        'The response is not a shipment search response (no whole-number total)',
      );
    }
    const list = parsed.shipments ?? [];
    if (!Array.isArray(list)) {
      throw new AppError(
        'InvalidInput',
        `The response breaks the spec: response.shipments must be a list, got ${typeName(list)}`,
      );
    }
    const total = parsed.total as number;
    const id = await this.db.transaction(async (conn) => {
      const id = await this.insertDataset(
        conn,
        { ...provenance, kind: 'shipments', request, reportedTotal: total, reported: { total } },
        'pending',
      );
      const n = await appendOrExplain(
        conn,
        'shipments',
        id,
        list,
        'response.shipments',
        'The response breaks the spec',
      );
      await this.finishDataset(conn, id, { status: n >= total ? 'complete' : 'partial', storedRows: n });
      return id;
    });
    return this.get(id);
  }

  // ---- a file import, stored in steps ----

  /**
   * Starts an import: a pending dataset no list shows. Its rows arrive in batches (`appendImported`),
   * each in a short transaction of its own so other writes (a search being saved) are not held up
   * for the whole import; `finishImport` makes it visible, `discardImport` removes it. A crash in
   * between leaves a pending dataset that the next start removes (recover).
   */
  beginImport(d: NewDataset): Promise<string> {
    return this.db.transaction((conn) => this.insertDataset(conn, { ...d, source: 'import' }, 'pending'));
  }

  appendImported(
    id: string,
    kind: DatasetKind,
    firstRowNo: number,
    batch: Parameters<typeof appendColumns>[4],
  ): Promise<number> {
    return this.db.transaction((conn) => appendColumns(conn, kind, id, firstRowNo, batch));
  }

  async finishImport(
    id: string,
    f: {
      status: DatasetStatus;
      storedRows: number;
      reportedTotal?: number | null;
      fetchedAt?: string;
      notes: string;
      missingFields: readonly string[];
      extraColumns: readonly string[];
    },
  ): Promise<DatasetMeta> {
    await this.db.transaction(async (conn) => {
      await this.finishDataset(conn, id, {
        status: f.status,
        storedRows: f.storedRows,
        reportedTotal: f.reportedTotal ?? null,
        ...(f.fetchedAt ? { fetchedAt: f.fetchedAt } : {}),
      });
      await conn.run(
        `UPDATE datasets SET notes = $2, missing_json = $3, extra_columns_json = $4 WHERE id = $1`,
        [
          id,
          f.notes.slice(0, 20_000),
          f.missingFields.length > 0 ? JSON.stringify(f.missingFields) : null,
          f.extraColumns.length > 0 ? JSON.stringify(f.extraColumns) : null,
        ],
      );
    });
    this.counts.clear();
    return this.get(id);
  }

  /** Removes a pending import and whatever rows it stored. */
  discardImport(id: string): Promise<void> {
    return this.db.transaction((conn) => deleteDatasetIn(conn, id));
  }

  // ---- reading and managing datasets ----

  async get(id: string): Promise<DatasetMeta> {
    const r = await this.db.one(
      `SELECT ${META_COLUMNS} FROM datasets WHERE id = $1 AND status <> 'pending'`,
      [id],
    );
    if (!r) throw new AppError('NotFound', 'That dataset is not in the library (it may have been deleted).');
    return toMeta(r);
  }

  async list(opts: ListOptions = {}): Promise<DatasetMeta[]> {
    const where = [`status <> 'pending'`];
    const params: SqlParams = [];
    if (opts.kind) {
      params.push(opts.kind);
      where.push(`kind = $${params.length}`);
    }
    if (opts.search?.trim()) {
      params.push(opts.search.trim().toLowerCase());
      const n = `$${params.length}`;
      // Tags are matched value by value: a search for `"` or `[` must not match the JSON they are
      // stored as. TRY: a damaged tags_json reads as no tags here, as it does in toMeta.
      const tagHit = `list_bool_or(list_transform(TRY(json_extract_string(tags_json, '$[*]')), lambda t: strpos(lower(t), ${n}) > 0))`;
      where.push(
        `(strpos(lower(name), ${n}) > 0 OR strpos(lower(notes), ${n}) > 0 OR coalesce(${tagHit}, false))`,
      );
    }
    const rows = await this.db.all(
      `SELECT ${META_COLUMNS} FROM datasets WHERE ${where.join(' AND ')} ORDER BY fetched_at DESC, name`,
      params,
    );
    let out = rows.map(toMeta);
    if (opts.tag) {
      const tag = opts.tag.trim().toLowerCase();
      out = out.filter((d) => d.tags.some((t) => t.toLowerCase() === tag));
    }
    return out;
  }

  private async update(id: string, set: string, value: string): Promise<DatasetMeta> {
    await this.get(id);
    await this.db.transaction((conn) =>
      conn.run(`UPDATE datasets SET ${set} = $2 WHERE id = $1`, [id, value]),
    );
    return this.get(id);
  }

  rename(id: string, name: string): Promise<DatasetMeta> {
    const n = name.trim();
    if (!n) throw new AppError('InvalidInput', 'A dataset needs a name');
    return this.update(id, 'name', n.slice(0, 300));
  }

  setNotes(id: string, notes: string): Promise<DatasetMeta> {
    return this.update(id, 'notes', notes.slice(0, 20_000));
  }

  setTags(id: string, tags: readonly string[]): Promise<DatasetMeta> {
    return this.update(id, 'tags_json', JSON.stringify(cleanTags(tags)));
  }

  async delete(id: string): Promise<void> {
    await this.get(id);
    await this.db.transaction((conn) => deleteDatasetIn(conn, id));
  }

  /**
   * One block of rows for the grid: sort, filters and quick filter all run in SQL, never in JS.
   * A sorted or filtered block is found in two steps: first the row numbers of the block (reading only
   * the sort and filter columns), then just those rows' requested columns.
   */
  async getRows(id: string, query: GridQuery): Promise<RowsBlock> {
    const meta = await this.get(id);
    const q = parseGridQuery(query);
    const built = buildQuery(meta.kind, id, q);
    const table = ROW_TABLE[meta.kind];
    const allFields = columnsOf(meta.kind).map((c) => c.field);
    const wanted = q.columns && q.columns.length > 0;
    const selected = selectedColumns(meta.kind, q, allFields, table);
    // A firm's rows and names are those of its spellings as of now: the resolution must know this dataset.
    if (built.byFirm || selected.byFirm) await this.firms.resolve();
    const select = [...selected.items, ...(wanted ? [] : [`"${EXTRA_COLUMN}"`])].join(', ');
    const limit = q.endRow - q.startRow;
    let rows: Row[];
    if (!built.filtered && !built.sorted) {
      // Stored order: row numbers are contiguous from 0, so a block is a range scan, no sort at all.
      rows = await this.db.all(
        `SELECT row_no, ${select} FROM ${table} WHERE dataset_id = $1 AND row_no >= $2 AND row_no < $3 ORDER BY row_no`,
        [id, q.startRow, q.endRow],
      );
    } else {
      const keys = await this.db.all(
        `SELECT row_no FROM ${table} WHERE ${built.where} ORDER BY ${built.orderBy} LIMIT ${limit} OFFSET ${q.startRow}`,
        built.params,
      );
      const order = keys.map((k) => toNumber(k.row_no));
      if (order.length === 0) rows = [];
      else {
        // Row numbers come from the database as integers; they are inlined only after that check.
        if (!order.every((n) => Number.isInteger(n))) throw new Error('unexpected row number');
        const fetched = await this.db.all(
          `SELECT row_no, ${select} FROM ${table} WHERE dataset_id = $1 AND row_no IN (${order.join(', ')})`,
          [id],
        );
        const byNo = new Map(fetched.map((r) => [toNumber(r.row_no), r]));
        rows = order.map((n) => byNo.get(n)).filter((r): r is Row => r !== undefined);
      }
    }
    let lastRow = meta.storedRows;
    if (built.filtered) lastRow = await this.count(table, built.where, built.params, !built.byFirm);
    const fields = wanted ? new Set(q.columns) : null;
    const missing = meta.missingFields.length > 0 ? new Set(meta.missingFields) : undefined;
    return {
      rows: rows.map((r) => {
        const rec = rowToRecord(meta.kind, r, missing);
        if (selected.byFirm)
          for (const c of RESOLVED_FIRM_COLUMNS) if (c in r) rec[c] = r[c] === null ? '' : String(r[c]);
        if (fields) for (const k of Object.keys(rec)) if (!fields.has(k)) delete rec[k];
        return { ...rec, _row: toNumber(r.row_no) };
      }),
      lastRow,
    };
  }

  /** Filtered counts, cached: scrolling asks for the same count with every block. Datasets never change after commit. */
  private readonly counts = new Map<string, number>();
  private async count(table: string, where: string, params: SqlParams, cache = true): Promise<number> {
    const key = JSON.stringify([table, where, params]);
    const hit = cache ? this.counts.get(key) : undefined;
    if (hit !== undefined) return hit;
    const c = await this.db.one(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, params);
    const n = toNumber(c?.n);
    // A firm's rows change with the analyst's decisions: only counts of the rows alone are kept.
    if (!cache) return n;
    if (this.counts.size >= 200) this.counts.delete(this.counts.keys().next().value!);
    this.counts.set(key, n);
    return n;
  }

  /**
   * The named fields of every matching row, in the view's order, as arrays aligned with `fields`
   * (text as text, "" for empty; firm counts as numbers or null): what exporters read. One SQL pass
   * on its own connection, a data chunk at a time, so memory stays flat at any dataset size.
   */
  async *streamFieldRows(
    id: string,
    fields: readonly string[],
    opts: { query?: Omit<GridQuery, 'startRow' | 'endRow' | 'columns'>; signal?: AbortSignal } = {},
  ): AsyncGenerator<unknown[][]> {
    const meta = await this.get(id);
    const q = parseGridQuery({ ...opts.query, startRow: 0, endRow: 0 });
    const built = buildQuery(meta.kind, id, q);
    const table = ROW_TABLE[meta.kind];
    const firmColumns = meta.kind === 'shipments' && fields.some((f) => isResolvedFirmColumn(f));
    if (built.byFirm || firmColumns) await this.firms.resolve();
    const byField = new Map(columnsOf(meta.kind).map((c) => [c.field, c]));
    const select = fields.map((f) => {
      if (meta.kind === 'shipments' && isResolvedFirmColumn(f)) {
        return `coalesce(${firmNameSql(f === 'importerFirm' ? 'importer' : 'exporter', `${table}.`)}, '')`;
      }
      const col = byField.get(f);
      if (!col)
        throw new AppError('InvalidInput', `Not a ${meta.kind} column: ${JSON.stringify(f.slice(0, 80))}`);
      // Counts leave as DOUBLE (exact to 2^53) so JavaScript gets numbers, not bigints.
      return col.type === 'integer' ? `CAST("${col.field}" AS DOUBLE)` : `coalesce("${col.field}", '')`;
    });
    // Each row leaves DuckDB as one JSON array: reading 88 text values out of a chunk one by one
    // through the node API costs ~0.7 µs each, one string per row and JSON.parse a third of that.
    const sql = `SELECT json_array(${select.join(', ')}) FROM ${table} WHERE ${built.where} ORDER BY ${built.orderBy}`;
    for await (const rows of this.db.streamRows(sql, built.params, opts.signal)) {
      yield rows.map((r) => JSON.parse(r[0] as string) as unknown[]);
    }
  }

  /**
   * "No repeat spending": the newest saved dataset that answers the same question for the same profile
   * and account, with its age. A capped shipment dataset only answers a request no bigger than it.
   */
  async findEquivalent(
    request: Record<string, unknown>,
    profile: { kind?: DatasetKind; profileId?: string | null; account?: string | null } = {},
  ): Promise<Equivalent | null> {
    const kind: DatasetKind = profile.kind ?? ('page' in request ? 'firms' : 'shipments');
    const rows = await this.db.all(
      `SELECT ${META_COLUMNS} FROM datasets
        WHERE status <> 'pending' AND source = 'fetch' AND filter_key = $1
          AND coalesce(profile_id, '') = coalesce($2, '') AND coalesce(account, '') = coalesce($3, '')
        ORDER BY fetched_at DESC`,
      [filterKey(kind, request), profile.profileId ?? null, profile.account ?? null],
    );
    const size = typeof request.size === 'number' ? request.size : Number.POSITIVE_INFINITY;
    for (const r of rows) {
      const d = toMeta(r);
      const whole = d.status === 'complete' && (d.reportedTotal === null || d.storedRows >= d.reportedTotal);
      if (whole || (kind === 'shipments' && d.storedRows >= size)) {
        const ageSeconds = Math.max(0, Math.round((Date.now() - Date.parse(d.fetchedAt)) / 1000));
        return { dataset: d, ageSeconds };
      }
    }
    return null;
  }

  /** Column names of a kind, in record order (for grids and exporters). */
  static columns(kind: DatasetKind): readonly string[] {
    return columnsOf(kind).map((c) => c.field);
  }

  /** What an export may write: the stored fields, and for shipments the resolved firm columns. */
  static exportColumns(kind: DatasetKind): readonly string[] {
    return [...Library.columns(kind), ...(kind === 'shipments' ? RESOLVED_FIRM_COLUMNS : [])];
  }
}

export async function deleteDatasetIn(conn: DuckDBConnection, id: string): Promise<void> {
  await conn.run(`DELETE FROM shipment_rows WHERE dataset_id = $1`, [id]);
  await conn.run(`DELETE FROM firm_rows WHERE dataset_id = $1`, [id]);
  await conn.run(`DELETE FROM datasets WHERE id = $1`, [id]);
}

export { EXTRA_COLUMN };
