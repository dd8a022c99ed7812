import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { Db } from '../../src/main/library/db';
import { useTempDir } from '../helpers/temp-dir';

const t = useTempDir('portolan-concat-parquet-');

/** Writes `rows` rows numbered from `first` (with a text payload) to a Parquet file. */
async function part(path: string, first: number, rows: number): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(
      `COPY (SELECT ${first} + i AS n, repeat(md5(CAST(i AS VARCHAR)), 4) AS payload FROM range(${rows}) r(i))
         TO '${path}' (FORMAT parquet, COMPRESSION snappy)`,
    );
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function numbers(path: string): Promise<number[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const rows = await (await conn.run(`SELECT n FROM read_parquet('${path}')`)).getRowObjectsJson();
    return rows.map((r) => Number(r['n']));
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

describe('Db.concatParquet', () => {
  it('writes the files’ rows file after file, each in its order, with the options given', async () => {
    // Listed in another order than their names', and of different sizes.
    const files = [join(t.dir, 'b.parquet'), join(t.dir, 'a.parquet'), join(t.dir, 'c.parquet')];
    await part(files[0]!, 0, 5_000);
    await part(files[1]!, 5_000, 20_000);
    await part(files[2]!, 25_000, 1);
    const target = join(t.dir, 'joined.parquet');
    await Db.concatParquet(files, target, "FORMAT parquet, KV_METADATA {note: 'kept'}, ROW_GROUP_SIZE 4096", {
      tempDir: t.dir,
    });
    expect(await numbers(target)).toEqual(Array.from({ length: 25_001 }, (_, i) => i));
  });

  it('stops when aborted while it runs', async () => {
    const files: string[] = [];
    for (let i = 0; i < 8; i++) {
      files.push(join(t.dir, `part-${i}.parquet`));
      await part(files[i]!, i * 500_000, 500_000);
    }
    const controller = new AbortController();
    let heard = 0;
    const joined = Db.concatParquet(
      files,
      join(t.dir, 'joined.parquet'),
      'FORMAT parquet, COMPRESSION zstd',
      {
        tempDir: t.dir,
        signal: controller.signal,
        // Progress is polled while DuckDB runs: the first report comes from inside the join.
        onProgress: (fraction) => {
          heard += 1;
          if (fraction < 1) controller.abort();
        },
      },
    );
    await expect(joined).rejects.toMatchObject({ name: 'AbortError' });
    expect(heard).toBeGreaterThan(0);
    expect((await readdir(t.dir)).filter((n) => !n.startsWith('part-') && n !== 'joined.parquet')).toEqual(
      [],
    );
  }, 60_000);
});
