import { basename } from 'node:path';
import { AppError } from '@shared/ipc/errors';

/**
 * Storage failures in the analyst's words: the library held by another program, the library file
 * damaged, the disk full. DuckDB reports the first two only as text, Node the last as an errno code.
 */

const LOCKED = /Could not set lock on file "[^"]*": Conflicting lock is held in (.*?) \(PID (\d+)\)/;
const DAMAGED =
  /not a valid DuckDB database file|Corrupt|checksum|Serialization Error|Failure while replaying WAL|WAL file|INTERNAL Error/i;
const DISK_FULL_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);
const DISK_FULL = /No space left on device|Disk quota exceeded|\bENOSPC\b|\bEDQUOT\b|disk is full/i;
const NOT_WRITABLE_CODES: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'EROFS']);
const NOT_WRITABLE =
  /Permission denied|Operation not permitted|Read-only file system|\bEACCES\b|\bEPERM\b|\bEROFS\b/i;

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : typeof e === 'string' ? e : '';
}

/** The other program holding the library file, when `e` is DuckDB's lock conflict. */
export function lockHolder(e: unknown): { program: string; pid: number } | null {
  const m = LOCKED.exec(messageOf(e));
  return m ? { program: basename(m[1] ?? '') || 'another program', pid: Number(m[2]) } : null;
}

/** What the locked-library message asks of the analyst where the window offers Retry. */
const LOCKED_ADVICE = 'Close it, then choose Retry.';

export function libraryLockedError(holder: { program: string; pid: number }): AppError {
  return new AppError(
    'StorageLocked',
    `Another program has Portolan's library open (${holder.program}, process ${holder.pid}): often a second ` +
      `Portolan, or a tool reading library.duckdb. ${LOCKED_ADVICE}`,
  );
}

/** Whether opening the library failed because its file (or its write-ahead log) is damaged. */
export function isDamagedLibrary(e: unknown): boolean {
  return lockHolder(e) === null && !isDiskFull(e) && DAMAGED.test(messageOf(e));
}

export function isDiskFull(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
  return DISK_FULL.test(messageOf(e));
}

/** Whether a write failed because the file or its folder may not be written (read-only, permissions). */
export function isNotWritable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NOT_WRITABLE_CODES.has(code)) return true;
  return NOT_WRITABLE.test(messageOf(e));
}

/**
 * Why the library could not store something, as one sentence in the analyst's words (DuckDB's own
 * text names files and internals the analyst cannot act on).
 */
export function whyNotStored(e: unknown): string {
  // Said beside "Save again", which is what is chosen once the other program lets go.
  if (e instanceof AppError)
    return e.kind === 'StorageLocked' ? e.message.replace(LOCKED_ADVICE, 'Close it first.') : e.message;
  const holder = lockHolder(e);
  if (holder) return libraryLockedError(holder).message.replace(LOCKED_ADVICE, 'Close it first.');
  if (isDiskFull(e)) return "The disk that holds Portolan's data is full.";
  if (isNotWritable(e))
    return 'Portolan may not write to its data folder: the folder or its library file was made read-only, or its permissions changed.';
  return 'The library refused to store it.';
}

/** What a full disk means for the step that met it. */
export function diskFullError(what: 'library' | 'export'): AppError {
  return new AppError(
    'DiskFull',
    what === 'export'
      ? 'The disk is full: the file could not be written, and no part of it was left behind. Free some space or choose another place, then export again.'
      : "The disk is full: Portolan could not save to its library. What was saved before is intact; free some space on the disk that holds Portolan's data, then try again.",
  );
}

/** A storage failure as the typed error the window acts on, or null when `e` is none of them. */
export function storageError(e: unknown, what: 'library' | 'export' = 'library'): AppError | null {
  if (e instanceof AppError) return null;
  const holder = lockHolder(e);
  if (holder) return libraryLockedError(holder);
  if (isDiskFull(e)) return diskFullError(what);
  // An export's folder is the analyst's choice: the system's "EPERM … open '…/.x.partial'" names a
  // temporary file they never chose and says nothing of what to do.
  if (what === 'export' && isNotWritable(e))
    return new AppError(
      'Forbidden',
      'Portolan may not write to that folder (it is read-only, or its permissions deny it), so no file was written. Choose another folder, then export again.',
    );
  return null;
}

/**
 * A library write refused by the system (the data folder or its library file made read-only, its
 * permissions changed), as the analyst's error; null for anything else. DuckDB's own text names its
 * write-ahead log and a "TransactionContext", which the analyst cannot act on.
 */
export function libraryNotWritableError(e: unknown): AppError | null {
  if (e instanceof AppError || !isNotWritable(e)) return null;
  return new AppError(
    'Forbidden',
    `${whyNotStored(e)} What was saved before is intact; make the folder writable again, then try again.`,
  );
}
