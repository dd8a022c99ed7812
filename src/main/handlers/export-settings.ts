import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Remembers the folder of the last export so the next save dialog opens there. */
export const EXPORT_SETTINGS_FILE = 'export-settings.json';

/** The folder the analyst last exported to, or null. */
export async function lastFolder(dataDir: string): Promise<string | null> {
  try {
    const parsed = JSON.parse(await readFile(join(dataDir, EXPORT_SETTINGS_FILE), 'utf8')) as unknown;
    const folder = (parsed as { lastFolder?: unknown } | null)?.lastFolder;
    return typeof folder === 'string' && folder.length > 0 ? folder : null;
  } catch {
    return null;
  }
}
