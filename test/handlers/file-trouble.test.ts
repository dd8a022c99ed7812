import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BridgeResult } from '@shared/ipc/errors';
import { toBridgeResultError } from '../../src/main/handlers';
import { exportFileError } from '../../src/main/library';
import { unreadableFile } from '../../src/main/library/import/refusal';
import { canFreezeLibrary, freezeLibrary, thawLibrary } from '../helpers/frozen-library';
import { mountable, useDiskTrouble } from './disk-trouble';

/**
 * Every file Portolan reads or writes for the analyst (an import's file, an export, its own data) says
 * the system's refusals through one reading of their codes: what happened and what to do, in words,
 * with the system's text kept only as the detail. The errors are the system's own, made for real
 * where Linux can make them (a bind mount for a busy file, tmpfs for a full or read-only disk,
 * `chattr +i` for a refusing folder).
 */
const trouble = useDiskTrouble('portolan-file-trouble-');

async function failure(act: () => Promise<unknown> | unknown): Promise<NodeJS.ErrnoException> {
  try {
    await act();
  } catch (e) {
    return e as NodeJS.ErrnoException;
  }
  throw new Error('the call did not fail');
}

/** A file made busy for real: another file bind-mounted on it, which the system will not replace. */
async function busyFile(dir: string): Promise<string> {
  const path = join(dir, 'steel.csv');
  await writeFile(path, 'what the analyst has open\n');
  const over = join(dir, 'over.csv');
  await writeFile(over, 'x');
  trouble.mount(['--bind', over, path]);
  return path;
}

/** Each step's words for one real error: an import's refusal, an export's message, the data's. */
function said(e: unknown) {
  return {
    import: unreadableFile(e)?.message ?? null,
    export: exportFileError(e, { canChooseFolder: true })?.error.message ?? null,
    data: toBridgeResultError(e),
  };
}

function expectNoSystemText(text: string | null, e: NodeJS.ErrnoException): void {
  expect(text).not.toBeNull();
  expect(text).not.toContain(e.code!);
  if (e.path) expect(text).not.toContain(e.path);
  // Node's text is the code, what failed, the call and the path: "EBUSY: resource busy or locked, rename '…'".
  expect(text).not.toContain(e.message.split(',')[0]!.split(': ')[1]!);
}

describe('one reading of the system’s file errors', () => {
  it.skipIf(!mountable)(
    'a file held by another program (EBUSY): open elsewhere, perhaps in Excel',
    async () => {
      const dir = await trouble.freshDir();
      const path = await busyFile(dir);
      await writeFile(join(dir, 'new.csv'), 'y');
      const e = await failure(() => rename(join(dir, 'new.csv'), path));
      expect(e.code).toBe('EBUSY');
      const s = said(e);
      expect(s.import).toBe(
        'it is open in another program, perhaps Excel; close it there, then import it again',
      );
      expect(s.export).toBe(
        'The file is open in another program, perhaps Excel, so Portolan could not replace it. No file was written. Close it there and try again.',
      );
      expect(s.data.kind).toBe('StorageLocked');
      expect(s.data.message).toMatch(/^Another program is holding one of Portolan's data files/);
      for (const text of [s.import, s.export, s.data.message]) expectNoSystemText(text, e);
      // The system's own words stay, as the detail.
      expect(s.data.detail).toBe(e.message);
      expect(exportFileError(e, { canChooseFolder: true })?.error.details.detail).toBe(e.message);
      expect(unreadableFile(e)?.detail).toBe(e.message);
    },
  );

  it('a file or folder that is not there, a folder in place of a file, a name too long', async () => {
    const dir = await trouble.freshDir();
    await writeFile(join(dir, 'a file'), 'x');
    const gone = await failure(() => readFile(join(dir, 'moved.csv')));
    const notDir = await failure(() => readFile(join(dir, 'a file', 'steel.csv')));
    const isDir = await failure(() => readFile(dir));
    const tooLong = await failure(() => writeFile(join(dir, `${'n'.repeat(300)}.csv`), 'x'));
    expect([gone.code, notDir.code, isDir.code, tooLong.code]).toEqual([
      'ENOENT',
      'ENOTDIR',
      'EISDIR',
      'ENAMETOOLONG',
    ]);
    expect(said(gone).import).toMatch(/^the file is no longer where it was chosen/);
    expect(said(gone).export).toBe(
      'The folder is no longer there (it was moved, renamed or deleted). No file was written. Choose another folder, then export again.',
    );
    expect(said(notDir).export).toMatch(/^The folder is no longer there \(it was moved or renamed\)/);
    expect(said(isDir).import).toBe('it is a folder, not a file');
    expect(said(isDir).export).toBe(
      'There is a folder of that name where the file would go. No file was written. Choose another name, then export again.',
    );
    expect(said(tooLong).import).toMatch(/^its name, with its folders, is too long for this computer/);
    expect(said(tooLong).export).toMatch(/^The file name, with its folders, is too long for this computer/);
    for (const e of [gone, notDir, isDir, tooLong]) {
      expectNoSystemText(said(e).import, e);
      expectNoSystemText(said(e).export, e);
    }
  });

  it('a full disk (ENOSPC): the same words wherever it is met', async () => {
    const e = await failure(() => writeFileSync('/dev/full', 'x'));
    expect(e.code).toBe('ENOSPC');
    const s = said(e);
    expect(s.export).toBe(
      'The disk is full. No file was written. Free some space or choose another place, then export again.',
    );
    expect(s.import).toMatch(/^the disk that holds Portolan's data is full/);
    expect(s.data).toMatchObject({ kind: 'DiskFull', detail: e.message });
    expect(s.data.message).toMatch(/^The disk is full: Portolan could not save to its library/);
  });

  it.skipIf(!canFreezeLibrary)('a folder that refuses writes (EPERM, even to root)', async () => {
    const dir = await trouble.freshDir();
    freezeLibrary(dir);
    trouble.later(() => thawLibrary(dir));
    const e = await failure(() => writeFile(join(dir, 'steel.csv'), 'x'));
    expect(e.code).toBe('EPERM');
    const s = said(e);
    expect(s.export).toBe(
      'Portolan may not write to that folder (it is read-only, or its permissions deny it), or the file is open in another program. No file was written. Choose another folder, then export again.',
    );
    expect(s.data.kind).toBe('Forbidden');
    expect(s.data.message).toMatch(/^Portolan may not write to its data folder/);
    expect(s.data.detail).toBe(e.message);
    expectNoSystemText(s.export, e);
  });

  // A write-only kernel setting refuses reading even to root, as a file without read permission does.
  const unreadable = ['/sys/bus/pci/rescan', '/sys/kernel/mm/ksm/run', '/sys/power/wakeup_count'].find(
    (p) => {
      try {
        closeSync(openSync(p, 'r'));
        return false;
      } catch (e) {
        return (e as NodeJS.ErrnoException).code === 'EACCES';
      }
    },
  );
  it.skipIf(unreadable === undefined)('a file Portolan may not read (EACCES)', async () => {
    const e = await failure(() => readFile(unreadable!));
    expect(e.code).toBe('EACCES');
    const s = said(e);
    expect(s.import).toBe(
      'Portolan is not allowed to read it (its permissions deny it, or another program holds it locked); close it in other programs, or copy it to a folder on this computer (such as Documents) and import the copy',
    );
    expect(s.export).toMatch(/^Portolan may not write to that folder/);
    expect(s.data.kind).toBe('Forbidden');
    expect(s.data.detail).toBe(e.message);
    expectNoSystemText(s.import, e);
  });

  it.skipIf(!mountable)('a read-only disk (EROFS)', async () => {
    const dir = await trouble.freshDir();
    const disk = join(dir, 'read-only disk');
    await mkdir(disk);
    trouble.mount(['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', disk]);
    const e = await failure(() => writeFile(join(disk, 'steel.csv'), 'x'));
    expect(e.code).toBe('EROFS');
    const s = said(e);
    expect(s.export).toBe(
      'That folder is on a disk that cannot be written to (it is read-only). No file was written. Choose another folder, then export again.',
    );
    expect(s.data.kind).toBe('Forbidden');
    expect(s.data.message).toMatch(/^Portolan's data folder is on a disk that cannot be written to/);
  });

  it('too many open files (EMFILE), met by a process with a low limit', () => {
    // The limit is the child's own (ulimit): this process keeps its files.
    const r = spawnSync(
      'sh',
      [
        '-c',
        `ulimit -n 40; exec "${process.execPath}" -e '
          const fs = require("fs"); const held = [];
          try { for (;;) held.push(fs.openSync(process.execPath, "r")); }
          catch (e) { process.stdout.write(JSON.stringify({ code: e.code, syscall: e.syscall, message: e.message })); }'`,
      ],
      { encoding: 'utf8' },
    );
    const seen = JSON.parse(r.stdout) as { code: string; syscall: string; message: string };
    expect(seen.code).toBe('EMFILE');
    const e = Object.assign(new Error(seen.message), { code: seen.code, syscall: seen.syscall });
    const s = said(e);
    expect(s.import).toBe(
      'too many files are open on this computer right now; close some programs, then import it again',
    );
    expect(s.export).toBe(
      'Too many files are open on this computer right now. No file was written. Close some programs, then try again.',
    );
    expect(s.data.message).toBe(
      'Too many files are open on this computer right now. Close some programs, then try again.',
    );
  });
});

describe('an export meeting the system’s refusal', () => {
  it.skipIf(!mountable)(
    'replacing a file another program holds: said as such, the system’s text as the detail, the file untouched',
    async () => {
      const dir = await trouble.freshDir();
      const out = join(dir, 'out');
      await mkdir(out);
      const path = await busyFile(out);
      const done = await (await trouble.exporter(dir)).run(path, true);
      expect(done).toMatchObject({
        kind: 'export',
        outcome: 'failed',
        message:
          'The file is open in another program, perhaps Excel, so Portolan could not replace it. No file was written. Close it there and try again.',
      });
      expect(done.kind === 'export' && done.detail).toMatch(/^EBUSY: resource busy or locked, rename '/);
      // Closing it is what helps, not another folder.
      expect(done.kind === 'export' && done.anotherFolder).toBeFalsy();
      expect(await readFile(path, 'utf8')).toBe('x');
      expect((await readdir(out)).filter((f) => f.endsWith('.partial'))).toEqual([]);
    },
  );

  it.skipIf(!mountable)('a folder on a read-only disk: said so, another folder offered', async () => {
    const dir = await trouble.freshDir();
    const disk = join(dir, 'usb stick');
    await mkdir(disk);
    trouble.mount(['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', disk]);
    const done = await (await trouble.exporter(dir)).run(join(disk, 'steel.csv'));
    expect(done).toMatchObject({
      outcome: 'failed',
      message:
        'That folder is on a disk that cannot be written to (it is read-only). No file was written. Choose another folder, then export again.',
      anotherFolder: true,
    });
    expect(done.kind === 'export' && done.detail).toMatch(/^EROFS: read-only file system, open '/);
  });
});

describe('Portolan’s own data files', () => {
  it.skipIf(!canFreezeLibrary)(
    'a preset not saved because the data folder refuses writes: said in words',
    async () => {
      const dataDir = await trouble.freshDir();
      const call = trouble.handlers(dataDir, 'electron');
      expect((await call('presets.list')).ok).toBe(true);
      freezeLibrary(dataDir);
      trouble.later(() => thawLibrary(dataDir));
      const r = (await call('presets.save', {
        name: 'Steel',
        filter: { hs_codes: ['7208'] },
      })) as BridgeResult<unknown>;
      expect(r.ok).toBe(false);
      const error = (r as Extract<BridgeResult<unknown>, { ok: false }>).error;
      expect(error.kind).toBe('Forbidden');
      expect(error.message).toBe(
        'Portolan may not write to its data folder: the folder or its library file was made read-only, or its permissions changed. What was saved before is intact; make the folder writable again, then try again.',
      );
      expect(error.detail).toMatch(/^EPERM: operation not permitted, open '/);
    },
  );
});
