import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src/shared') } },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['test/renderer/dom-setup.ts'],
    globalSetup: ['test/helpers/import-worker-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // expect.poll's 1 s default is shorter than a busy two-core machine needs for a file or an event.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Vitest's default runs one file fewer than the cores at a time: a single file on two cores, whose
    // tests spend much of their time waiting on the simulator, DuckDB, files and timers while the other
    // core idles. The runner's own process stays nearly idle, so every core gets a file.
    maxWorkers: availableParallelism(),
  },
});
