import { z } from 'zod';

/**
 * A file the main process picked for the window: the renderer names files only by these opaque
 * handles, never by path. Main issues one when the analyst chooses a file in its native dialog
 * (Electron) or when the browser host places a file in its own export or import folder; main alone
 * knows the path behind it.
 */
export const FILE_HANDLE_PATTERN = /^fh_[A-Za-z0-9_-]{32}$/;

export const fileHandleSchema = z
  .string()
  .regex(FILE_HANDLE_PATTERN, { error: 'a file chosen in Portolan (choose the file again)' });

/** What the window may know of a chosen file: its handle and how to name it to the analyst. */
export interface ChosenFile {
  handle: string;
  /** The file's name, e.g. `Shipments · all.xlsx`. */
  name: string;
  /** Where it is, for the analyst to read (main's own choice of words; never sent back). */
  location: string;
  /** Bytes, when the file already exists (an import source). */
  size?: number;
}
