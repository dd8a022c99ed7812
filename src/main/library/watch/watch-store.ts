import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { AppError } from '@shared/ipc/errors';
import { toNumber, type Row } from '../db';
import type { LibraryReader } from '../library-reader';

/*
 * Every statement on the watch tables (`watches`, `watch_snapshots`). A watched query is one shipment
 * dataset whose rows carry, in their extras, the snapshot they arrived in (`Snapshot`) and, once the
 * service stopped returning them, the snapshot that found them gone (`Lost in snapshot`): the Library
 * grid shows both as columns and filters on them, so a drill-down to "what arrived in snapshot 3" is an
 * ordinary grid filter.
 */

/** The extra columns a watched query's dataset carries. */
export const SNAPSHOT_COLUMN = 'Snapshot';
export const LOST_COLUMN = 'Lost in snapshot';

/** A span of arrival dates; an open end is the query's own (or none). */
export interface DateWindow {
  start?: string;
  end?: string;
}

export interface WatchRecord {
  id: string;
  datasetId: string;
  name: string;
  /** The shipment filter, without `size`. */
  request: Record<string, unknown>;
  profileId: string | null;
  account: string | null;
  presetId: string | null;
  overlapDays: number;
  createdAt: string;
}

export interface SnapshotRecord {
  watchId: string;
  no: number;
  takenAt: string;
  /** `partial`: a window could not be fetched whole (listed in `incomplete`). */
  status: 'complete' | 'partial';
  /** Records in the snapshot (held and not lost). */
  records: number;
  added: number;
  lost: number;
  /** The newest arrival date among the snapshot's records. */
  newestDate: string | null;
  /** Records downloaded (charged) and requests made to take it, its cost check included. */
  downloads: number;
  requests: number;
  /** The windows this snapshot fetched, and those it could not fetch whole. */
  windows: DateWindow[];
  incomplete: DateWindow[];
  /** What the service reported for the fetched windows together. */
  reportedTotal: number;
}

function toWatch(r: Row): WatchRecord {
  return {
    id: String(r.id),
    datasetId: String(r.dataset_id),
    name: String(r.name),
    request: JSON.parse(String(r.request_json)) as Record<string, unknown>,
    profileId: r.profile_id === null || r.profile_id === undefined ? null : String(r.profile_id),
    account: r.account === null || r.account === undefined ? null : String(r.account),
    presetId: r.preset_id === null || r.preset_id === undefined ? null : String(r.preset_id),
    overlapDays: toNumber(r.overlap_days),
    createdAt: String(r.created_at),
  };
}

function toSnapshot(r: Row): SnapshotRecord {
  return {
    watchId: String(r.watch_id),
    no: toNumber(r.snapshot_no),
    takenAt: String(r.taken_at),
    status: r.status === 'partial' ? 'partial' : 'complete',
    records: toNumber(r.records),
    added: toNumber(r.added),
    lost: toNumber(r.lost),
    newestDate: r.newest_date === null || r.newest_date === undefined ? null : String(r.newest_date),
    downloads: toNumber(r.downloads),
    requests: toNumber(r.requests),
    windows: JSON.parse(String(r.windows_json)) as DateWindow[],
    incomplete: JSON.parse(String(r.incomplete_json)) as DateWindow[],
    reportedTotal: toNumber(r.reported_total),
  };
}

/** A stored row of a watched dataset, as the refresh compares it with what the service returns. */
export interface HeldRecord {
  hashId: string;
  arrivalDate: string;
  /** The snapshot that found it gone, or null while the service still returns it. */
  lostIn: number | null;
}

const extra = (header: string): string => `json_extract_string("_extra", '/${header}')`;

/** Reads of the watch tables (outside any unit of work), through the library's select-only reader. */
export class WatchStore {
  constructor(private readonly reader: LibraryReader) {}

  async list(): Promise<WatchRecord[]> {
    return (await this.reader.all(`SELECT * FROM watches ORDER BY lower(name), created_at`)).map(toWatch);
  }

  async get(id: string): Promise<WatchRecord> {
    const r = await this.reader.one(`SELECT * FROM watches WHERE id = $1`, [id]);
    if (!r)
      throw new AppError('NotFound', 'That watched query is not in the library (it may have been deleted).');
    return toWatch(r);
  }

  async byDataset(datasetId: string): Promise<WatchRecord | null> {
    const r = await this.reader.one(`SELECT * FROM watches WHERE dataset_id = $1`, [datasetId]);
    return r ? toWatch(r) : null;
  }

  async snapshots(watchId: string): Promise<SnapshotRecord[]> {
    return (
      await this.reader.all(`SELECT * FROM watch_snapshots WHERE watch_id = $1 ORDER BY snapshot_no`, [
        watchId,
      ])
    ).map(toSnapshot);
  }

  /** Every record the watched dataset holds (lost ones too), with its arrival date. */
  async held(datasetId: string): Promise<HeldRecord[]> {
    const rows = await this.reader.all(
      `SELECT "hashId" AS h, "arrivalDate" AS d, ${extra(LOST_COLUMN)} AS lost
         FROM shipment_rows WHERE dataset_id = $1`,
      [datasetId],
    );
    return rows.map((r) => ({
      hashId: r.h === null || r.h === undefined ? '' : String(r.h),
      arrivalDate: r.d === null || r.d === undefined ? '' : String(r.d),
      lostIn: r.lost === null || r.lost === undefined ? null : Number(r.lost),
    }));
  }

  /** The records a dataset holds (by hashId) and the newest arrival date among them. */
  async extent(datasetId: string): Promise<{ records: number; newestDate: string | null }> {
    const r = await this.reader.one(
      `SELECT count(DISTINCT "hashId") AS n, max(nullif(trim("arrivalDate"), '')) AS d
         FROM shipment_rows WHERE dataset_id = $1`,
      [datasetId],
    );
    return {
      records: toNumber(r?.n),
      newestDate: r?.d === null || r?.d === undefined ? null : String(r.d),
    };
  }

  /** Rows the dataset holds so far (lost ones included): where the next rows are appended. */
  async rowCount(datasetId: string): Promise<number> {
    const r = await this.reader.one(`SELECT count(*) AS n FROM shipment_rows WHERE dataset_id = $1`, [
      datasetId,
    ]);
    return toNumber(r?.n);
  }
}

/** The watch tables' writes inside one unit of work (`library.write(tx => tx.watch…)`). */
export class WatchWriter {
  constructor(private readonly conn: DuckDBConnection) {}

  async createWatch(w: WatchRecord): Promise<void> {
    await this.conn.run(
      `INSERT INTO watches (id, dataset_id, name, request_json, profile_id, account, preset_id, overlap_days, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        w.id,
        w.datasetId,
        w.name,
        JSON.stringify(w.request),
        w.profileId,
        w.account,
        w.presetId,
        w.overlapDays,
        w.createdAt,
      ],
    );
  }

  async rename(id: string, name: string): Promise<void> {
    await this.conn.run(`UPDATE watches SET name = $2 WHERE id = $1`, [id, name]);
  }

  async setOverlap(id: string, days: number): Promise<void> {
    await this.conn.run(`UPDATE watches SET overlap_days = $2 WHERE id = $1`, [id, days]);
  }

  async addSnapshot(s: SnapshotRecord): Promise<void> {
    await this.conn.run(
      `INSERT INTO watch_snapshots (watch_id, snapshot_no, taken_at, status, records, added, lost, newest_date,
         downloads, requests, windows_json, incomplete_json, reported_total)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        s.watchId,
        s.no,
        s.takenAt,
        s.status,
        s.records,
        s.added,
        s.lost,
        s.newestDate,
        s.downloads,
        s.requests,
        JSON.stringify(s.windows),
        JSON.stringify(s.incomplete),
        s.reportedTotal,
      ],
    );
  }

  /** Whether a dataset is some watch's already (read inside the unit of work that would make it one). */
  async isWatched(datasetId: string): Promise<boolean> {
    const r = await this.conn.runAndReadAll(`SELECT count(*) AS n FROM watches WHERE dataset_id = $1`, [
      datasetId,
    ]);
    return Number(r.getRowObjectsJson()[0]?.n ?? 0) > 0;
  }

  /** Every row of a dataset arrived in snapshot `no` (a library dataset taken as a watch's first snapshot). */
  async markArrived(datasetId: string, no: number): Promise<void> {
    await this.conn.run(
      `UPDATE shipment_rows SET "_extra" = json_merge_patch(coalesce("_extra", '{}'), $2)
        WHERE dataset_id = $1`,
      [datasetId, JSON.stringify({ [SNAPSHOT_COLUMN]: String(no) })],
    );
  }

  /** Marks held records the service no longer returns as lost in snapshot `no`. */
  async markLost(datasetId: string, hashIds: readonly string[], no: number): Promise<void> {
    if (hashIds.length === 0) return;
    await this.conn.run(
      `UPDATE shipment_rows SET "_extra" = json_merge_patch(coalesce("_extra", '{}'), $3)
        WHERE dataset_id = $1 AND "hashId" IN (SELECT unnest($2::VARCHAR[]))`,
      [datasetId, listValue([...hashIds]), JSON.stringify({ [LOST_COLUMN]: String(no) })],
    );
  }

  /** Records found lost before that the service returns again: no longer lost. */
  async markFound(datasetId: string, hashIds: readonly string[]): Promise<void> {
    if (hashIds.length === 0) return;
    await this.conn.run(
      `UPDATE shipment_rows SET "_extra" = json_merge_patch("_extra", $3)
        WHERE dataset_id = $1 AND "hashId" IN (SELECT unnest($2::VARCHAR[]))`,
      [datasetId, listValue([...hashIds]), JSON.stringify({ [LOST_COLUMN]: null })],
    );
  }

  /** The watch and its snapshots (the dataset itself goes with `deleteDataset`). */
  async deleteWatch(id: string): Promise<void> {
    await this.conn.run(`DELETE FROM watch_snapshots WHERE watch_id = $1`, [id]);
    await this.conn.run(`DELETE FROM watches WHERE id = $1`, [id]);
  }
}
