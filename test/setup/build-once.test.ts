import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir';

const run = promisify(execFile);
const script = resolve(import.meta.dirname, '../../scripts/build.sh');

/**
 * A checkout of its own: the script, the inputs it hashes, and a stand-in `npx` first on the PATH that
 * records each build (and fails while told to), so a build costs nothing and every build is counted.
 */
function checkout(dir: string): { builds: () => string[]; failBuilds: (on: boolean) => void } {
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(script, join(dir, 'scripts', 'build.sh'));
  mkdirSync(join(dir, 'src', 'main'), { recursive: true });
  mkdirSync(join(dir, 'resources'));
  writeFileSync(join(dir, 'src', 'main', 'index.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'resources', 'countries.json'), '{}\n');
  for (const f of ['electron.vite.config.ts', 'tsconfig.json', 'tsconfig.web.json', 'package.json'])
    writeFileSync(join(dir, f), '{}\n');
  writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n');
  mkdirSync(join(dir, 'bin'));
  const log = join(dir, 'npx.log');
  writeFileSync(log, '');
  const npx = join(dir, 'bin', 'npx');
  writeFileSync(
    npx,
    `#!/bin/bash\necho "$*" >> ${log}\n[ -f ${dir}/fail ] && exit 1\nmkdir -p out/main && echo built > out/main/index.js\n`,
  );
  chmodSync(npx, 0o755);
  return {
    builds: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
    failBuilds: (on) => (on ? writeFileSync(join(dir, 'fail'), '') : rmSync(join(dir, 'fail'))),
  };
}

async function build(dir: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const env = { PATH: `${join(dir, 'bin')}:/usr/bin:/bin` };
  try {
    const { stdout, stderr } = await run('/bin/bash', [join(dir, 'scripts', 'build.sh'), ...args], { env });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

describe('the build (scripts/build.sh)', () => {
  const tmp = useTempDir('portolan-build-once-');

  it('builds once for the same sources: the next run says out/ holds their build and builds nothing', async () => {
    const c = checkout(tmp.dir);
    expect((await build(tmp.dir)).code).toBe(0);
    expect(c.builds()).toEqual(['electron-vite build']);
    const again = await build(tmp.dir);
    expect(again).toEqual({
      code: 0,
      out: 'out/ already holds the build of these sources; not building again.\n',
    });
    expect(c.builds()).toEqual(['electron-vite build']);
  });

  it('builds again when a source, a resource, the config or the lockfile changed', async () => {
    const c = checkout(tmp.dir);
    await build(tmp.dir);
    const changes = [
      ['src/main/index.ts', 'export const a = 2;\n'],
      ['src/main/new-file.ts', 'export const b = 1;\n'],
      ['resources/countries.json', '{"DE":"Germany"}\n'],
      ['electron.vite.config.ts', '{"changed":true}\n'],
      ['package-lock.json', '{"lockfileVersion":3,"changed":true}\n'],
    ] as const;
    for (const [file, text] of changes) {
      writeFileSync(join(tmp.dir, file), text);
      expect((await build(tmp.dir)).code).toBe(0);
    }
    expect(c.builds()).toHaveLength(1 + changes.length);
  });

  it('after a failed build, fails and builds again next time, whatever out/ holds', async () => {
    const c = checkout(tmp.dir);
    await build(tmp.dir);
    writeFileSync(join(tmp.dir, 'src/main/index.ts'), 'export const a = 3;\n');
    c.failBuilds(true);
    expect((await build(tmp.dir)).code).toBe(1);
    expect((await build(tmp.dir)).code).toBe(1);
    c.failBuilds(false);
    expect((await build(tmp.dir)).code).toBe(0);
    expect(c.builds()).toHaveLength(4);
  });

  it('--force builds even when out/ holds the build of these sources', async () => {
    const c = checkout(tmp.dir);
    await build(tmp.dir);
    expect((await build(tmp.dir, '--force')).code).toBe(0);
    expect(c.builds()).toHaveLength(2);
  });
});
