import type { BridgeResult } from '@shared/ipc/errors';

/**
 * The real analysis calls behind the real dispatcher, as ./page-backend.ts starts them for the
 * Analysis page's test. Types only, so the DOM-typed test names them without pulling main's modules
 * into the renderer's type check.
 */
export interface PageBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  ids: { before: string; after: string; empty: string; single: string };
  before: Record<string, string>[];
  after: Record<string, string>[];
  /** The one shipment of the "Single" dataset; its importer has a 300-character name. */
  single: Record<string, string>;
  /** The first sheet of an exported .xlsx (Base64): its cells row by row, and the workbook's subject. */
  readXlsx(base64: string): Promise<{ rows: unknown[][]; subject: string }>;
  close(): Promise<void>;
}
