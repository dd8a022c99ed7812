import { basename } from 'node:path';
import { AppError, type ErrorKind } from '@shared/ipc/errors';

/**
 * Storage failures in the analyst's words: the library held by another program, the library file
 * damaged, and every refusal of the system to read or write a file (FILE_TROUBLE). DuckDB reports its
 * own only as text (a lock, damage, a full disk, a refusal), Node its refusals as an errno code.
 */

const LOCKED = /Could not set lock on file "[^"]*": Conflicting lock is held in (.*?) \(PID (\d+)\)/;
const DAMAGED =
  /not a valid DuckDB database file|Corrupt|checksum|Serialization Error|Failure while replaying WAL|WAL file|INTERNAL Error/i;
const DISK_FULL_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);
const DISK_FULL = /No space left on device|Disk quota exceeded|\bENOSPC\b|\bEDQUOT\b|disk is full/i;
const NOT_WRITABLE_CODES: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'EROFS']);
const NOT_WRITABLE =
  /Permission denied|Operation not permitted|Read-only file system|\bEACCES\b|\bEPERM\b|\bEROFS\b/i;

const COPY_IT = 'copy it to a folder on this computer (such as Documents) and import the copy';
const LOCKED_BY_PROGRAM = 'it is open in another program, perhaps Excel';
const NOT_ALLOWED_TO_READ = `Portolan is not allowed to read it (its permissions deny it, or another program holds it locked); close it in other programs, or ${COPY_IT}`;

/** What an export asks of the analyst once it failed: which of its choices can set it right. */
type ExportNext = 'close' | 'folder' | 'space' | 'rename' | 'shorter' | 'again';

/**
 * The one reading of the system's error codes for every file Portolan reads or writes for the analyst
 * (an import's file, an export, the library and its other data files): what happened, in the words of
 * each step. The system's own text ("EBUSY: resource busy or locked, open '…'") names a call and a
 * code the analyst cannot act on; it is kept beside the words as a detail only.
 */
interface FileTrouble {
  kind: ErrorKind;
  /** An import's file could not be read: why, after "Cannot import <file>: ". */
  read: string;
  /** An export could not be written: what happened, and which choice helps. */
  write: { said: string; next: ExportNext };
  /** Portolan's own data files (the library, presets, profiles): the sentence; null where not said so. */
  data: string | null;
}

const BUSY: FileTrouble = {
  kind: 'StorageLocked',
  read: `${LOCKED_BY_PROGRAM}; close it there, then import it again`,
  write: {
    said: 'The file is open in another program, perhaps Excel, so Portolan could not replace it.',
    next: 'close',
  },
  data: "Another program is holding one of Portolan's data files (a backup or a virus scan, or a second Portolan). Wait for it to finish or close it, then try again.",
};
const NOT_ALLOWED: FileTrouble = {
  kind: 'Forbidden',
  read: NOT_ALLOWED_TO_READ,
  write: {
    said: 'Portolan may not write to that folder (it is read-only, or its permissions deny it), or the file is open in another program.',
    next: 'folder',
  },
  data: 'Portolan may not write to its data folder: the folder or its library file was made read-only, or its permissions changed.',
};
const READ_ONLY_DISK: FileTrouble = {
  kind: 'Forbidden',
  read: NOT_ALLOWED_TO_READ,
  write: { said: 'That folder is on a disk that cannot be written to (it is read-only).', next: 'folder' },
  data: "Portolan's data folder is on a disk that cannot be written to (it is read-only).",
};
const FULL: FileTrouble = {
  kind: 'DiskFull',
  read: "the disk that holds Portolan's data is full, so there is no room to import it; free some space on that disk, then import it again",
  write: { said: 'The disk is full.', next: 'space' },
  data: "The disk that holds Portolan's data is full.",
};
const TOO_MANY_OPEN: FileTrouble = {
  kind: 'Conflict',
  read: 'too many files are open on this computer right now; close some programs, then import it again',
  write: { said: 'Too many files are open on this computer right now.', next: 'again' },
  data: 'Too many files are open on this computer right now. Close some programs, then try again.',
};
const DRIVE_GONE = (what: string): FileTrouble => ({
  kind: 'NotFound',
  read: `${what}; ${COPY_IT}`,
  write: {
    said: 'The disk of that folder could not be written (a network drive, USB stick or cloud folder that went away, or a damaged disk).',
    next: 'folder',
  },
  data: null,
});

const FILE_TROUBLE: Readonly<Record<string, FileTrouble>> = {
  EBUSY: BUSY,
  ETXTBSY: BUSY,
  EACCES: NOT_ALLOWED,
  EPERM: NOT_ALLOWED,
  EROFS: READ_ONLY_DISK,
  ENOSPC: FULL,
  EDQUOT: FULL,
  EMFILE: TOO_MANY_OPEN,
  ENFILE: TOO_MANY_OPEN,
  ENOENT: {
    kind: 'NotFound',
    read: 'the file is no longer where it was chosen (it was moved, renamed or deleted); choose it again',
    write: { said: 'The folder is no longer there (it was moved, renamed or deleted).', next: 'folder' },
    data: null,
  },
  ENOTDIR: {
    kind: 'NotFound',
    read: 'the file is no longer where it was chosen (its folder was moved or renamed); choose it again',
    write: { said: 'The folder is no longer there (it was moved or renamed).', next: 'folder' },
    data: null,
  },
  EISDIR: {
    kind: 'InvalidInput',
    read: 'it is a folder, not a file',
    write: { said: 'There is a folder of that name where the file would go.', next: 'rename' },
    data: null,
  },
  ENAMETOOLONG: {
    kind: 'InvalidInput',
    read: `its name, with its folders, is too long for this computer; ${COPY_IT} under a shorter name`,
    write: { said: 'The file name, with its folders, is too long for this computer.', next: 'shorter' },
    data: null,
  },
  EFBIG: {
    kind: 'DiskFull',
    read: `it is larger than its disk allows; ${COPY_IT}`,
    write: {
      said: 'The file is larger than that disk takes (a USB stick formatted as FAT32 takes files up to 4 GB).',
      next: 'folder',
    },
    data: null,
  },
  EIO: DRIVE_GONE(
    'its disk could not be read (a network drive, USB stick or cloud folder that went away, or a damaged disk)',
  ),
  ENXIO: DRIVE_GONE('its disk could not be read (a network drive, USB stick or cloud folder that went away)'),
  ENODEV: DRIVE_GONE(
    'its disk could not be read (a network drive, USB stick or cloud folder that went away)',
  ),
  ETIMEDOUT: DRIVE_GONE('its network drive did not answer in time'),
  ESTALE: DRIVE_GONE('its network drive no longer serves it'),
};

/** The system's error code of a failed file call (Node's `code`), if it has one. */
function systemCode(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** What the system's code of `e` means for a file, or null when it is no file trouble we know. */
function fileTrouble(e: unknown): FileTrouble | null {
  if (e instanceof AppError) return null;
  const code = systemCode(e);
  return code ? (FILE_TROUBLE[code] ?? null) : null;
}

/** The system's own text, kept as a detail beside the analyst's words (never in place of them). */
export function systemDetail(e: unknown): string | undefined {
  return systemCode(e) !== null && e instanceof Error && e.message ? e.message.slice(0, 500) : undefined;
}

/** Why the system would not read an import's file, after "Cannot import <file>: "; null for other errors. */
export function unreadableReason(e: unknown): string | null {
  return fileTrouble(e)?.read ?? null;
}

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
  if (isDiskFull(e)) return FULL.data as string;
  if (isNotWritable(e)) return (systemCode(e) === 'EROFS' ? READ_ONLY_DISK : NOT_ALLOWED).data as string;
  return fileTrouble(e)?.data ?? 'The library refused to store it.';
}

/** Where an export was going, for what its failure can offer. */
export interface ExportPlace {
  /**
   * The host has a save dialog (the desktop app), so another folder can be chosen; the browser host
   * writes to its own exports folder and has no other to offer.
   */
  canChooseFolder: boolean;
}

/** What to do next, with a save dialog (`chooser`) or with the browser host's one folder (`fixed`). */
const EXPORT_NEXT: Record<ExportNext, { chooser: string; fixed: string }> = {
  close: { chooser: 'Close it there and try again.', fixed: 'Close it there and try again.' },
  folder: {
    chooser: 'Choose another folder, then export again.',
    fixed: "Once Portolan's exports folder can be written again, choose Try again.",
  },
  space: {
    chooser: 'Free some space or choose another place, then export again.',
    fixed: "Free some space on the disk that holds Portolan's data, then choose Try again.",
  },
  rename: {
    chooser: 'Choose another name, then export again.',
    fixed: 'Rename the dataset, then export again.',
  },
  shorter: {
    chooser: 'Choose a shorter name or a folder nearer the top of the disk, then export again.',
    fixed: 'Rename the dataset to a shorter name, then export again.',
  },
  again: { chooser: 'Close some programs, then try again.', fixed: 'Close some programs, then try again.' },
};

/**
 * An export's failure in the analyst's words, or null when it is none we know. `anotherFolder`: the
 * folder was the problem and the host can choose another, so the window offers it.
 */
export function exportFileError(
  e: unknown,
  place: ExportPlace,
): { error: AppError; anotherFolder: boolean } | null {
  if (e instanceof AppError) return null;
  // DuckDB (a Parquet export) says a full disk or a refusal in its own text, without Node's code.
  const trouble =
    fileTrouble(e) ??
    (isDiskFull(e)
      ? FULL
      : isNotWritable(e)
        ? /read-only file system/i.test(messageOf(e))
          ? READ_ONLY_DISK
          : NOT_ALLOWED
        : null);
  if (!trouble) return null;
  const { said, next } = trouble.write;
  const advice = EXPORT_NEXT[next][place.canChooseFolder ? 'chooser' : 'fixed'];
  const detail = systemDetail(e) ?? (messageOf(e).slice(0, 500) || undefined);
  return {
    error: new AppError(trouble.kind, `${said} No file was written. ${advice}`, detail ? { detail } : {}),
    anotherFolder: place.canChooseFolder && next !== 'close' && next !== 'again',
  };
}

/** What a full disk means for the library; `detail`: the system's own text. */
export function diskFullError(detail?: string): AppError {
  return new AppError(
    'DiskFull',
    "The disk is full: Portolan could not save to its library. What was saved before is intact; free some space on the disk that holds Portolan's data, then try again.",
    detail ? { detail } : {},
  );
}

/**
 * A storage failure of Portolan's own data (the library, presets, profiles) as the typed error the
 * window acts on, or null when `e` is none of them.
 */
export function storageError(e: unknown): AppError | null {
  if (e instanceof AppError) return null;
  const holder = lockHolder(e);
  if (holder) return libraryLockedError(holder);
  if (isDiskFull(e)) return diskFullError(systemDetail(e));
  if (isNotWritable(e)) return null;
  const trouble = fileTrouble(e);
  if (!trouble?.data) return null;
  const detail = systemDetail(e);
  return new AppError(trouble.kind, trouble.data, detail ? { detail } : {});
}

/**
 * A library write refused by the system (the data folder or its library file made read-only, its
 * permissions changed), as the analyst's error; null for anything else. DuckDB's own text names its
 * write-ahead log and a "TransactionContext", which the analyst cannot act on.
 */
export function libraryNotWritableError(e: unknown): AppError | null {
  if (e instanceof AppError || !isNotWritable(e)) return null;
  const detail = systemDetail(e);
  return new AppError(
    'Forbidden',
    `${whyNotStored(e)} What was saved before is intact; make the folder writable again, then try again.`,
    detail ? { detail } : {},
  );
}
