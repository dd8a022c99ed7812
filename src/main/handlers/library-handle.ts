import { Library } from '../library';
import type { Logger } from '../log';

/** The app's one offline library at `<dataDir>`, opened on first use (needs neither network nor keychain). */
export interface LibraryHandle {
  get(): Promise<Library>;
  /** Closes the library if it was opened; the next `get` opens it again. */
  close(): Promise<void>;
}

export function createLibraryHandle(
  dataDir: string,
  opts: {
    /** Resolves once the data folder is ready (made private, leftovers swept): the library opens after it. */
    ready?: Promise<void>;
    logger?: Logger;
  } = {},
): LibraryHandle {
  // A DuckDB file may be opened once per process: every capability shares this one instance.
  let opening: Promise<Library> | null = null;
  return {
    get() {
      if (!opening) {
        const attempt = (opts.ready ?? Promise.resolve()).then(async () => {
          const lib = await Library.open(dataDir);
          if (lib.recovery)
            opts.logger?.warn('damaged library kept aside, a fresh one opened', { ...lib.recovery });
          return lib;
        });
        opening = attempt;
        // A failed open (e.g. a locked file) is retried on the next call rather than remembered.
        attempt.catch(() => {
          if (opening === attempt) opening = null;
        });
      }
      return opening;
    },
    async close() {
      const opened = opening;
      opening = null;
      if (opened) await opened.then((l) => l.close()).catch(() => undefined);
    },
  };
}
