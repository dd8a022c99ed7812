import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BridgeResult } from '@shared/ipc/errors';
import { createPresetsHandlers } from '../../src/main/handlers/presets-handlers';
import { tempDir } from '../helpers/temp-dir';
import { dispatchOver } from '../helpers/page-dispatch';

export interface PresetsPanelBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  /** Writes presets.json as a previous run would have left it; call before the first invoke. */
  writePresetsFile(text: string): Promise<void>;
  readPresetsFile(): Promise<string>;
  files(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The real presets calls behind the real dispatcher (schema checks, error conversion) over a fresh
 * data folder, for the presets panel test. Loaded by path so the DOM-typed test does not pull
 * main-process types into the renderer's type check.
 */
export async function startPresetsPanelBackend(): Promise<PresetsPanelBackend> {
  const tmp = await tempDir('portolan-presets-panel-');
  const slice = createPresetsHandlers({ dataDir: tmp.dir });
  return {
    invoke: dispatchOver(slice, 'panel-test'),
    writePresetsFile: (text) => writeFile(join(tmp.dir, 'presets.json'), text),
    readPresetsFile: () => readFile(join(tmp.dir, 'presets.json'), 'utf8'),
    files: async () => (await readdir(tmp.dir)).sort(),
    close: tmp.cleanup,
  };
}
