import { availableParallelism, cpus } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineConfig } from 'vitest/config';

/** The share of the machine's CPU time no process used over `ms` (this one waits meanwhile). */
async function idleShare(ms: number): Promise<number> {
  const times = (): [number, number] => {
    let idle = 0;
    let all = 0;
    for (const { times: t } of cpus()) {
      idle += t.idle;
      all += t.idle + t.user + t.nice + t.sys + t.irq;
    }
    return [idle, all];
  };
  const [idle0, all0] = times();
  await sleep(ms);
  const [idle1, all1] = times();
  return all1 > all0 ? (idle1 - idle0) / (all1 - all0) : 0;
}

/**
 * A file per free core, at least one. On two idle cores, two files at once ran the suite in 733 s against
 * 950–975 s one at a time; on the same kind of machine shared at load 12–19, two at once finished no
 * sooner (2,316 s against 2,160 s) and pushed tests past their limits. The machine's idle time is
 * sampled rather than its load average, which still counts the checks that ran just before.
 */
const cores = availableParallelism();
const idle = await idleShare(1_000);
const maxWorkers = Math.min(cores, Math.max(1, Math.round(idle * cores)));
console.log(
  `unit tests: ${maxWorkers} file(s) at a time (${Math.round(idle * 100)} % of ${cores} cores idle)`,
);

export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src/shared') } },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['test/renderer/dom-setup.ts'],
    globalSetup: ['test/helpers/import-worker-setup.ts'],
    // A limit against a test that hangs, not a speed goal: with two files at once a test took up to
    // three times as long as alone (a firm split in the grid: 4.4–5.4 s alone, 15.1 s of the 20 s limit
    // it had then).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's 1 s default is shorter than a busy two-core machine needs for a file or an event.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    maxWorkers,
  },
});
