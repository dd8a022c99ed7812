import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, join, relative, isAbsolute } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import type { ChosenFile } from '@shared/files/file-handle';
import { AppError } from '@shared/ipc/errors';
import { MAX_IMPORT_BYTES, importTooLargeMessage } from '@shared/library/dataset-fields';
import type { FileHandles } from '../file-handles';

/** The browser host's own folders under the data folder. */
export const EXPORTS_FOLDER = 'exports';
export const IMPORTS_FOLDER = 'imports';
/** Scratch space of running work (Parquet exports); whatever a crash leaves there is swept at start-up. */
export const TEMP_FOLDER = 'tmp';

/**
 * What a host without native dialogs (the browser host) offers instead: a file the analyst picks in
 * the browser is uploaded into `<dataDir>/imports/` and gets an import handle; an export written to
 * `<dataDir>/exports/` is downloaded by its handle. Paths stay in main either way.
 */
export interface HostFiles {
  /** Stores an uploaded file and issues its import handle; refuses files over MAX_IMPORT_BYTES. */
  receiveImport(fileName: string, body: AsyncIterable<Uint8Array> | Uint8Array): Promise<ChosenFile>;
  /** The finished export behind a handle, when it lies in the exports folder; null otherwise. */
  exportForDownload(handle: string): Promise<{ path: string; name: string; size: number } | null>;
}

// eslint-disable-next-line no-control-regex
const UNSAFE_NAME = /[<>:"/\\|?*\x00-\x1F\x7F]+/g;

/** The name an upload is stored under: its own name made safe, never a path. */
export function uploadFileName(raw: string): string {
  const name = basename(raw.replace(/\\/g, '/'))
    .replace(UNSAFE_NAME, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return name === '' || /^\.+$/.test(name) ? 'upload' : name;
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

export function createHostFiles(dataDir: string, handles: FileHandles): HostFiles {
  const exportsDir = join(dataDir, EXPORTS_FOLDER);
  const importsDir = join(dataDir, IMPORTS_FOLDER);
  return {
    async receiveImport(fileName, body) {
      const name = uploadFileName(fileName);
      // A folder per upload keeps the analyst's file name without clashing with another upload's.
      const folder = join(importsDir, `${process.pid}-${randomBytes(8).toString('hex')}`);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const path = join(folder, name);
      let size = 0;
      const cap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > MAX_IMPORT_BYTES) done(new AppError('InvalidInput', importTooLargeMessage(name)));
          else done(null, chunk);
        },
      });
      try {
        const source = body instanceof Uint8Array ? Readable.from([body]) : Readable.from(body);
        await pipeline(source, cap, createWriteStream(path, { mode: 0o600, flags: 'wx' }));
      } catch (e) {
        await rm(folder, { recursive: true, force: true });
        throw e;
      }
      const handle = handles.issue({ purpose: 'import-source', path, owned: true });
      return { handle, name, location: 'uploaded to Portolan', size };
    },

    async exportForDownload(handle) {
      let path: string;
      try {
        path = handles.resolve(handle, 'export-target').path;
      } catch {
        return null;
      }
      if (!inside(exportsDir, path)) return null;
      const info = await stat(path).catch(() => null);
      return info?.isFile() ? { path, name: basename(path), size: info.size } : null;
    },
  };
}
