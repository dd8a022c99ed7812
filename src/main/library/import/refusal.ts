import { systemDetail, unreadableReason } from '../storage-errors';

/**
 * Why a file is not imported, in the analyst's words (no file content); `detail`: the system's own
 * text, where the system refused to read the file.
 */
export class ImportRefusal extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ImportRefusal';
  }
}

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
  const problem = unreadableReason(e);
  return problem ? new ImportRefusal(problem, systemDetail(e)) : null;
}
