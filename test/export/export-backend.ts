import type { BridgeResult } from '@shared/ipc/errors';

/**
 * The real export handlers behind the window's bridge, as ./export-retry-backend.ts starts them. Types
 * only, so the Export dialog's DOM-typed test names them without pulling main's modules into the
 * renderer's type check.
 */
export interface ExportBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
  datasetId: string;
  rows: number;
  /** A folder the save dialog can point into, made on demand under this backend's folder. */
  folder(name: string): Promise<string>;
  /** What the save dialog answers next, in order (a path, or null for a cancel). */
  saveDialogAnswers: (string | null)[];
  /** Makes a folder refuse every write, even root's (`chattr +i`), or lets it write again. */
  freeze(folder: string): void;
  thaw(folder: string): void;
  canFreeze: boolean;
  files(folder: string): Promise<string[]>;
  read(path: string): Promise<string>;
  close(): Promise<void>;
}
