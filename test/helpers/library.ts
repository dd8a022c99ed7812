import { afterEach, beforeEach } from 'vitest';
import { Library } from '../../src/main/library';
import { useTempDir } from './temp-dir';

/**
 * A library opened in a fresh folder for each test of the calling file, closed and removed after it
 * (vitest runs after-hooks in reverse order, so the library closes before its folder goes). The
 * handle always names the current test's library, so a file declares it once at the top.
 */
export function useLibrary(prefix?: string): { readonly lib: Library } {
  const folder = useTempDir(prefix);
  let current: Library | null = null;
  beforeEach(async () => {
    current = await Library.open(folder.dir);
  });
  afterEach(async () => {
    await current?.close();
    current = null;
  });
  return {
    get lib() {
      if (!current) throw new Error('useLibrary: its library exists only while a test runs');
      return current;
    },
  };
}
