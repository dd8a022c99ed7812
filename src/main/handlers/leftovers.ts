import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARQUET_SCRATCH_PREFIX, PARTIAL_EXPORT_NAME } from '../export';
import { IMPORT_STAGING_PREFIX } from '../library';
import { EXPORTS_FOLDER, IMPORTS_FOLDER, TEMP_FOLDER } from './host-files';

/**
 * What a crash leaves behind, swept at start-up: half-written exports (`.partial`), Parquet scratch
 * databases, an import's staged rows, uploaded import copies and atomic-write temp files. Something that names its process is
 * removed only when that process is gone; something that does not, only when untouched for a while,
 * so a second Portolan working on the same folders never loses a file it is writing.
 */
export interface SweepOptions {
  /** The folder of the last export the analyst chose (its `.partial` files are Portolan's too). */
  exportFolders?: readonly string[];
  /** The OS temp folder (imports stage their rows there; older versions kept Parquet scratch there). */
  osTempDir?: string;
  isAlive?: (pid: number) => boolean;
  now?: number;
  /** How long an unnamed leftover must have been untouched; 10 minutes. */
  minAgeMs?: number;
}

export interface SweepReport {
  removed: string[];
}

/** `kill(pid, 0)` probes without signalling: EPERM means the process exists (another user's). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `name.tmp-<pid>-<hex>`, written by writeFileAtomic (src/main/fs). */
const ATOMIC_TEMP = /\.tmp-(\d+)-[0-9a-f]{12}$/;
/** `<pid>-<hex>`, one folder per upload (host-files.ts). */
const UPLOAD_FOLDER = /^(\d+)-[0-9a-f]{16}$/;
/** `portolan-parquet-<pid>-XXXXXX`, or without the pid from older versions. */
const PARQUET_SCRATCH = new RegExp(`^${PARQUET_SCRATCH_PREFIX}(?:(\\d+)-)?[A-Za-z0-9]{6}$`);
/** `portolan-import-<pid>-XXXXXX` in the OS temp folder, or without the pid from older versions. */
const IMPORT_STAGING = new RegExp(`^${IMPORT_STAGING_PREFIX}(?:(\\d+)-)?[A-Za-z0-9]{6}$`);

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

export async function sweepLeftovers(dataDir: string, opts: SweepOptions = {}): Promise<SweepReport> {
  const isAlive = opts.isAlive ?? processAlive;
  const now = opts.now ?? Date.now();
  const minAge = opts.minAgeMs ?? 10 * 60_000;
  const removed: string[] = [];

  const stale = async (path: string): Promise<boolean> => {
    const info = await lstat(path).catch(() => null);
    return info !== null && now - info.mtimeMs >= minAge;
  };
  /** A leftover that names its process goes once that process is gone; one that does not, once stale. */
  const ownerGone = async (path: string, pid: string | undefined): Promise<boolean> =>
    pid !== undefined ? !isAlive(Number(pid)) : stale(path);
  const remove = async (path: string): Promise<void> => {
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  };

  for (const name of await entries(dataDir)) {
    const m = ATOMIC_TEMP.exec(name);
    if (m && !isAlive(Number(m[1]))) await remove(join(dataDir, name));
  }
  for (const name of await entries(join(dataDir, IMPORTS_FOLDER))) {
    const m = UPLOAD_FOLDER.exec(name);
    if (m && !isAlive(Number(m[1]))) await remove(join(dataDir, IMPORTS_FOLDER, name));
  }
  for (const dir of [join(dataDir, TEMP_FOLDER), opts.osTempDir ?? tmpdir()]) {
    for (const name of await entries(dir)) {
      const m = PARQUET_SCRATCH.exec(name) ?? IMPORT_STAGING.exec(name);
      if (m && (await ownerGone(join(dir, name), m[1]))) await remove(join(dir, name));
    }
  }
  for (const dir of new Set([join(dataDir, EXPORTS_FOLDER), ...(opts.exportFolders ?? [])])) {
    for (const name of await entries(dir)) {
      if (PARTIAL_EXPORT_NAME.test(name) && (await stale(join(dir, name)))) await remove(join(dir, name));
    }
  }
  return { removed };
}

/**
 * The data folder and Portolan's own folders in it 0700, the files directly in them 0600, whatever an
 * earlier version or the umask left (Chromium's own folders in the Electron data folder are left as
 * Chromium keeps them).
 */
export async function makeDataPrivate(dataDir: string): Promise<void> {
  const ignoreMissing = (e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  };
  await chmod(dataDir, 0o700).catch(ignoreMissing);
  const ours = new Set([EXPORTS_FOLDER, IMPORTS_FOLDER, TEMP_FOLDER, 'logs']);
  for (const name of await entries(dataDir)) {
    const path = join(dataDir, name);
    const info = await lstat(path).catch(() => null);
    if (!info || info.isSymbolicLink()) continue;
    if (info.isFile()) await chmod(path, 0o600).catch(ignoreMissing);
    else if (info.isDirectory() && ours.has(name)) {
      await chmod(path, 0o700).catch(ignoreMissing);
      for (const inner of await entries(path)) {
        const innerPath = join(path, inner);
        const innerInfo = await lstat(innerPath).catch(() => null);
        if (innerInfo?.isFile()) await chmod(innerPath, 0o600).catch(ignoreMissing);
        else if (innerInfo?.isDirectory()) await chmod(innerPath, 0o700).catch(ignoreMissing);
      }
    }
  }
}
