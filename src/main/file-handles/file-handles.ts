import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '@shared/ipc/errors';

/** What a handle stands for: a file to write an export to, or a file to import. */
export type FilePurpose = 'export-target' | 'import-source';

export interface FileEntry {
  purpose: FilePurpose;
  /** Absolute path, known to main only. */
  path: string;
  /** An export target's format (the one the analyst chose it for). */
  format?: 'xlsx' | 'csv' | 'parquet';
  /**
   * The host made this file for the handle (an upload into its import folder, in a folder of its
   * own): the folder goes when the handle is used up, expires or the app stops.
   */
  owned: boolean;
}

export interface FileHandles {
  /** A new handle for a path main chose (from its dialog or its own folders). */
  issue(entry: FileEntry): string;
  /** The live handle's entry, if it was issued for this purpose; NotFound otherwise. */
  resolve(handle: string, purpose: FilePurpose): FileEntry;
  /** resolve, and the handle is used up (an import reads its file once). */
  take(handle: string, purpose: FilePurpose): FileEntry;
  /** Removes what an owned entry made (after `take`, once the file has been read). */
  release(entry: FileEntry): Promise<void>;
  /** Forgets every handle and removes every owned file (the app stops). */
  dispose(): Promise<void>;
}

export interface FileHandlesOptions {
  /** How long a handle lives. Default 24 h: an export target is downloaded some time after it is written. */
  ttlMs?: number;
  /** The most handles kept; the oldest goes first. */
  maxEntries?: number;
  now?: () => number;
}

const expired = () => new AppError('NotFound', 'That file choice is no longer valid. Choose the file again.');

/**
 * Handles are 32 random URL-safe characters (192 bits) behind an `fh_` prefix: unguessable, so a
 * renderer can only name a file main picked for it, never invent one.
 */
export function createFileHandles(options: FileHandlesOptions = {}): FileHandles {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const maxEntries = options.maxEntries ?? 500;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { entry: FileEntry; issuedAt: number }>();

  async function release(entry: FileEntry): Promise<void> {
    // An owned file sits alone in a folder made for it; the folder goes with it.
    if (entry.owned) await rm(dirname(entry.path), { recursive: true, force: true }).catch(() => undefined);
  }

  function prune(): void {
    const cutoff = now() - ttlMs;
    for (const [handle, e] of entries) {
      if (e.issuedAt >= cutoff && entries.size <= maxEntries) break; // Map keeps issue order
      entries.delete(handle);
      void release(e.entry);
    }
  }

  function lookup(handle: string, purpose: FilePurpose): FileEntry {
    prune();
    const e = entries.get(handle);
    if (!e || e.entry.purpose !== purpose) throw expired();
    return e.entry;
  }

  return {
    issue(entry) {
      const handle = `fh_${randomBytes(24).toString('base64url')}`;
      entries.set(handle, { entry: { ...entry }, issuedAt: now() });
      prune();
      return handle;
    },
    resolve: (handle, purpose) => ({ ...lookup(handle, purpose) }),
    take(handle, purpose) {
      const entry = lookup(handle, purpose);
      entries.delete(handle);
      return { ...entry };
    },
    release,
    async dispose() {
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(all.map((e) => release(e.entry)));
    },
  };
}
