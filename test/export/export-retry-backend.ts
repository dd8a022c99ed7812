import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calls } from '@shared/ipc/contract';
import { createFileHandles } from '../../src/main/file-handles';
import { createExportHandlers } from '../../src/main/handlers/export-handlers';
import { toBridgeResultError } from '../../src/main/handlers/dispatcher';
import { Library } from '../../src/main/library';
import { nullLogger } from '../../src/main/log';
import { canFreezeLibrary, freezeLibrary, thawLibrary } from '../helpers/frozen-library';
import { shipment } from '../library/helpers';
import type { ExportBackend } from './export-backend';

/**
 * The real export handlers over a real library (DuckDB) and real files, for the Export dialog's test:
 * the save dialog is the only stand-in (it answers the paths the test gives it).
 */
export async function startExportBackend(rows = 40): Promise<ExportBackend> {
  const dir = await mkdtemp(join(tmpdir(), 'portolan-export-retry-'));
  const library = await Library.open(join(dir, 'data'));
  const dataset = await library.saveShipmentSearch(
    { importer_countries: ['TR'], hs_codes: ['7208'], start_date: '2024-01-01', end_date: '2024-09-30' },
    { total: rows, shipments: Array.from({ length: rows }, (_, i) => shipment(i)) },
  );
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const saveDialogAnswers: (string | null)[] = [];
  const frozen = new Set<string>();
  const service = createExportHandlers({
    files: createFileHandles(),
    library: async () => library,
    dataDir: join(dir, 'data'),
    logger: nullLogger,
    appVersion: '0.0.0-test',
    chooseSavePath: async () => saveDialogAnswers.shift() ?? null,
    events: { emit: (event, payload) => listeners.get(event)?.forEach((l) => l(payload)) },
  });
  return {
    datasetId: dataset.id,
    rows,
    saveDialogAnswers,
    canFreeze: canFreezeLibrary,
    async invoke(channel, input) {
      if (channel !== 'export.start' && channel !== 'export.chooseTarget' && channel !== 'export.cancel')
        return { ok: false, error: { kind: 'NotFound', message: `not in this test: ${channel}` } };
      try {
        // Checked and shaped as main's dispatcher does before the handler sees it.
        const parsed = calls[channel].input.parse(input) as never;
        return { ok: true, value: await service[channel](parsed, {}) };
      } catch (e) {
        return { ok: false, error: toBridgeResultError(e) };
      }
    },
    subscribe(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
    async folder(name) {
      const path = join(dir, name);
      await mkdir(path, { recursive: true });
      return path;
    },
    freeze(folder) {
      freezeLibrary(folder);
      frozen.add(folder);
    },
    thaw(folder) {
      thawLibrary(folder);
      frozen.delete(folder);
    },
    files: async (folder) => (await readdir(folder)).sort(),
    read: (path) => readFile(path, 'utf8'),
    async close() {
      for (const f of frozen) thawLibrary(f);
      await service.disposeExports();
      await library.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
