import { fork, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { BridgeResult } from '@shared/ipc/errors';
import type { LibraryStatus } from '@shared/library/library-contract';
import { toBridgeResultError } from '../../src/main/handlers';
import { EXPORT_SETTINGS_FILE } from '../../src/main/handlers/export-settings';
import { Library } from '../../src/main/library';
import { shipment } from '../library/helpers';
import { mountable, useDiskTrouble } from './disk-trouble';

const trouble = useDiskTrouble('portolan-storage-');
const open = (dataDir: string) => trouble.handlers(dataDir);

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
    const dataDir = await trouble.freshDir();
    await (await Library.open(dataDir)).close();
    const holder = fork(
      join(import.meta.dirname, '../helpers/hold-library.mjs'),
      [join(dataDir, 'library.duckdb')],
      {
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    trouble.later(async () => {
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
    const dataDir = await trouble.freshDir();
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
    const call = open(await trouble.freshDir());
    expect(await call('library.status')).toEqual({ ok: true, value: { recovered: null } });
  });
});

describe('start-up', () => {
  it('sweeps what a crashed run left, and nothing a live process is still writing', async () => {
    const dataDir = await trouble.freshDir();
    const elsewhere = await trouble.freshDir();
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
    const dataDir = await trouble.freshDir();
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

  // A real full disk: a 256 KB tmpfs as the export folder.
  it.skipIf(!mountable)(
    'an export that fills the disk fails as DiskFull and leaves no partial file',
    async () => {
      const root = await trouble.freshDir();
      const out = join(root, 'small-disk');
      await mkdir(out);
      trouble.mount(['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', out]);
      const rows = Array.from({ length: 3_000 }, (_, i) =>
        shipment(i, { productDescription: 'x'.repeat(200) }),
      );
      const f = await (await trouble.exporter(root, rows)).run(join(out, 'big.csv'));
      expect(f.outcome).toBe('failed');
      expect(f.message).toBe(
        'The disk is full. No file was written. Free some space or choose another place, then export again.',
      );
      expect(f.kind === 'export' && f.detail).toMatch(/^ENOSPC: no space left on device/);
      expect(await readdir(out)).toEqual([]);
    },
  );
});
