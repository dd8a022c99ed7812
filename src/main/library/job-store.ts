import type { DuckDBConnection } from '@duckdb/node-api';
import { AppError } from '@shared/ipc/errors';
import { readIn, type Db, type Row } from './db';
import type { DatasetKind } from './fields';

/*
 * Every statement on the job tables (`jobs`, `job_windows`). A fetch job's rows and its saved state
 * change together, in one unit of work of the library (`library.write`), so a crash loses at most the
 * step in flight; the state itself (`state_json`, `input_json`) is the jobs capability's, kept as JSON.
 */

/** `paused`: stopped on purpose (the user, or a used-up limit) with everything fetched kept; resumable. */
export type JobStatus = 'running' | 'interrupted' | 'paused' | 'failed' | 'succeeded' | 'cancelled';

/** Job states whose pending dataset must survive a restart (the job can still be resumed). */
export const RESUMABLE_JOB_STATES = ['running', 'interrupted', 'paused', 'failed'] as const;

/** One saved job, its input and state still JSON the jobs capability reads. */
export interface JobRecord {
  id: string;
  kind: DatasetKind;
  label: string;
  status: JobStatus;
  datasetId: string;
  input: unknown;
  state: unknown;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A window a shipment job has stored, with what it held and how many of its records were new. */
export interface StoredWindow {
  key: string;
  filter: Record<string, unknown>;
  total: number;
  rowsAdded: number;
  complete: boolean;
}

const COLUMNS = 'id, kind, label, status, dataset_id, input_json, state_json, error, created_at, updated_at';
const RESUMABLE = RESUMABLE_JOB_STATES.map((s) => `'${s}'`).join(', ');
const now = (): string => new Date().toISOString();

function toRecord(r: Row): JobRecord {
  return {
    id: String(r.id),
    kind: r.kind === 'firms' ? 'firms' : 'shipments',
    label: String(r.label),
    status: String(r.status) as JobStatus,
    datasetId: String(r.dataset_id),
    input: JSON.parse(String(r.input_json)) as unknown,
    state: JSON.parse(String(r.state_json)) as unknown,
    error: r.error === null || r.error === undefined ? null : String(r.error),
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}

/** Reads of the job tables (outside any unit of work). */
export class JobStore {
  constructor(private readonly db: Db) {}

  async get(jobId: string): Promise<JobRecord> {
    const r = await this.db.one(`SELECT ${COLUMNS} FROM jobs WHERE id = $1`, [jobId]);
    if (!r) throw new AppError('NotFound', 'That job is not known.');
    return toRecord(r);
  }

  /** Jobs that did not finish (interrupted by a crash or quit, paused, or stopped by an error), oldest first. */
  async listResumable(): Promise<JobRecord[]> {
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM jobs WHERE status IN (${RESUMABLE}) ORDER BY created_at`,
    );
    return rows.map(toRecord);
  }
}

/** Writes of the job tables inside one unit of work. */
export class JobStoreWriter {
  constructor(private readonly conn: DuckDBConnection) {}

  async insert(job: {
    id: string;
    kind: DatasetKind;
    label: string;
    datasetId: string;
    input: unknown;
    state: unknown;
  }): Promise<void> {
    const at = now();
    await this.conn.run(
      `INSERT INTO jobs (${COLUMNS}) VALUES ($1, $2, $3, 'running', $4, $5, $6, NULL, $7, $7)`,
      [job.id, job.kind, job.label, job.datasetId, JSON.stringify(job.input), JSON.stringify(job.state), at],
    );
  }

  async saveState(jobId: string, state: unknown): Promise<void> {
    await this.conn.run(`UPDATE jobs SET state_json = $2, updated_at = $3 WHERE id = $1`, [
      jobId,
      JSON.stringify(state),
      now(),
    ]);
  }

  /** Sets the status; `error` is kept only when given (null clears it). */
  async setStatus(jobId: string, status: JobStatus, error?: string | null): Promise<void> {
    if (error === undefined) {
      await this.conn.run(`UPDATE jobs SET status = $2, updated_at = $3 WHERE id = $1`, [
        jobId,
        status,
        now(),
      ]);
    } else {
      await this.conn.run(`UPDATE jobs SET status = $2, error = $3, updated_at = $4 WHERE id = $1`, [
        jobId,
        status,
        error,
        now(),
      ]);
    }
  }

  async addWindow(jobId: string, w: StoredWindow): Promise<void> {
    await this.conn.run(`INSERT INTO job_windows VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      jobId,
      w.key,
      JSON.stringify(w.filter),
      w.total,
      w.rowsAdded,
      w.complete,
      now(),
    ]);
  }

  /**
   * After a crash or quit: a job that was running is now interrupted (resumable). Returns the pending
   * datasets no resumable job owns any more: leftovers the library then deletes.
   */
  async recover(): Promise<string[]> {
    await this.conn.run(`UPDATE jobs SET status = 'interrupted' WHERE status = 'running'`);
    const orphans = await readIn(
      this.conn,
      `SELECT id FROM datasets WHERE status = 'pending'
         AND id NOT IN (SELECT dataset_id FROM jobs WHERE status IN (${RESUMABLE}))`,
    );
    return orphans.map((o) => String(o.id));
  }
}
