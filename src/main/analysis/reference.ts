import { existsSync } from 'node:fs';
import type { Db } from '../library';

/** An in-memory catalog attached to the library's DuckDB instance: reference data never lands in the library file. */
export const REF_CATALOG = 'portolan_ref';
export const HS_NAMES_TABLE = `${REF_CATALOG}.hs_names`;

const loaded = new WeakMap<Db, Promise<void>>();

/**
 * Loads the HS nomenclature (`hs-codes.csv`: section,hscode,description,parent,level) once per
 * database into `portolan_ref.hs_names(code, name)`. A missing file leaves the table empty: the
 * summaries still work, rows just have no names.
 */
export function ensureHsNames(db: Db, csvPath: string): Promise<void> {
  let p = loaded.get(db);
  if (!p) {
    p = load(db, csvPath);
    loaded.set(db, p);
    p.catch(() => loaded.delete(db));
  }
  return p;
}

async function load(db: Db, csvPath: string): Promise<void> {
  await db.exec(`ATTACH IF NOT EXISTS ':memory:' AS ${REF_CATALOG}`);
  if (existsSync(csvPath)) {
    await db.exec(
      `CREATE OR REPLACE TABLE ${HS_NAMES_TABLE} AS
         SELECT hscode AS code, any_value(description) AS name
           FROM read_csv($1, header = true, all_varchar = true)
          WHERE hscode IS NOT NULL
          GROUP BY hscode`,
      [csvPath],
    );
  } else {
    await db.exec(`CREATE OR REPLACE TABLE ${HS_NAMES_TABLE} (code VARCHAR, name VARCHAR)`);
  }
}
