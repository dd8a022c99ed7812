import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');

/** The import worker of the built app (`npm run build`), next to its main bundle. */
export const BUILT_IMPORT_WORKER = join(root, 'out', 'main', 'import-worker.js');

/** The newest source file under these folders, with its modification time. */
function newestSource(dirs: readonly string[]): { file: string; mtimeMs: number } | null {
  let newest: { file: string; mtimeMs: number } | null = null;
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts')) {
        const { mtimeMs } = statSync(path);
        if (!newest || mtimeMs > newest.mtimeMs) newest = { file: path, mtimeMs };
      }
    }
  };
  for (const dir of dirs) visit(dir);
  return newest;
}

/**
 * Makes every import worker this benchmark starts, in its own process and in the case processes it
 * spawns (which inherit the environment), the built app's: the file worker-client.ts is named by
 * PORTOLAN_TEST_IMPORT_WORKER. Without it a benchmark under tsx starts the worker from its
 * TypeScript sources, compiling them for every preview, check and import, a cost the app never pays.
 * Says so and answers false when the app is not built; warns when the build is older than the main
 * process's sources, whose changes it would then not measure.
 */
export function useBuiltImportWorker(bench: string): boolean {
  if (!existsSync(BUILT_IMPORT_WORKER)) {
    console.log(
      `${bench}: not measured, the app is not built (run npm run build first: the imports are measured ` +
        `with the built app's import worker, ${relative(root, BUILT_IMPORT_WORKER)})`,
    );
    return false;
  }
  const built = statSync(BUILT_IMPORT_WORKER).mtimeMs;
  const newest = newestSource([join(root, 'src', 'main'), join(root, 'src', 'shared')]);
  if (newest && newest.mtimeMs > built) {
    console.log(
      `${bench}: the built app is older than ${relative(root, newest.file)}; ` +
        'run npm run build to measure the sources as they are',
    );
  }
  process.env['PORTOLAN_TEST_IMPORT_WORKER'] = BUILT_IMPORT_WORKER;
  return true;
}
