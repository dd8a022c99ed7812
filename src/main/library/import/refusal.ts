/** Why a file is not imported, in the analyst's words (no file content). */
export class ImportRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportRefusal';
  }
}

const COPY_IT = 'copy it to a folder on this computer (such as Documents) and import the copy';

/** What the system's refusal to read a file means for the analyst, by its error code. */
const UNREADABLE: Readonly<Record<string, string>> = {
  ENOENT: 'the file is no longer where it was chosen (it was moved, renamed or deleted); choose it again',
  ENOTDIR: 'the file is no longer where it was chosen (its folder was moved or renamed); choose it again',
  EISDIR: 'it is a folder, not a file',
  EACCES: `Portolan is not allowed to read it (its permissions deny it, or another program holds it locked); close it in other programs, or ${COPY_IT}`,
  EPERM: `Portolan is not allowed to read it (its permissions deny it, or another program holds it locked); close it in other programs, or ${COPY_IT}`,
  EBUSY: 'another program holds it locked; close it in that program, then import it again',
  EIO: `its disk could not be read (a network drive, USB stick or cloud folder that went away, or a damaged disk); ${COPY_IT}`,
  ENXIO: `its disk could not be read (a network drive, USB stick or cloud folder that went away); ${COPY_IT}`,
  ENODEV: `its disk could not be read (a network drive, USB stick or cloud folder that went away); ${COPY_IT}`,
  ETIMEDOUT: `its network drive did not answer in time; ${COPY_IT}`,
  ESTALE: `its network drive no longer serves it; ${COPY_IT}`,
};

/**
 * An error of the system reading the file (it carries the call that failed and the system's code), as
 * opposed to a reader's complaint about what the file holds: readers of a format pass it on as it is,
 * so that the analyst hears that the file could not be read rather than that it is damaged.
 */
export function isSystemError(e: unknown): e is NodeJS.ErrnoException {
  const { code, syscall } = (e ?? {}) as { code?: unknown; syscall?: unknown };
  return e instanceof Error && typeof code === 'string' && typeof syscall === 'string';
}

/**
 * A failure to open or read the file itself (not its content) as a refusal in the analyst's words;
 * null for any other error. The system's own text names the path and an error code only.
 */
export function unreadableFile(e: unknown): ImportRefusal | null {
  const code = (e as { code?: unknown } | null)?.code;
  const problem = typeof code === 'string' ? UNREADABLE[code] : undefined;
  return problem ? new ImportRefusal(problem) : null;
}
