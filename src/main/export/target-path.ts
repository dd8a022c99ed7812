import { mkdir, stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join } from 'node:path';
import { AppError } from '@shared/ipc/errors';

export type ExportFileFormat = 'xlsx' | 'csv' | 'parquet';

/** Characters no file system of ours accepts in a name, plus control characters. */
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME = /[<>:"/\\|?*\x00-\x1F]+/g;

/** A file name from a dataset name: safe on every OS, with the format's extension. */
export function exportFileName(suggested: string, format: ExportFileFormat): string {
  let base = suggested.replace(UNSAFE_NAME, ' ').replace(/\s+/g, ' ').trim();
  if (extname(base).toLowerCase() === `.${format}`) base = base.slice(0, -(format.length + 1)).trim();
  // Windows refuses names ending in a dot or a blank, and names that are only dots.
  base = base.replace(/[. ]+$/, '').slice(0, 150) || 'export';
  return `${base}.${format}`;
}

/**
 * Where a host without a save dialog (the browser host) writes: `<dataDir>/exports/<name>`. An
 * existing file there is not replaced silently: the export then answers Conflict like anywhere else.
 */
export async function exportsFolderPath(
  dataDir: string,
  suggested: string,
  format: ExportFileFormat,
): Promise<string> {
  const dir = join(dataDir, 'exports');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return join(dir, exportFileName(suggested, format));
}

/**
 * Checks a target path before anything is written: absolute, in an existing folder, and ending in the
 * format's extension (added when missing, since a save dialog may hand back a bare name).
 */
export async function checkTargetPath(path: string, format: ExportFileFormat): Promise<string> {
  if (!isAbsolute(path)) throw new AppError('InvalidInput', 'Choose where to save the export (a full path).');
  const target = extname(path).toLowerCase() === `.${format}` ? path : `${path}.${format}`;
  const folder = await stat(dirname(target)).catch(() => null);
  if (!folder?.isDirectory()) {
    throw new AppError('NotFound', `The folder ${dirname(target)} does not exist; choose another place.`);
  }
  const existing = await stat(target).catch(() => null);
  if (existing?.isDirectory())
    throw new AppError('InvalidInput', `${target} is a folder; choose a file name.`);
  return target;
}
