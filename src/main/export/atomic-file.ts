import { randomBytes } from 'node:crypto';
import type { WriteStream } from 'node:fs';
import { access, link, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AppError } from '@shared/ipc/errors';

export function cancelledError(): AppError {
  return new AppError('Cancelled', 'The export was cancelled; no file was written.');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}

/**
 * Closes a write stream and waits until its descriptor is closed: a stream destroyed while still
 * opening creates its file afterwards, which would leave a temp file behind the cleanup.
 */
export async function closeQuietly(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  stream.destroy();
  await closed;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function existsError(path: string): AppError {
  return new AppError(
    'Conflict',
    `${basename(path)} already exists; choose another name or allow replacing it.`,
  );
}

/** The hidden temp file an export writes before it moves into place: `.<name>.<12 hex>.partial`. */
export const PARTIAL_EXPORT_NAME = /^\..+\.[0-9a-f]{12}\.partial$/;

/**
 * Runs `write` against a hidden temp file in the target's folder (so the final rename cannot cross
 * file systems) and moves it into place only on success. Any failure or cancel removes the temp file,
 * so a reader never sees half an export. Without `overwrite` an existing target is never replaced,
 * not even one that appears while the export runs.
 */
export async function writeAtomically<T>(
  target: string,
  options: { overwrite?: boolean; signal?: AbortSignal },
  write: (tempPath: string) => Promise<T>,
): Promise<{ value: T; bytes: number }> {
  throwIfAborted(options.signal);
  if (!options.overwrite && (await exists(target))) throw existsError(target);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.partial`);
  try {
    const value = await write(temp);
    throwIfAborted(options.signal);
    const { size } = await stat(temp);
    if (options.overwrite) {
      await rename(temp, target);
    } else {
      // link() fails if the target exists, which rename() would silently replace.
      try {
        await link(temp, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw existsError(target);
        if (await exists(target)) throw existsError(target);
        // A file system without hard links: the check above is the best we can do.
        await rename(temp, target);
      }
      await rm(temp, { force: true });
    }
    return { value, bytes: size };
  } catch (err) {
    await rm(temp, { force: true });
    if (options.signal?.aborted && !(err instanceof AppError && err.kind === 'Cancelled'))
      throw cancelledError();
    throw err;
  }
}
