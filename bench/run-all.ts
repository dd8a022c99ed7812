/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process, one after another, so that timings
 * and memory peaks of one benchmark never disturb another. Pass names to run a subset:
 * `npm run bench -- sim-search export-xlsx`. Extra flags after `--` reach every benchmark.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const args = process.argv.slice(2);
const names = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => names.length === 0 || names.some((n) => f.startsWith(n)))
  .sort();

let failures = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(dir, file), ...flags], {
    stdio: 'inherit',
    env: process.env,
  });
  if (run.status !== 0) {
    failures += 1;
    console.log(`=== ${file} exited with ${run.status ?? run.signal}`);
  }
}
console.log(`\n${files.length - failures} benchmarks ran, ${failures} failed`);
process.exit(failures > 0 ? 1 : 0);
