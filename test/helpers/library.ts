import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { Library } from '../../src/main/library';
import { useTempDir } from './temp-dir';

/**
 * A library opened in a fresh folder for each test of the calling file, closed and removed after it
 * (vitest runs after-hooks in reverse order, so the library closes before its folder goes). The
 * handle always names the current test's library, so a file declares it once at the top. With
 * `folder`, the library opens in that folder below the test's `dir`, where the test writes its files
 * beside it. A test that closes the library to open it again sets the new one, closed after it.
 */
export function useLibrary(
  prefix?: string,
  opts: { folder?: string } = {},
): { readonly dir: string; lib: Library } {
  const folder = useTempDir(prefix);
  let current: Library | null = null;
  beforeEach(async () => {
    current = await Library.open(opts.folder === undefined ? folder.dir : join(folder.dir, opts.folder));
  });
  afterEach(async () => {
    await current?.close();
    current = null;
  });
  return {
    get dir() {
      return folder.dir;
    },
    get lib() {
      if (!current) throw new Error('useLibrary: its library exists only while a test runs');
      return current;
    },
    set lib(next: Library) {
      current = next;
    },
  };
}
