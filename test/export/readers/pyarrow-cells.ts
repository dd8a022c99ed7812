/**
 * A second independent Parquet reader for the tests: pyarrow (Apache Arrow's C++ implementation), run
 * by parquet_cells.py, giving cells in the shape of parquet-cells.ts. Python finds pyarrow where it is
 * installed, or under PYARROW_PATH (a folder `pip install --target` filled).
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ParquetCells } from './parquet-cells';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, 'parquet_cells.py');
const env = {
  ...process.env,
  ...(process.env['PYARROW_PATH'] ? { PYTHONPATH: process.env['PYARROW_PATH'] } : {}),
};

/** Whether python3 here can import pyarrow. */
export const hasPyarrow = spawnSync('python3', ['-c', 'import pyarrow.parquet'], { env }).status === 0;

/** pyarrow's raw cells: 64-bit integers (instants, counts) as bigint, maps as objects. */
export async function readParquetCellsWithPyarrow(path: string): Promise<ParquetCells> {
  const { stdout } = await run('python3', [SCRIPT, path], { env, maxBuffer: 512 * 1024 * 1024 });
  return JSON.parse(stdout, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const o = value as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && keys[0] === 'bigint' && typeof o['bigint'] === 'string')
        return BigInt(o['bigint']);
      if (keys.length === 1 && keys[0] === 'float' && typeof o['float'] === 'string')
        return Number(o['float'].replace('inf', 'Infinity').replace('nan', 'NaN'));
    }
    return value;
  }) as ParquetCells;
}
