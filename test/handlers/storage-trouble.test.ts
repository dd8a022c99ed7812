import { fork, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { EventChannel } from '@shared/ipc/channels';
import type { Events } from '@shared/ipc/contract';
import type { BridgeResult } from '@shared/ipc/errors';
import type { JobFinished } from '@shared/jobs/jobs-contract';
import type { LibraryStatus } from '@shared/library/library-contract';
import { createFileHandles } from '../../src/main/file-handles';
import { createDispatcher, createHandlers, toBridgeResultError } from '../../src/main/handlers';
import { createExportHandlers } from '../../src/main/handlers/export-handlers';
import { EXPORT_SETTINGS_FILE } from '../../src/main/handlers/export-settings';
import { Library } from '../../src/main/library';
import { nullLogger } from '../../src/main/log';
import { createMemorySecretStore } from '../../src/main/secrets';
import { shipment } from '../library/helpers';

const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function freshDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'portolan-storage-'));
  dirs.push(d);
  return d;
}

/** The real handlers over `dataDir` (memory keychain: nothing here needs a profile), as the window calls them. */
function open(dataDir: string) {
  const handlers = createHandlers({
    dataDir,
    resourcesDir: join(dataDir, 'resources'),
    logger: nullLogger,
    events: { emit: () => undefined },
    secrets: createMemorySecretStore(),
    appInfo: { version: '0.0.0-test', host: 'browser' },
  });
  const dispatch = createDispatcher<'app'>({ handlers, logger: nullLogger, isTrustedSender: () => true });
  closers.push(() => handlers.dispose());
  return (channel: string, input?: unknown) => dispatch(channel, input, 'app');
}

/** The pid of a process that has exited: nothing runs under it any more. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(r.stdout);
}

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('a library held by another program', () => {
  it('is StorageLocked naming the program and its process, and Retry opens it once it lets go', async () => {
    const dataDir = await freshDir();
    await (await Library.open(dataDir)).close();
    const holder = fork(
      join(import.meta.dirname, '../helpers/hold-library.mjs'),
      [join(dataDir, 'library.duckdb')],
      {
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    closers.push(async () => {
      if (holder.exitCode === null) holder.kill('SIGKILL');
      await exited;
    });
    await new Promise((resolve, reject) => {
      holder.once('message', resolve);
      holder.once('error', reject);
    });

    const call = open(dataDir);
    const refused = await call('library.list');
    expect(refused.ok).toBe(false);
    const error = (refused as Extract<BridgeResult<unknown>, { ok: false }>).error;
    expect(error.kind).toBe('StorageLocked');
    expect(error.message).toContain(`process ${holder.pid}`);
    expect(error.message).toMatch(/\(node, process/);
    expect(error.message).toContain('Retry');
    expect(error.message).not.toContain('Something went wrong');

    holder.send('let go');
    await exited;
    expect(await call('library.list')).toEqual({ ok: true, value: [] });
  });
});

describe('a damaged library', () => {
  it('is kept aside byte for byte, a fresh library opens, and library.status says so', async () => {
    const dataDir = await freshDir();
    const damaged = Buffer.alloc(16_384, 0x5a);
    await writeFile(join(dataDir, 'library.duckdb'), damaged);
    const call = open(dataDir);

    expect(await call('library.list')).toEqual({ ok: true, value: [] });
    const status = (await call('library.status')) as BridgeResult<LibraryStatus>;
    if (!status.ok) throw new Error(status.error.message);
    const keptAs = status.value.recovered?.keptAs ?? '';
    expect(keptAs).toMatch(/^library\.damaged-\d{8}-\d{6}\.duckdb$/);
    expect(status.value.recovered?.notice).toContain(keptAs);
    expect(status.value.recovered?.notice).toContain('fresh, empty library');
    expect(await readFile(join(dataDir, keptAs))).toEqual(damaged);
    expect(await mode(join(dataDir, 'library.duckdb'))).toBe(0o600);
  });

  it('a sound library reports nothing', async () => {
    const call = open(await freshDir());
    expect(await call('library.status')).toEqual({ ok: true, value: { recovered: null } });
  });
});

describe('start-up', () => {
  it('sweeps what a crashed run left, and nothing a live process is still writing', async () => {
    const dataDir = await freshDir();
    const elsewhere = await freshDir();
    const dead = deadPid();
    const old = new Date(Date.now() - 3_600_000);
    const put = async (path: string, text = 'x', mtime?: Date) => {
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, text);
      if (mtime) await utimes(path, mtime, mtime);
      return path;
    };
    const gone = [
      await put(join(dataDir, `profiles.json.tmp-${dead}-0123456789ab`)),
      await put(join(dataDir, 'imports', `${dead}-0123456789abcdef`, 'shipments.csv')),
      await put(join(dataDir, 'tmp', `portolan-parquet-${dead}-AbC123`, 'export.duckdb')),
      await put(join(dataDir, 'exports', '.q1.xlsx.0123456789ab.partial'), 'half', old),
      await put(join(elsewhere, '.q2.csv.0123456789ab.partial'), 'half', old),
      // An import's staged rows, left in the OS temp folder by a process killed mid-import.
      await put(join(tmpdir(), `portolan-import-${dead}-AbC123`, 'part-1.parquet')),
    ];
    const kept = [
      await put(join(dataDir, 'imports', `${process.pid}-fedcba9876543210`, 'live.csv')),
      await put(join(dataDir, 'exports', '.q3.xlsx.0123456789ab.partial'), 'being written'),
      await put(join(dataDir, 'exports', 'q1.xlsx'), 'a finished export'),
      await put(join(elsewhere, 'q2.csv'), 'a finished export'),
      await put(join(dataDir, 'profiles.json'), '{}'),
      // An import this process is running.
      await put(join(tmpdir(), `portolan-import-${process.pid}-LiVe12`, 'part-1.parquet')),
    ];
    onTestFinished(() =>
      rm(join(tmpdir(), `portolan-import-${process.pid}-LiVe12`), { recursive: true, force: true }),
    );
    await writeFile(join(dataDir, EXPORT_SETTINGS_FILE), JSON.stringify({ lastFolder: elsewhere }));

    const call = open(dataDir);
    expect((await call('library.list')).ok).toBe(true);
    for (const path of gone) await expect(stat(path), path).rejects.toThrow();
    expect(await readdir(join(dataDir, 'imports'))).toEqual([`${process.pid}-fedcba9876543210`]);
    expect(await readdir(join(dataDir, 'tmp'))).toEqual([]);
    for (const path of kept) expect((await stat(path)).isFile(), path).toBe(true);
  });

  it('makes the data folder and its files the analyst’s alone (0700 / 0600)', async () => {
    const dataDir = await freshDir();
    await chmod(dataDir, 0o755);
    await mkdir(join(dataDir, 'exports'), { mode: 0o755 });
    await mkdir(join(dataDir, 'logs'), { mode: 0o755 });
    for (const f of ['profiles.json', 'presets.json', 'exports/q1.xlsx', 'logs/portolan.log']) {
      await writeFile(join(dataDir, f), '{}');
      await chmod(join(dataDir, f), 0o644);
    }
    const call = open(dataDir);
    expect((await call('library.list')).ok).toBe(true);
    for (const d of ['', 'exports', 'logs']) expect(await mode(join(dataDir, d)), d).toBe(0o700);
    for (const f of [
      'profiles.json',
      'presets.json',
      'exports/q1.xlsx',
      'logs/portolan.log',
      'library.duckdb',
    ])
      expect(await mode(join(dataDir, f)), f).toBe(0o600);
  });
});

describe('a full disk', () => {
  it('is DiskFull in plain words, from Node and from DuckDB alike', () => {
    let nodeError: unknown;
    try {
      writeFileSync('/dev/full', 'x');
    } catch (e) {
      nodeError = e;
    }
    expect((nodeError as NodeJS.ErrnoException).code).toBe('ENOSPC');
    const duckdbError = new Error(
      'IO Error: Could not write file "/data/library.duckdb.wal": No space left on device',
    );
    for (const e of [nodeError, duckdbError]) {
      const b = toBridgeResultError(e);
      expect(b.kind).toBe('DiskFull');
      expect(b.message).toMatch(/^The disk is full/);
      expect(b.message).not.toContain('/data');
    }
  });

  // A real full disk: a 256 KB tmpfs as the export folder (mounting needs root, as on CI's machine).
  const mountable = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;
  it.skipIf(!mountable)(
    'an export that fills the disk fails as DiskFull and leaves no partial file',
    async () => {
      const root = await freshDir();
      const out = join(root, 'small-disk');
      await mkdir(out);
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', out]);
      if (mounted.status !== 0) throw new Error(`mount failed: ${String(mounted.stderr)}`);
      closers.push(async () => void spawnSync('umount', [out]));

      const library = await Library.open(join(root, 'data'));
      closers.push(() => library.close());
      const rows = Array.from({ length: 3_000 }, (_, i) =>
        shipment(i, { productDescription: 'x'.repeat(200) }),
      );
      const dataset = await library.saveShipmentSearch(
        { importer_countries: ['TR'], start_date: '2024-01-01', end_date: '2024-03-31', size: 3000 },
        { total: rows.length, shipments: rows },
        { profileName: 'Work', account: 'acme' },
      );
      const finished: JobFinished[] = [];
      const files = createFileHandles();
      const service = createExportHandlers({
        files,
        library: async () => library,
        dataDir: join(root, 'data'),
        logger: nullLogger,
        appVersion: '0.0.0-test',
        // The desktop app's: its save dialog can choose another place.
        chooseSavePath: async () => null,
        events: {
          emit<E extends EventChannel>(event: E, payload: Events[E]) {
            if (event === 'jobs.finished') finished.push(payload as JobFinished);
          },
        },
      });
      const target = files.issue({
        purpose: 'export-target',
        path: join(out, 'big.csv'),
        format: 'csv',
        owned: false,
      });
      const { jobId } = await service['export.start'](
        { source: { datasetId: dataset.id }, format: 'csv', target },
        {},
      );
      await expect.poll(() => finished.find((f) => f.jobId === jobId), { timeout: 30_000 }).toBeDefined();
      const f = finished.find((x) => x.jobId === jobId)!;
      expect(f.outcome).toBe('failed');
      expect(f.message).toBe(
        'The disk is full. No file was written. Free some space or choose another place, then export again.',
      );
      expect(f.kind === 'export' && f.detail).toMatch(/^ENOSPC: no space left on device/);
      expect(await readdir(out)).toEqual([]);
    },
  );
});
