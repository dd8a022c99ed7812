import {
  EXTRA_COLUMN,
  FIRM_COLUMNS,
  SHIPMENT_COLUMNS,
  findColumn,
  textTypedExpression,
  type ColumnDef,
} from './fields';
import { SHIPMENT_SHADOWS } from './shadows';
import type { Db } from './db';

function rowTableDdl(table: string, columns: readonly ColumnDef[]): string {
  const cols = columns.map((c) => `"${c.field}" ${c.type === 'integer' ? 'BIGINT' : 'VARCHAR'}`).join(', ');
  // No indexes or keys on row tables: they would slow the bulk append, and DuckDB's per-row-group
  // min/max already lets `dataset_id = ?` and `row_no BETWEEN` skip other datasets' data.
  return `CREATE TABLE ${table} (dataset_id VARCHAR NOT NULL, row_no INTEGER NOT NULL, ${cols}, "${EXTRA_COLUMN}" VARCHAR)`;
}

export interface Migration {
  version: number;
  description: string;
  statements: readonly string[];
}

/**
 * Ordered schema migrations; never edit a released one, append a new one. Each runs in one
 * transaction together with the version bump, so a file is always at exactly one version.
 */
// No PRIMARY KEY constraints: DuckDB cannot ALTER a table that an index depends on, which would
// block later migrations; ids are random UUIDs.
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'datasets and their rows',
    statements: [
      `CREATE TABLE datasets (
        id VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        kind VARCHAR NOT NULL,
        request_json VARCHAR NOT NULL,
        filter_key VARCHAR NOT NULL,
        profile_id VARCHAR,
        profile_name VARCHAR,
        account VARCHAR,
        fetched_at VARCHAR NOT NULL,
        reported_total BIGINT,
        stored_rows BIGINT NOT NULL DEFAULT 0,
        notes VARCHAR NOT NULL DEFAULT '',
        status VARCHAR NOT NULL
      )`,
      rowTableDdl('shipment_rows', SHIPMENT_COLUMNS),
      rowTableDdl('firm_rows', FIRM_COLUMNS),
    ],
  },
  {
    version: 2,
    description: 'tags, covered windows, provenance; persisted fetch jobs',
    statements: [
      `ALTER TABLE datasets ADD COLUMN tags_json VARCHAR DEFAULT '[]'`,
      `ALTER TABLE datasets ADD COLUMN windows_json VARCHAR`,
      `ALTER TABLE datasets ADD COLUMN reported_json VARCHAR`,
      `ALTER TABLE datasets ADD COLUMN source VARCHAR DEFAULT 'fetch'`,
      `ALTER TABLE datasets ADD COLUMN job_id VARCHAR`,
      `UPDATE datasets SET tags_json = '[]' WHERE tags_json IS NULL`,
      `UPDATE datasets SET source = 'fetch' WHERE source IS NULL`,
      `CREATE TABLE jobs (
        id VARCHAR NOT NULL,
        kind VARCHAR NOT NULL,
        label VARCHAR NOT NULL,
        status VARCHAR NOT NULL,
        dataset_id VARCHAR NOT NULL,
        input_json VARCHAR NOT NULL,
        state_json VARCHAR NOT NULL,
        error VARCHAR,
        created_at VARCHAR NOT NULL,
        updated_at VARCHAR NOT NULL
      )`,
      `CREATE TABLE job_windows (
        job_id VARCHAR NOT NULL,
        window_key VARCHAR NOT NULL,
        window_json VARCHAR NOT NULL,
        total BIGINT NOT NULL,
        rows_added BIGINT NOT NULL,
        complete BOOLEAN NOT NULL,
        done_at VARCHAR NOT NULL
      )`,
    ],
  },
  {
    version: 3,
    description: 'imports: fields a file did not have, and the columns it had beyond the fields',
    statements: [
      `ALTER TABLE datasets ADD COLUMN missing_json VARCHAR`,
      `ALTER TABLE datasets ADD COLUMN extra_columns_json VARCHAR`,
    ],
  },
  {
    version: 4,
    description: 'firm resolution: parties, their firms and evidence, the review queue, analyst decisions',
    statements: [
      // The analyst's decisions are kept; every other firm_ table is rebuilt by each resolution.
      `CREATE TABLE firm_decisions (
        id VARCHAR NOT NULL,
        verdict VARCHAR NOT NULL,
        a_country VARCHAR NOT NULL,
        a_name VARCHAR NOT NULL,
        a_code VARCHAR NOT NULL,
        b_country VARCHAR NOT NULL,
        b_name VARCHAR NOT NULL,
        b_code VARCHAR NOT NULL,
        decided_at VARCHAR NOT NULL
      )`,
      `CREATE TABLE firm_party_keys (
        name VARCHAR NOT NULL,
        country_code VARCHAR NOT NULL,
        country VARCHAR NOT NULL,
        url_code VARCHAR NOT NULL,
        party_id VARCHAR NOT NULL,
        firm_id VARCHAR NOT NULL
      )`,
      `CREATE TABLE firm_parties (
        party_id VARCHAR NOT NULL,
        firm_id VARCHAR NOT NULL,
        country_key VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        url_code VARCHAR NOT NULL,
        country_code VARCHAR,
        country VARCHAR,
        norm VARCHAR NOT NULL,
        rows BIGINT NOT NULL
      )`,
      `CREATE TABLE firm_evidence (
        firm_id VARCHAR NOT NULL,
        party_a VARCHAR NOT NULL,
        party_b VARCHAR NOT NULL,
        kind VARCHAR NOT NULL,
        value VARCHAR NOT NULL,
        score DOUBLE NOT NULL
      )`,
      `CREATE TABLE firm_review (
        party_a VARCHAR NOT NULL,
        party_b VARCHAR NOT NULL,
        kind VARCHAR NOT NULL,
        value VARCHAR NOT NULL,
        score DOUBLE NOT NULL,
        reason VARCHAR NOT NULL
      )`,
      `CREATE TABLE firm_resolution (fingerprint VARCHAR NOT NULL, resolved_at VARCHAR NOT NULL, summary_json VARCHAR NOT NULL)`,
    ],
  },
  {
    version: 5,
    description: 'firm resolution: the name of each party key’s firm, for the resolved-firm columns',
    statements: [
      `ALTER TABLE firm_party_keys ADD COLUMN firm_name VARCHAR`,
      // Rebuilt with the names on the next read.
      `DELETE FROM firm_resolution`,
    ],
  },
  {
    version: 6,
    description: 'watched queries: one dataset per query, its snapshots with their dates, sizes and costs',
    statements: [
      `CREATE TABLE watches (
        id VARCHAR NOT NULL,
        dataset_id VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        request_json VARCHAR NOT NULL,
        profile_id VARCHAR,
        account VARCHAR,
        preset_id VARCHAR,
        overlap_days INTEGER NOT NULL,
        created_at VARCHAR NOT NULL
      )`,
      `CREATE TABLE watch_snapshots (
        watch_id VARCHAR NOT NULL,
        snapshot_no INTEGER NOT NULL,
        taken_at VARCHAR NOT NULL,
        status VARCHAR NOT NULL,
        records BIGINT NOT NULL,
        added BIGINT NOT NULL,
        lost BIGINT NOT NULL,
        newest_date VARCHAR,
        downloads BIGINT NOT NULL,
        requests BIGINT NOT NULL,
        windows_json VARCHAR NOT NULL,
        incomplete_json VARCHAR NOT NULL,
        reported_total BIGINT NOT NULL
      )`,
    ],
  },
  {
    version: 7,
    description: 'typed shadows of decimal, date and epoch shipment fields, filled from their text',
    statements: [
      ...SHIPMENT_SHADOWS.map((s) => `ALTER TABLE shipment_rows ADD COLUMN "${s.column}" ${s.sqlType}`),
      // Rows written before: their shadows from their text, under the rules ingest applies in JavaScript.
      `UPDATE shipment_rows SET ${SHIPMENT_SHADOWS.map((s) => `"${s.column}" = ${textTypedExpression(findColumn('shipments', s.field)!)}`).join(', ')}`,
    ],
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** Brings the file up to SCHEMA_VERSION; refuses a file written by a newer Portolan. */
export async function migrate(db: Db): Promise<{ from: number; to: number }> {
  await db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const row = await db.one('SELECT max(version) AS v FROM schema_version');
  const from = row?.v === null || row?.v === undefined ? 0 : Number(row.v);
  if (from > SCHEMA_VERSION) {
    throw new Error(
      `This library was written by a newer Portolan (schema ${from}, this version knows ${SCHEMA_VERSION}). Update Portolan to open it.`,
    );
  }
  for (const m of MIGRATIONS) {
    if (m.version <= from) continue;
    await db.transaction(async (conn) => {
      for (const sql of m.statements) await conn.run(sql);
      await conn.run('DELETE FROM schema_version');
      await conn.run('INSERT INTO schema_version VALUES ($1)', [m.version]);
    });
  }
  return { from, to: SCHEMA_VERSION };
}
