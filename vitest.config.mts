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
    // Left at vitest's default, one file at a time on two cores: two at once finished no sooner on a
    // busy shared machine (2,316 s against 2,160 s) and doubled each test's time, past its timeouts.
  },
});
