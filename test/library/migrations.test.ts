import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library, MIGRATIONS, SCHEMA_VERSION } from '../../src/main/library';
import { changeLibraryFile, shipment, tempDir } from './helpers';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** Writes a library file exactly as schema version 1 left it, with one dataset in it. */
async function writeV1File(): Promise<void> {
  const inst = await DuckDBInstance.create(join(dir, 'library.duckdb'));
  const c = await inst.connect();
  await c.run('CREATE TABLE schema_version (version INTEGER NOT NULL)');
  for (const sql of MIGRATIONS[0]!.statements) await c.run(sql);
  await c.run('INSERT INTO schema_version VALUES (1)');
  await c.run(
    `INSERT INTO datasets (id, name, kind, request_json, filter_key, profile_id, profile_name, account, fetched_at, reported_total, stored_rows, notes, status)
     VALUES ('old-1', 'Old steel', 'shipments', '{"hs_codes":["7208"]}', 'shipments:{"hs_codes":["7208"]}', 'p1', 'Desk', 'acme', '2024-01-01T00:00:00.000Z', 1, 1, 'from v1', 'complete')`,
  );
  const r = shipment(1);
  await c.run(
    `INSERT INTO shipment_rows (dataset_id, row_no, "hashId", "fobValue") VALUES ('old-1', 0, $1, $2)`,
    [r.hashId!, r.fobValue!],
  );
  c.closeSync();
  inst.closeSync();
}

describe('schema migrations', () => {
  it('upgrades a version-1 file in order and keeps its data', async () => {
    await writeV1File();
    const lib = await Library.open(dir);
    try {
      const v = await lib.reader.one('SELECT max(version) AS v FROM schema_version');
      expect(Number(v?.v)).toBe(SCHEMA_VERSION);
      expect(SCHEMA_VERSION).toBeGreaterThan(1);
      const d = await lib.get('old-1');
      expect(d).toMatchObject({
        name: 'Old steel',
        notes: 'from v1',
        tags: [],
        source: 'fetch',
        windows: null,
        storedRows: 1,
      });
      const rows = await lib.getRows('old-1', { startRow: 0, endRow: 10 });
      expect(rows.rows[0]?.hashId).toBe('h000001');
      // What version 2 added works on the upgraded file.
      expect((await lib.setTags('old-1', ['kept'])).tags).toEqual(['kept']);
      expect(Number((await lib.reader.one('SELECT count(*) AS n FROM jobs'))?.n)).toBe(0);
    } finally {
      await lib.close();
    }
  });

  it('refuses a file from a newer Portolan without touching it', async () => {
    const lib = await Library.open(dir);
    await lib.close();
    await changeLibraryFile(dir, 'UPDATE schema_version SET version = 99');
    await expect(Library.open(dir)).rejects.toThrow(/newer Portolan/);
  });
});
