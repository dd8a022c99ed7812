import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * End-to-end suite: Chromium drives the built renderer through the browser test host, against the
 * simulator and the real keychain. Run under scripts/with-keyring.sh after `electron-vite build`.
 */
export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src/shared') } },
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['test/e2e/support/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // The browser answers within a second on an idle machine, but a search or a re-render can take
    // several on two cores shared with other suites: expect.poll's 1 s default failed there.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // One browser at a time: the machine has two cores shared with everything else.
    maxWorkers: 1,
    fileParallelism: false,
  },
});
