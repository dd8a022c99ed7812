import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './paths';

export interface HostProcess {
  url: string;
  /** The data dir it runs on; a restart on the same dir finds the same library and jobs. */
  dataDir: string;
  output(): string;
  close(): Promise<void>;
  /** SIGKILL, as a crash or power loss: nothing gets to clean up. Keeps the data dir. */
  kill(): Promise<void>;
}

/**
 * `scripts/web.ts` as a separate process, exactly as `npm run web` starts it, so a test can give it
 * an environment of its own (e.g. no reachable D-Bus, for a genuinely broken keychain).
 */
export async function startHostProcess(
  opts: { env?: NodeJS.ProcessEnv; args?: string[]; dataDir?: string } = {},
): Promise<HostProcess> {
  // A data dir handed in belongs to the caller (it outlives this process); one made here does not.
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'portolan-e2e-proc-')));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/web.ts', '--data-dir', dataDir, ...(opts.args ?? [])],
    { cwd: PROJECT_ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    // A loaded machine can take a while to close the library: wait for the exit itself, SIGKILL only as a last resort.
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      // Gone for real before anyone opens its files: a killed process holds the library's lock until it exits.
      await exited;
    }
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
  };
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web host did not start:\n${out}`)), 30_000);
    const check = (): void => {
      const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web host exited with ${code}:\n${out}`));
    });
  }).catch(async (e: unknown) => {
    await close();
    throw e;
  });
  return { url, dataDir, output: () => out, close, kill };
}
