import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

export interface TempDir {
  dir: string;
  cleanup: () => Promise<void>;
  /** The names in the folder, sorted: what a writer left behind. */
  files: () => Promise<string[]>;
}

/** A fresh folder under the system temp dir; `prefix` names the suite so leftovers are traceable. */
export async function tempDir(prefix = 'portolan-test-'): Promise<TempDir> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return {
    dir,
    cleanup: () => rm(dir, { recursive: true, force: true }),
    files: async () => (await readdir(dir)).sort(),
  };
}

/**
 * A fresh folder for each test of the calling file, removed after it. The returned handle always
 * names the current test's folder, so a file declares it once at the top.
 */
export function useTempDir(prefix?: string): Pick<TempDir, 'dir' | 'files'> {
  let current: TempDir | null = null;
  const now = (): TempDir => {
    if (!current) throw new Error('useTempDir: its folder exists only while a test runs');
    return current;
  };
  beforeEach(async () => {
    current = await tempDir(prefix);
  });
  afterEach(async () => {
    await current?.cleanup();
    current = null;
  });
  return {
    get dir() {
      return now().dir;
    },
    files: () => now().files(),
  };
}
