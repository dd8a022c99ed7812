import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Makes a data folder's library unwritable under the running app, for real: the folder and its library
 * files (the file and its write-ahead log) become immutable (`chattr +i`), so DuckDB's next commit fails
 * with "Operation not permitted" even through the files it holds open, and even for root (which file
 * modes would not stop). Thawed, the same open library writes again.
 */
function setImmutable(dataDir: string, on: boolean): void {
  const paths = [
    dataDir,
    ...readdirSync(dataDir)
      .filter((f) => f.startsWith('library.duckdb'))
      .map((f) => join(dataDir, f)),
  ];
  const r = spawnSync('chattr', [on ? '+i' : '-i', ...paths], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`chattr failed: ${r.stderr || String(r.error)}`);
}

export const freezeLibrary = (dataDir: string): void => setImmutable(dataDir, true);
export const thawLibrary = (dataDir: string): void => setImmutable(dataDir, false);

/** Whether this machine lets the tests freeze a folder (root, and a file system with the attribute). */
export const canFreezeLibrary: boolean = (() => {
  if (process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(join(tmpdir(), 'portolan-freeze-probe-'));
  try {
    writeFileSync(join(dir, 'library.duckdb'), '');
    setImmutable(dir, true);
    setImmutable(dir, false);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();
