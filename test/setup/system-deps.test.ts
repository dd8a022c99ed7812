import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir';

const run = promisify(execFile);
const script = resolve(import.meta.dirname, '../../scripts/system-deps.sh');

/**
 * The script decides from what dpkg, id, sudo and apt-get answer. This machine has all of them and is
 * root, so each situation of a fresh or locked-down machine gets a PATH of its own holding only stand-ins
 * that answer as that machine would and record how they were called.
 */
function fakeBin(dir: string, tools: Record<string, string>): string {
  for (const [name, body] of Object.entries(tools)) {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/bash\n${body}\n`);
    chmodSync(path, 0o755);
  }
  return dir;
}

async function systemDeps(profile: string, bin: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run('/bin/bash', [script, profile], { env: { PATH: bin } });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

// Installed: everything but the named packages.
const dpkgWithout = (...missing: string[]) =>
  `case " ${missing.join(' ')} " in *" $3 "*) exit 1;; *) echo -n installed;; esac`;

describe('system packages set-up (scripts/system-deps.sh)', () => {
  const tmp = useTempDir('portolan-system-deps-');

  it('does nothing and succeeds when every package is there', async () => {
    const bin = fakeBin(tmp.dir, { 'dpkg-query': dpkgWithout(), id: 'echo 1000' });
    expect(await systemDeps('test', bin)).toEqual({ code: 0, out: '' });
  });

  it('installs only what is missing, as root through apt-get, after one update, saying why', async () => {
    const log = join(tmp.dir, 'apt.log');
    const bin = fakeBin(tmp.dir, {
      'dpkg-query': dpkgWithout('libsecret-1-dev', 'chromium'),
      id: 'echo 0',
      'apt-get': `echo "$*" >> ${log}`,
    });
    const { code, out } = await systemDeps('test', bin);
    expect(code).toBe(0);
    expect(out).toContain('libsecret-1-dev: keytar (the keychain module) is built against libsecret');
    expect(out).toContain('chromium: the end-to-end tests drive the app in Chromium');
    expect(out).toContain('Installed: libsecret-1-dev chromium');
    // Both wait for dpkg's lock (another package run may hold it) rather than fail at once.
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      '-o DPkg::Lock::Timeout=600 update -qq',
      '-o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends libsecret-1-dev chromium',
    ]);
  });

  it('the app profile leaves the test-only packages alone', async () => {
    const log = join(tmp.dir, 'apt.log');
    const bin = fakeBin(tmp.dir, {
      'dpkg-query': dpkgWithout('gnome-keyring', 'chromium', 'libreoffice-calc-nogui'),
      id: 'echo 0',
      'apt-get': `echo "$*" >> ${log}`,
    });
    expect((await systemDeps('app', bin)).code).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain('--no-install-recommends gnome-keyring\n');
  });

  it('uses sudo when not root and sudo needs no password', async () => {
    const log = join(tmp.dir, 'sudo.log');
    const bin = fakeBin(tmp.dir, {
      'dpkg-query': dpkgWithout('gnome-keyring'),
      id: 'echo 1000',
      'apt-get': 'exit 0',
      sudo: `echo "$*" >> ${log}`,
    });
    expect((await systemDeps('app', bin)).code).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain(
      '-n apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends gnome-keyring',
    );
  });

  it('without root or sudo it says what to install and fails, so npm start can go on without it', async () => {
    const bin = fakeBin(tmp.dir, {
      'dpkg-query': dpkgWithout('libsecret-1-dev'),
      id: 'echo 1000',
      'apt-get': 'exit 0',
    });
    const { code, out } = await systemDeps('app', bin);
    expect(code).toBe(1);
    expect(out).toContain('Installing them needs root, and sudo is not available.');
    expect(out).toContain('sudo apt-get install libsecret-1-dev');
  });

  it('a sudo that would ask for a password with no terminal to ask on is a refusal, not a hang', async () => {
    const bin = fakeBin(tmp.dir, {
      'dpkg-query': dpkgWithout('libsecret-1-dev'),
      id: 'echo 1000',
      'apt-get': 'exit 0',
      sudo: '[ "$1" = "-n" ] && exit 1; sleep 60',
    });
    const { code, out } = await systemDeps('app', bin);
    expect(code).toBe(1);
    expect(out).toContain('no terminal to ask on');
  });

  it('without apt-get (another distribution) it names the packages and fails', async () => {
    const bin = fakeBin(tmp.dir, { 'dpkg-query': dpkgWithout('gnome-keyring'), id: 'echo 0' });
    const { code, out } = await systemDeps('app', bin);
    expect(code).toBe(1);
    expect(out).toContain('This machine has no apt-get');
  });

  it('a failing apt-get is reported, not taken for success', async () => {
    const bin = fakeBin(tmp.dir, {
      'dpkg-query': dpkgWithout('chromium'),
      id: 'echo 0',
      'apt-get': 'case " $* " in *" update "*) exit 0 ;; esac; exit 100',
    });
    const { code, out } = await systemDeps('test', bin);
    expect(code).toBe(1);
    expect(out).toContain('apt-get install failed.');
  });

  it('a font for Chinese, Japanese and Korean counts as there when any installed font covers them, whatever its package', async () => {
    const log = join(tmp.dir, 'apt.log');
    const bin = fakeBin(tmp.dir, {
      'dpkg-query': dpkgWithout('fonts-wqy-microhei'),
      // fontconfig knows a CJK font another package brought (Noto CJK here).
      'fc-list': '[ "$1" = ":lang=zh" ] && echo "Noto Sans CJK SC"; exit 0',
      id: 'echo 0',
      'apt-get': `echo "$*" >> ${log}`,
    });
    expect(await systemDeps('app', bin)).toEqual({ code: 0, out: '' });
    expect(existsSync(log)).toBe(false);
  });

  it('without any font for Chinese, Japanese and Korean it installs one, saying why', async () => {
    const log = join(tmp.dir, 'apt.log');
    const bin = fakeBin(tmp.dir, {
      'dpkg-query': dpkgWithout('fonts-wqy-microhei'),
      'fc-list': 'exit 0',
      id: 'echo 0',
      'apt-get': `echo "$*" >> ${log}`,
    });
    const { code, out } = await systemDeps('app', bin);
    expect(code).toBe(0);
    expect(out).toContain('fonts-wqy-microhei: Chinese, Japanese and Korean names');
    expect(readFileSync(log, 'utf8')).toContain('--no-install-recommends fonts-wqy-microhei\n');
  });
});
