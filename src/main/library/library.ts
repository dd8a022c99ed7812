import { chmod, mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Json } from '@duckdb/node-api';
import type { FieldType } from '@shared/fields';
import { AppError } from '@shared/ipc/errors';
import { RESOLVED_FIRM_COLUMNS, extraHeaderOf, isResolvedFirmColumn } from '@shared/library/library-contract';
import { AnswerStage } from './answer-stage';
import { Db, toNumber, type Row, type SqlParams } from './db';
import type {
  CoveredWindow,
  DatasetMeta,
  DatasetStatus,
  Equivalent,
  ListOptions,
  NewDataset,
  Provenance,
  RowsBlock,
} from './dataset-types';
import { EXTRA_COLUMN, ROW_TABLE, columnsOf, type DatasetKind } from './fields';
import { rowToRecord, stagingTableDdl, type RecordObject, type StagedSource } from './ingest';
import { JobStore } from './job-store';
import type { LibraryReader } from './library-reader';
import { LibraryWriter, cleanTags, type DatasetFinish } from './library-writer';
import { filterKey } from './naming';
import {
  buildQuery,
  extraDateSql,
  extraNumberSql,
  extraValueSql,
  parseGridQuery,
  selectedColumns,
  type DatasetExtras,
  type ExtraColumnType,
  type GridQuery,
} from './query';
import { FirmBook } from './firms/firm-book';
import { LOST_COLUMN, SNAPSHOT_COLUMN, WatchStore } from './watch/watch-store';
import { firmNameSql } from './firms/firm-sql';
import { migrate } from './schema';
import { SortedOrders, rowNumberFilter } from './sorted-order';
import { TextOrder } from './text-order';
import {
  copyOptionsSql,
  quoteLiteral,
  shapeStatsSql,
  shapesFromStats,
  typedSelectSql,
  type ParquetColumnShape,
  type ParquetMeta,
  type ParquetSourceColumn,
} from './parquet-typing';
import {
  diskFullError,
  isDamagedLibrary,
  isDiskFull,
  libraryLockedError,
  lockHolder,
  systemDetail,
  whyNotStored,
} from './storage-errors';

export type {
  CoveredWindow,
  DatasetMeta,
  DatasetSource,
  DatasetStatus,
  Equivalent,
  ListOptions,
  NewDataset,
  Provenance,
  RowsBlock,
} from './dataset-types';

const META_COLUMNS =
  'id, name, kind, request_json, profile_id, profile_name, account, fetched_at, reported_total, stored_rows, notes, status, tags_json, windows_json, reported_json, source, missing_json, extra_columns_json';

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

/**
 * Rows per page when a dataset streams out in stored order (an export): two of DuckDB's data chunks.
 * DuckDB sorts each page whole, every row as its JSON text (~2.5 KB for 88 fields): at 100,000 × 88
 * pages of 20,480 rows peaked ~40 MB higher than pages of 4,096, for the same CPU time.
 */
const EXPORT_PAGE_ROWS = 4_096;
/**
 * Rows per page of a sorted view's export. A page's rows lie anywhere in the dataset, so each page
 * costs a scan of the row numbers and a read of a few rows from every vector of every column: fewer,
 * larger pages are faster, smaller ones hold less (see src/main/export/README.md for the figures).
 */
const EXPORT_SORTED_PAGE_ROWS = 8_192;
/**
 * Rows per page of a Parquet export, each page COPYed to a part file of its own (see writeParquet).
 * What a page's COPY holds grows with it: at 1,000,000 × 88, pages of 16,384 rows peaked at ~600 MB,
 * of 65,536 at ~1.1 GB, of 122,880 at ~1.7 GB (src/main/export/README.md).
 */
const PARQUET_PAGE_ROWS = 16_384;
/**
 * Rows per row group of an exported Parquet file. DuckDB's writer holds a row group whole before it
 * writes it: joining 1,000,000 × 88 rows held ~300 MB at 32,768 rows, ~780 MB at DuckDB's default 122,880.
 */
const PARQUET_ROW_GROUP_ROWS = 32_768;
/** Shares of a Parquet export's progress: the shapes' pass, the pages, then joining them into the file. */
const PARQUET_PROGRESS = { shapes: 0.2, pages: 0.65 } as const;

/** The in-memory catalog reference tables live in: attached to the library's instance, never written to its file. */
export const REFERENCE_CATALOG = 'portolan_ref';

/** The in-memory catalog a search's rows are read from while they move into the library file. */
const FRESH_CATALOG = 'portolan_fresh';

/** A search's rows in memory (`stageRows`), until they are in the file and no grid read uses them. */
interface FreshRows {
  /** Their table, `portolan_fresh.r_<id>`. */
  table: string;
  status: DatasetStatus;
  storedRows: number;
  /** Grid reads under way on the table. */
  readers: number;
  /** The rows are in the file (or their move failed): new reads go there. */
  moved: boolean;
}

function freshTableName(id: string): string {
  return `r_${id.replace(/[^0-9A-Za-z]/g, '')}`;
}

function freshTable(id: string): string {
  return `${FRESH_CATALOG}.${freshTableName(id)}`;
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
  /** Watched queries and their snapshots (read; written through `write(tx => tx.watch…)`). */
  readonly watches: WatchStore;
  /** Read-only SQL for analysis and export. */
  readonly reader: LibraryReader;
  /** The fetch jobs saved in the library file (their rows are pending datasets until they finish). */
  readonly jobs: JobStore;
  /** Saves under way by dataset id (`saveShipmentSearch` with an id): a read of the dataset waits for its save. */
  private readonly saving = new Map<string, Promise<unknown>>();
  /**
   * The same saves until their rows are in the library file (`moveRows`): what reads other than the
   * grid's, and closing, wait for.
   */
  private readonly storing = new Map<string, Promise<unknown>>();
  /** Searches whose rows are read from memory while they move into the file, by dataset id. */
  private readonly fresh = new Map<string, FreshRows>();
  /** Saves that failed, by id: a read of the dataset says why instead of "not found". */
  private readonly failedSaves = new Map<string, AppError>();
  /** Which text fields of a dataset sort by their bytes (cheaper, same order); forgotten on every write. */
  private readonly textOrder: TextOrder;
  /** The whole order of sorted views scrolled deep into, kept for their later blocks; forgotten on every write. */
  private readonly orders: SortedOrders;

  private constructor(
    private readonly db: Db,
    readonly path: string,
  ) {
    this.jobs = new JobStore(db);
    this.textOrder = new TextOrder(async (sql, params) => (await db.all(sql, params))[0]);
    this.orders = new SortedOrders(db);
    const references = new Map<string, Promise<void>>();
    // Analysis, export, watches and firms read the row table: a search's rows still in memory are
    // waited for (a fraction of a second), so no read of theirs misses them.
    this.reader = {
      all: async (sql, params) => {
        await this.allStoredInFile();
        return db.select(sql, params);
      },
      one: async (sql, params) => {
        await this.allStoredInFile();
        return (await db.select(sql, params))[0];
      },
      streamRows: (sql, params, signal) => {
        const stored = () => this.allStoredInFile();
        return (async function* () {
          await stored();
          yield* db.streamRows(sql, params, signal);
        })();
      },
      loadReference: (table, select, params) => {
        if (!/^[a-z_]+$/.test(table)) throw new Error(`not a reference table name: ${table}`);
        let loading = references.get(table);
        if (!loading) {
          loading = db.createReference(REFERENCE_CATALOG, table, select, params);
          references.set(table, loading);
          loading.catch(() => references.delete(table));
        }
        return loading;
      },
    };
    this.firms = new FirmBook(this.reader, (work) => this.write((tx) => work(tx.firms)));
    this.watches = new WatchStore(this.reader);
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
      if (isDiskFull(e)) throw diskFullError(systemDetail(e));
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
      await db.exec(`ATTACH IF NOT EXISTS ':memory:' AS ${FRESH_CATALOG}`);
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
    await this.write(async (tx) => {
      for (const id of await tx.jobs.recover()) await tx.deleteDataset(id);
    });
  }

  /**
   * One unit of work: everything `work` writes through `tx` commits together, or nothing does (any throw
   * rolls it all back). Units run one at a time, in order; reads never see a unit half done.
   */
  async write<T>(work: (tx: LibraryWriter) => Promise<T>): Promise<T> {
    const out = await this.db.transaction((conn) => work(new LibraryWriter(conn)));
    // A unit may change a stored dataset's rows (a watched query's refresh appends and marks them):
    // no count or column type read before it still stands.
    this.counts.clear();
    this.extraTypes.clear();
    this.textOrder.clear();
    this.orders.clear();
    return out;
  }

  /** Folds the write-ahead log into the file; cheap to call when the app is idle. */
  checkpoint(): Promise<void> {
    return this.db.exec('CHECKPOINT');
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.storing.values());
    await this.checkpoint().catch(() => undefined);
    await this.db.closeWhenIdle();
  }

  // ---- writing datasets ----

  /**
   * Saves records as one complete (or partial) dataset in one unit of work: the dataset appears whole
   * or not at all. Records are checked against the spec's rules as they are stored (a bad one is an
   * InvalidInput naming it), unless they are a response the service client already checked.
   */
  async saveRecords(
    d: NewDataset,
    records: readonly RecordObject[],
    opts: { status?: DatasetStatus; windows?: CoveredWindow[] | null } = {},
  ): Promise<DatasetMeta> {
    const id = await this.write(async (tx) => {
      const id = await tx.createDataset(d);
      const n = await tx.appendRecords(d.kind, id, 0, records, { path: d.kind, context: 'Cannot save' });
      await tx.finishDataset(id, {
        status: opts.status ?? 'complete',
        storedRows: n,
        reportedTotal: d.reportedTotal ?? null,
        windows: opts.windows ?? null,
        ...(d.fetchedAt ? { fetchedAt: d.fetchedAt } : {}),
      });
      return id;
    });
    return this.readMeta(id);
  }

  /**
   * Prepares to store the answer of a shipment search about to be saved under `id` from its body's
   * bytes (`AnswerStage`): called while the request is out, so that storing starts the moment the bytes
   * arrive. Hand it to `saveShipmentSearch` with the answer, or `discard` it.
   */
  stageAnswer(id: string): Promise<AnswerStage> {
    return AnswerStage.prepare(this.db, freshTable(id), id);
  }

  /**
   * Reads of `id` wait from now until `release`: the window knows a search's dataset by its first rows
   * (read from the answer's start) before the answer is checked and `saveShipmentSearch` begins. Release
   * once that save has begun (reads then wait for it) or the search failed (reads then find no dataset).
   */
  holdReads(id: string): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.saving.set(id, held);
    return () => {
      if (this.saving.get(id) === held) this.saving.delete(id);
      release();
    };
  }

  /**
   * Saves a shipment search response (as the service client returns it) as a dataset. With an `id`,
   * the dataset is known by it before the save ends (the window shows the answer's first rows while
   * it is stored): every read of it — its metadata, its rows, the list — waits for the save, and says
   * why when the save failed.
   */
  saveShipmentSearch(
    request: Record<string, unknown>,
    response: { total: number; shipments: readonly RecordObject[] },
    options: Partial<Provenance> & {
      name?: string;
      id?: string;
      /** When the answer arrived, if it is saved later (saved again after a failed save); now otherwise. */
      fetchedAt?: string;
      /** Awaited before the records are converted (a caller that answers first lets its answer go out). */
      startAfter?: () => Promise<void>;
      /** Awaited before the rows move from memory into the file (a test holds them there). */
      moveAfter?: () => Promise<void>;
      /** The answer as stored from its body's bytes (`stageAnswer` under the same id), taken if it holds the records. */
      answer?: AnswerStage;
    } = {},
  ): Promise<DatasetMeta> {
    const { startAfter, moveAfter, answer, ...provenance } = options;
    const status: DatasetStatus = response.shipments.length >= response.total ? 'complete' : 'partial';
    const dataset: NewDataset = {
      ...provenance,
      kind: 'shipments',
      request,
      reportedTotal: response.total,
      reported: { total: response.total },
    };
    const id = provenance.id;
    if (id === undefined || (answer && answer.table !== freshTable(id))) {
      void answer?.discard();
      const store = () => this.saveRecords(dataset, response.shipments, { status });
      return startAfter ? startAfter().then(store) : store();
    }
    // Saving again an answer whose save failed (kept in main): reads wait for this save, not the old failure.
    this.failedSaves.delete(id);
    const fetchedAt = provenance.fetchedAt ?? new Date().toISOString();
    const failed = (e: unknown): never => {
      this.saving.delete(id);
      this.storing.delete(id);
      this.failedSaves.set(
        id,
        new AppError(
          e instanceof AppError ? e.kind : isDiskFull(e) ? 'DiskFull' : 'Internal',
          `This search's answer was downloaded but could not be saved to the library. ${whyNotStored(e)}`,
        ),
      );
      throw e;
    };
    const readable = (startAfter ? startAfter() : Promise.resolve())
      .then(() => this.stageRows({ ...dataset, id, fetchedAt }, response.shipments, status, answer))
      .catch(failed);
    const stored = readable.then(() => this.moveRows(id, fetchedAt, moveAfter));
    this.saving.set(id, readable);
    this.storing.set(id, stored);
    return stored.then((meta) => {
      this.saving.delete(id);
      this.storing.delete(id);
      return meta;
    }, failed);
  }

  /**
   * The first half of saving a search: its dataset (pending in the file, shown from `fresh`) and its
   * rows, appended to a table of their own in an in-memory catalog. DuckDB takes an empty table's
   * rows over whole at COMMIT, and memory has no log to write: the rows are readable about a fifth
   * sooner than when they go straight into the file, where COMMIT copies them into the row table's
   * last row group and writes them to the log (the README's "Search ingest" has the figures).
   */
  private async stageRows(
    d: NewDataset & { id: string },
    records: readonly RecordObject[],
    status: DatasetStatus,
    answer?: AnswerStage,
  ): Promise<void> {
    const { id } = d;
    // Written while DuckDB may still be storing the rows from the answer's bytes.
    const created = this.write(async (tx) => {
      await tx.discardPending(id);
      await tx.createDataset(d);
    });
    created.catch(() => undefined);
    const fromAnswer = answer ? answer.rowsOf(records) : Promise.resolve(null);
    try {
      await created;
    } catch (e) {
      if ((await fromAnswer) !== null)
        await this.db.exec(`DROP TABLE IF EXISTS ${freshTable(id)}`).catch(() => undefined);
      throw e;
    }
    const table = freshTable(id);
    try {
      const storedRows =
        (await fromAnswer) ??
        (await this.db.transaction(async (conn) => {
          await conn.run(stagingTableDdl('shipments', table));
          return new LibraryWriter(conn).appendRecords(
            'shipments',
            id,
            0,
            records,
            { path: 'shipments', context: 'Cannot save' },
            { catalog: FRESH_CATALOG, table: freshTableName(id) },
          );
        }));
      this.fresh.set(id, { table, status, storedRows, readers: 0, moved: false });
    } catch (e) {
      await this.write((tx) => tx.deleteDataset(id)).catch(() => undefined);
      throw e;
    }
  }

  /**
   * The second half: the rows move from memory into the library file and the dataset is finished, in
   * one unit of work. Reads of the rows by anything but the grid wait for it (`storedInFile`).
   */
  private async moveRows(id: string, fetchedAt: string, after?: () => Promise<void>): Promise<DatasetMeta> {
    const fresh = this.fresh.get(id);
    if (!fresh) throw new Error('no rows to move');
    try {
      await after?.();
      await this.write(async (tx) => {
        await tx.copyRows('shipments', fresh.table);
        await tx.finishDataset(id, { status: fresh.status, storedRows: fresh.storedRows, fetchedAt });
      });
    } catch (e) {
      await this.write((tx) => tx.deleteDataset(id)).catch(() => undefined);
      throw e;
    } finally {
      fresh.moved = true;
      this.dropUnread(id);
    }
    return this.readMeta(id);
  }

  /**
   * Where the grid reads a dataset's rows: its in-memory table while they are moving into the file,
   * the row table otherwise. `release` when done: the in-memory table is dropped once no read uses it.
   */
  private rowSource(meta: DatasetMeta): { table: string; release: () => void } {
    const fresh = this.fresh.get(meta.id);
    if (!fresh || fresh.moved) return { table: ROW_TABLE[meta.kind], release: () => undefined };
    fresh.readers += 1;
    let released = false;
    return {
      table: fresh.table,
      release: () => {
        if (released) return;
        released = true;
        fresh.readers -= 1;
        this.dropUnread(meta.id);
      },
    };
  }

  private dropUnread(id: string): void {
    const fresh = this.fresh.get(id);
    if (!fresh || !fresh.moved || fresh.readers > 0) return;
    this.fresh.delete(id);
    void this.db.exec(`DROP TABLE IF EXISTS ${fresh.table}`).catch(() => undefined);
  }

  /** Waits until a search's rows being saved are in the library file (or their save failed). */
  private async storedInFile(id: string): Promise<void> {
    await this.storing.get(id)?.catch(() => undefined);
  }

  /** Waits until every search's rows being saved are in the library file: what the reader reads. */
  private async allStoredInFile(): Promise<void> {
    if (this.storing.size > 0) await Promise.allSettled(this.storing.values());
  }

  /**
   * The searches whose rows are moving, as they are now: the SQL that shows them beside the finished
   * datasets, and their metadata as the analyst sees them (already finished). Taken once, before the
   * query it serves: a move that commits while that query runs leaves its row read as pending, and by
   * the time the row is read back the search is gone from `fresh`; only the view taken before the query
   * still says the search was finished (a saved copy was not offered right after its search, in CI).
   */
  private freshView(): { visibleSql: string; withFresh: (meta: DatasetMeta) => DatasetMeta } {
    const moving = new Map(
      [...this.fresh].map(([id, f]) => [id, { status: f.status, storedRows: f.storedRows }] as const),
    );
    const ids = [...moving.keys()].map(quoteLiteral);
    return {
      visibleSql:
        ids.length === 0 ? `status <> 'pending'` : `(status <> 'pending' OR id IN (${ids.join(', ')}))`,
      withFresh: (meta) => {
        const f = moving.get(meta.id);
        return f ? { ...meta, ...f } : meta;
      },
    };
  }

  /** Waits for a save under way of that dataset (if any); throws what its save failed with. */
  private async settled(id: string): Promise<void> {
    // Until the save under way is the same after the wait: a read held (holdReads) waits for the save
    // that follows the hold.
    let waited: Promise<unknown> | undefined;
    for (let p = this.saving.get(id); p && p !== waited; p = this.saving.get(id)) {
      waited = p;
      await p.catch(() => undefined);
    }
    const failed = this.failedSaves.get(id);
    if (failed) throw failed;
  }

  // ---- a file import, stored in steps ----

  /**
   * Starts an import: a pending dataset no list shows. Its rows arrive in batches (`appendImported`),
   * each in a unit of work of its own so other writes (a search being saved) are not held up for the
   * whole import; `finishImport` makes it visible, `discardImport` removes it. A crash in between
   * leaves a pending dataset that the next start removes (recover).
   */
  beginImport(d: NewDataset): Promise<string> {
    return this.write((tx) => tx.createDataset({ ...d, source: 'import' }));
  }

  /**
   * Stores rows the import worker staged (of the row table's shape) as rows `firstRowNo…`;
   * `onProgress` hears the share stored so far while DuckDB works; `signal` stops it.
   */
  appendImported(
    id: string,
    kind: DatasetKind,
    firstRowNo: number,
    staged: StagedSource,
    onProgress?: (share: number) => void,
    signal?: AbortSignal,
  ): Promise<number> {
    return this.write((tx) => tx.appendStagedRows(kind, id, firstRowNo, staged, onProgress, signal));
  }

  async finishImport(
    id: string,
    f: DatasetFinish & {
      notes: string;
      missingFields: readonly string[];
      extraColumns: readonly string[];
    },
  ): Promise<DatasetMeta> {
    await this.write(async (tx) => {
      await tx.finishDataset(id, {
        status: f.status,
        storedRows: f.storedRows,
        reportedTotal: f.reportedTotal ?? null,
        ...(f.fetchedAt ? { fetchedAt: f.fetchedAt } : {}),
      });
      await tx.setImportDetails(id, f);
    });
    this.counts.clear();
    return this.get(id);
  }

  /** Removes a pending import and whatever rows it stored. */
  discardImport(id: string): Promise<void> {
    return this.write((tx) => tx.deleteDataset(id));
  }

  // ---- reading and managing datasets ----

  async get(id: string): Promise<DatasetMeta> {
    await this.settled(id);
    return this.readMeta(id);
  }

  /** The dataset's metadata as stored now (a save's own last step, which must not wait for itself). */
  private async readMeta(id: string): Promise<DatasetMeta> {
    const view = this.freshView();
    const r = await this.db.one(`SELECT ${META_COLUMNS} FROM datasets WHERE id = $1 AND ${view.visibleSql}`, [
      id,
    ]);
    if (!r) throw new AppError('NotFound', 'That dataset is not in the library (it may have been deleted).');
    return view.withFresh(toMeta(r));
  }

  async list(opts: ListOptions = {}): Promise<DatasetMeta[]> {
    // A search's answer being saved belongs in the list the moment it is asked for.
    await Promise.allSettled(this.saving.values());
    const view = this.freshView();
    const where = [view.visibleSql];
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
    let out = rows.map((r) => view.withFresh(toMeta(r)));
    if (opts.tag) {
      const tag = opts.tag.trim().toLowerCase();
      out = out.filter((d) => d.tags.some((t) => t.toLowerCase() === tag));
    }
    return out;
  }

  private async update(
    id: string,
    column: 'name' | 'notes' | 'tags_json',
    value: string,
  ): Promise<DatasetMeta> {
    await this.get(id);
    await this.write((tx) => tx.setMeta(id, column, value));
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
    await this.storedInFile(id);
    await this.write((tx) => tx.deleteDataset(id));
  }

  /**
   * One block of rows for the grid: sort, filters and quick filter all run in SQL, never in JS.
   * A sorted or filtered block is found in two steps: first the row numbers of the block (reading only
   * the sort and filter columns), then just those rows' requested columns.
   */
  async getRows(id: string, query: GridQuery): Promise<RowsBlock> {
    const meta = await this.get(id);
    const source = this.rowSource(meta);
    try {
      return await this.readRows(meta, source.table, query);
    } finally {
      source.release();
    }
  }

  private async readRows(meta: DatasetMeta, table: string, query: GridQuery): Promise<RowsBlock> {
    const { id } = meta;
    const q = parseGridQuery(query);
    const built = buildQuery(
      meta.kind,
      id,
      q,
      await this.extrasOf(id),
      await this.byteOrdered(meta, table, q),
    );
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
      const order = await this.orders.block(table, built, q.startRow, limit);
      if (order.length === 0) rows = [];
      else {
        const rowsOf = rowNumberFilter(order);
        const fetched = await this.db.all(
          `SELECT row_no, ${select} FROM ${table} WHERE dataset_id = $1 AND ${rowsOf.sql}`,
          [id, ...rowsOf.params],
        );
        const byNo = new Map(fetched.map((r) => [toNumber(r.row_no), r]));
        rows = order.map((n) => byNo.get(n)).filter((r): r is Row => r !== undefined);
      }
    }
    let lastRow = meta.storedRows;
    if (built.filtered) lastRow = await this.count(table, built.where, built.params, !built.byFirm);
    // An extra column asked for by its id (`extra:<header>`) is in the record under its header.
    const fields = wanted ? new Set(q.columns!.map((c) => extraHeaderOf(c) ?? c)) : null;
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

  /** The text fields a view sorts by that sort by their bytes in this dataset (see text-order.ts). */
  private byteOrdered(
    meta: DatasetMeta,
    table: string,
    q: ReturnType<typeof parseGridQuery>,
  ): Promise<Set<string>> {
    return this.textOrder.byteOrdered(
      meta.kind,
      table,
      meta.id,
      q.sortModel.map((s) => s.colId),
    );
  }

  private readonly extraTypes = new Map<string, Record<string, ExtraColumnType>>();

  /**
   * The extra columns of a dataset (an imported file's unmapped columns, a watch's snapshot columns)
   * with the type their values show: a number when every value reads as one ("1,234.5" too), a day
   * when every value starts with a yyyy-MM-dd date, text otherwise (and when the column is empty). The
   * snapshot columns of a watched query are numbers. Read once per dataset until the next write.
   */
  async extrasOf(id: string): Promise<DatasetExtras> {
    const meta = await this.get(id);
    const headers = meta.extraColumns;
    if (headers.length === 0) return { headers, types: {} };
    let types = this.extraTypes.get(id);
    if (!types) {
      await this.storedInFile(id);
      const table = ROW_TABLE[meta.kind];
      const items = headers.flatMap((h, i) => {
        const v = `nullif(trim(${extraValueSql(h)}), '')`;
        return [
          `count(${v}) AS n${i}`,
          `count(${extraNumberSql(v)}) FILTER (WHERE regexp_full_match(${v}, '-?(\\d{1,3}(,\\d{3})+|\\d+)(\\.\\d+)?')) AS num${i}`,
          `count(${extraDateSql(v)}) FILTER (WHERE regexp_matches(${v}, '^\\d{4}-\\d{2}-\\d{2}')) AS day${i}`,
        ];
      });
      const r = await this.db.one(`SELECT ${items.join(', ')} FROM ${table} WHERE dataset_id = $1`, [id]);
      types = {};
      headers.forEach((h, i) => {
        const n = toNumber(r?.[`n${i}`]);
        types![h] =
          h === SNAPSHOT_COLUMN || h === LOST_COLUMN
            ? 'number'
            : n > 0 && toNumber(r?.[`num${i}`]) === n
              ? 'number'
              : n > 0 && toNumber(r?.[`day${i}`]) === n
                ? 'date'
                : 'text';
      });
      this.extraTypes.set(id, types);
    }
    return { headers, types };
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
   * What the rows of a view are read with: each field's SQL (text as text, "" for empty, NULL for a
   * field the imported file lacked or an extra column a row has no value in), the row table, and the
   * view's WHERE, parameters and ORDER BY. Firms are resolved first when a column or a filter needs them.
   */
  private async fieldRowsQuery(
    id: string,
    fields: readonly string[],
    query: Omit<GridQuery, 'startRow' | 'endRow' | 'columns'> | undefined,
    integers: 'number' | 'text',
  ): Promise<{ meta: DatasetMeta; table: string; select: string[]; built: ReturnType<typeof buildQuery> }> {
    const meta = await this.get(id);
    // Exports read page after page on connections of their own: from the file, once the rows are there.
    await this.storedInFile(id);
    const q = parseGridQuery({ ...query, startRow: 0, endRow: 0 });
    const table = ROW_TABLE[meta.kind];
    const built = buildQuery(
      meta.kind,
      id,
      q,
      await this.extrasOf(id),
      await this.byteOrdered(meta, table, q),
    );
    const firmColumns = meta.kind === 'shipments' && fields.some((f) => isResolvedFirmColumn(f));
    if (built.byFirm || firmColumns) await this.firms.resolve();
    const byField = new Map(columnsOf(meta.kind).map((c) => [c.field, c]));
    const missing = new Set(meta.missingFields);
    const select = fields.map((f) => {
      if (meta.kind === 'shipments' && isResolvedFirmColumn(f)) {
        return `coalesce(${firmNameSql(f === 'importerFirm' ? 'importer' : 'exporter', `${table}.`)}, '')`;
      }
      const header = extraHeaderOf(f);
      // An extra column of an import: its value in the row's extras, NULL (an empty cell) where it has none.
      if (header !== null) return extraValueSql(header, `${table}.`);
      const col = byField.get(f);
      if (!col)
        throw new AppError('InvalidInput', `Not a ${meta.kind} column: ${JSON.stringify(f.slice(0, 80))}`);
      // A field the imported file did not have is missing (NULL), not empty text.
      if (missing.has(col.field)) return 'NULL';
      // Counts leave as DOUBLE (exact to 2^53) so JavaScript gets numbers, not bigints; as their digits
      // where they stay in SQL.
      if (col.type === 'integer')
        return `CAST("${col.field}" AS ${integers === 'number' ? 'DOUBLE' : 'VARCHAR'})`;
      return `coalesce("${col.field}", '')`;
    });
    return { meta, table, select, built };
  }

  /**
   * The named fields of every matching row, in the view's order, as arrays aligned with `fields`
   * (text as text, "" for empty; firm counts as numbers or null): what exporters read. Page by page,
   * each page one SQL pass on its own connection, in batches of up to 256 rows, so memory stays flat
   * at any dataset size, sorted or not.
   */
  async *streamFieldRows(
    id: string,
    fields: readonly string[],
    opts: { query?: Omit<GridQuery, 'startRow' | 'endRow' | 'columns'>; signal?: AbortSignal } = {},
  ): AsyncGenerator<unknown[][]> {
    const { table, select, built } = await this.fieldRowsQuery(id, fields, opts.query, 'number');
    // Each row leaves DuckDB as one JSON array: reading 88 text values out of a chunk one by one
    // through the node API costs ~0.7 µs each, one string per row and JSON.parse a third of that.
    const rowsOf = async function* (db: Db, where: string, params: SqlParams): AsyncGenerator<unknown[][]> {
      const sql = `SELECT json_array(${select.join(', ')}) FROM ${table} WHERE ${where} ORDER BY ${built.orderBy}`;
      for await (const rows of db.streamRows(sql, params, opts.signal)) {
        yield rows.map((r) => JSON.parse(r[0] as string) as unknown[]);
      }
    };
    if (built.sorted) {
      // Sorting the rows themselves would hold the whole view in DuckDB's sort, every row as its JSON
      // text (2.4 GB at 1,000,000 × 88). Only the sort keys and row numbers are sorted (4 bytes a row
      // kept: the grid's own order, see sorted-order.ts), then the rows are read a page of that order
      // at a time: DuckDB finds the page's rows by number in one scan and orders just them by the same
      // ORDER BY, which ends in the row number, so each page comes out exactly as its slice of the order.
      const order = await this.orders.whole(table, built);
      for (let at = 0; at < order.length && !opts.signal?.aborted; at += EXPORT_SORTED_PAGE_ROWS) {
        const page = rowNumberFilter(order.subarray(at, at + EXPORT_SORTED_PAGE_ROWS));
        yield* rowsOf(this.db, `dataset_id = $1 AND ${page.sql}`, [id, ...page.params]);
      }
      return;
    }
    // In stored order the rows are read a page of row numbers at a time: DuckDB orders one page, not
    // the whole dataset, so memory stays flat at any size and the first rows leave at once (a dataset's
    // rows are stored in row-number order, so each page reads only its own row groups).
    const last = toNumber(
      (await this.db.select(`SELECT max(row_no) AS m FROM ${table} WHERE dataset_id = $1`, [id]))[0]?.m,
    );
    const lo = `$${built.params.length + 1}`;
    const hi = `$${built.params.length + 2}`;
    for (let from = 0; from <= last && !opts.signal?.aborted; from += EXPORT_PAGE_ROWS) {
      yield* rowsOf(this.db, `${built.where} AND row_no >= ${lo} AND row_no < ${hi}`, [
        ...built.params,
        from,
        from + EXPORT_PAGE_ROWS,
      ]);
    }
  }

  /**
   * Writes the named fields of every matching row, in the view's order, to a typed Parquet file
   * (./parquet-typing.ts) with DuckDB's own COPY: no row passes through JavaScript. One pass finds each
   * typed column's shape; then the view is written a page at a time, each page COPYed (typed rows, the
   * text of the cells their typed value does not give back) to a part file in `scratchDir`, on a
   * connection of its own; last, a scratch instance joins the parts in order into `path` with
   * `describe`'s metadata. One COPY of the whole view held the whole view: DuckDB sorted every row
   * whole, and its Parquet writer ran ahead of the file with as much again (5.6 GB at 1,000,000 × 88).
   * `onProgress` hears the share done (0–1); aborting interrupts DuckDB. Answers the rows written.
   */
  async writeParquet(
    id: string,
    columns: readonly { field: string; name: string; type: FieldType }[],
    path: string,
    opts: {
      query?: Omit<GridQuery, 'startRow' | 'endRow' | 'columns'>;
      signal?: AbortSignal;
      onProgress?: (fraction: number) => void;
      describe: (shapes: ParquetColumnShape[], rows: number) => ParquetMeta;
      /** An empty folder of the caller's for the part files and what DuckDB spills; the caller removes it. */
      scratchDir: string;
    },
  ): Promise<number> {
    const { signal, onProgress } = opts;
    const fields = columns.map((c) => c.field);
    const { table, select, built } = await this.fieldRowsQuery(id, fields, opts.query, 'text');
    const sources: ParquetSourceColumn[] = columns.map((c, i) => ({
      source: `c${i}`,
      name: c.name,
      field: c.field,
      type: c.type,
    }));
    const rowsSql = (where: string, ordered: boolean): string =>
      `SELECT ${select.map((e, i) => `${e} AS c${i}`).join(', ')} FROM ${table} WHERE ${where}` +
      (ordered ? ` ORDER BY ${built.orderBy}` : '');
    const [stats] = await this.db.runAlone(
      shapeStatsSql(sources, rowsSql(built.where, false)),
      built.params,
      {
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onProgress: (f: number) => onProgress(f * PARQUET_PROGRESS.shapes) } : {}),
      },
    );
    const { shapes, rows } = shapesFromStats(sources, stats ?? {});
    const pages = await this.parquetPages(id, table, built);
    const parts: string[] = [];
    let written = 0;
    for (const page of pages) {
      if (signal?.aborted) break;
      const part = join(opts.scratchDir, `part-${parts.length}.parquet`);
      const sql = typedSelectSql(sources, shapes, rowsSql(page.where, page.ordered));
      const [copied] = await this.db.runAlone(
        `COPY (${sql}) TO ${quoteLiteral(part)} (FORMAT parquet, COMPRESSION snappy)`,
        page.params,
        signal ? { signal } : {},
      );
      parts.push(part);
      written += toNumber(copied?.['Count']);
      onProgress?.(
        PARQUET_PROGRESS.shapes + PARQUET_PROGRESS.pages * Math.min(1, written / Math.max(1, rows)),
      );
    }
    if (signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
    const rest = 1 - PARQUET_PROGRESS.shapes - PARQUET_PROGRESS.pages;
    await Db.concatParquet(
      parts,
      path,
      `${copyOptionsSql(opts.describe(shapes, written))}, ROW_GROUP_SIZE ${PARQUET_ROW_GROUP_ROWS}`,
      {
        tempDir: opts.scratchDir,
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onProgress: (f: number) => onProgress(1 - rest + rest * f) } : {}),
      },
    );
    return written;
  }

  /**
   * The pages a view's rows are written to Parquet in, in its order: SQL conditions on the row table
   * (with their parameters), each page's rows to be ordered by the view's ORDER BY where `ordered`.
   * A sorted view is paged as its export to rows is (streamFieldRows): a slice of the grid's order
   * each. In stored order, a page is a range of row numbers; where the dataset's rows lie in the
   * table in row-number order (as the library writes them), a page's scan already gives them in that
   * order (DuckDB keeps a table's order through WHERE and projections), so DuckDB sorts nothing.
   */
  private async parquetPages(
    id: string,
    table: string,
    built: ReturnType<typeof buildQuery>,
  ): Promise<{ where: string; params: SqlParams; ordered: boolean }[]> {
    const pages: { where: string; params: SqlParams; ordered: boolean }[] = [];
    if (built.sorted) {
      const order = await this.orders.whole(table, built);
      for (let at = 0; at < order.length; at += PARQUET_PAGE_ROWS) {
        const page = rowNumberFilter(order.subarray(at, at + PARQUET_PAGE_ROWS));
        pages.push({ where: `dataset_id = $1 AND ${page.sql}`, params: [id, ...page.params], ordered: true });
      }
      return pages;
    }
    // `rowid` is a row's place in the table: a row number below one stored before it means the stored
    // order is not the row numbers', and each page is sorted.
    const [found] = await this.db.select(
      `SELECT max(row_no) AS last, count(*) FILTER (WHERE row_no < before) AS out_of_order
         FROM (SELECT row_no, lag(row_no) OVER (ORDER BY rowid) AS before FROM ${table} WHERE dataset_id = $1)`,
      [id],
    );
    const last = toNumber(found?.['last']);
    const ordered = toNumber(found?.['out_of_order']) > 0;
    const lo = `$${built.params.length + 1}`;
    const hi = `$${built.params.length + 2}`;
    for (let from = 0; from <= last; from += PARQUET_PAGE_ROWS) {
      pages.push({
        where: `${built.where} AND row_no >= ${lo} AND row_no < ${hi}`,
        params: [...built.params, from, from + PARQUET_PAGE_ROWS],
        ordered,
      });
    }
    return pages;
  }

  /**
   * "No repeat spending": the newest saved dataset that answers the same question for the same profile
   * and account, with its age. A capped shipment dataset only answers a request no bigger than it.
   */
  async findEquivalent(
    request: Record<string, unknown>,
    profile: { kind?: DatasetKind; profileId?: string | null; account?: string | null } = {},
  ): Promise<Equivalent | null> {
    // An answer still being saved answers the same question already.
    await Promise.allSettled(this.saving.values());
    const kind: DatasetKind = profile.kind ?? ('page' in request ? 'firms' : 'shipments');
    const view = this.freshView();
    const rows = await this.db.all(
      `SELECT ${META_COLUMNS} FROM datasets
        WHERE ${view.visibleSql} AND source = 'fetch' AND filter_key = $1
          AND coalesce(profile_id, '') = coalesce($2, '') AND coalesce(account, '') = coalesce($3, '')
        ORDER BY fetched_at DESC`,
      [filterKey(kind, request), profile.profileId ?? null, profile.account ?? null],
    );
    const size = typeof request.size === 'number' ? request.size : Number.POSITIVE_INFINITY;
    for (const r of rows) {
      const d = view.withFresh(toMeta(r));
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

  /** The hashIds a dataset already holds (a resumed job skips records it stored before). */
  async shipmentHashIds(datasetId: string): Promise<Set<string>> {
    await this.storedInFile(datasetId);
    const rows = await this.db.all(
      `SELECT "hashId" AS h FROM shipment_rows WHERE dataset_id = $1 AND "hashId" IS NOT NULL`,
      [datasetId],
    );
    return new Set(rows.map((r) => String(r.h)));
  }
}

export { EXTRA_COLUMN };
