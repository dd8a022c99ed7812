import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

const root = resolve(import.meta.dirname, '../..');

/**
 * Compiles the import worker once for the run, from the same sources, and names the file to
 * worker-client.ts (PORTOLAN_TEST_IMPORT_WORKER), which the test processes inherit. Without it every
 * preview, check and import started a worker that loaded its TypeScript through tsx: about a second
 * each on two busy cores, against a third of that for a compiled file. Watch mode keeps tsx, which
 * reads the sources as they are edited.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (project.config.watch) return;
  // Inside the project, so that the compiled file's require() finds the packages in node_modules.
  const cache = join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, 'portolan-test-import-worker-'));
  const outfile = join(dir, 'import-worker.cjs');
  await build({
    entryPoints: [join(root, 'src/main/library/import/import-worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Packages load from node_modules, as in the built app: only the project's own sources are compiled.
    packages: 'external',
    alias: { '@shared': join(root, 'src/shared') },
    logLevel: 'warning',
  });
  process.env['PORTOLAN_TEST_IMPORT_WORKER'] = outfile;
  return async () => {
    delete process.env['PORTOLAN_TEST_IMPORT_WORKER'];
    await rm(dir, { recursive: true, force: true });
  };
}
