import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  electronVersion,
  judge,
  lineReader,
  parseAllowList,
  scan,
  type AllowEntry,
  type Finding,
} from '../../scripts/electronegativity';

const root = resolve(import.meta.dirname, '../..');
const allowListPath = join(root, '.electronegativity', 'allow-list.json');

const finding = (over: Partial<Finding> = {}): Finding => ({
  check: 'OPEN_EXTERNAL_JS_CHECK',
  file: 'src/main/shell/main-window.ts',
  line: 10,
  level: 'warning',
  message: 'Review the use of openExternal',
  ...over,
});
const entry = (over: Partial<AllowEntry> = {}): AllowEntry => ({
  check: 'OPEN_EXTERNAL_JS_CHECK',
  file: 'src/main/shell/main-window.ts',
  line: 10,
  text: 'void shell.openExternal(HELP_URL);',
  reason: 'a reviewed call that opens the fixed help address',
  ...over,
});

describe('electronegativity gate', () => {
  const lines: Record<string, string> = {
    'src/main/shell/main-window.ts:10': 'void shell.openExternal(HELP_URL);',
    'src/main/shell/main-window.ts:40': 'void shell.openExternal(url);',
    'src/main/shell/menu.ts:10': 'void shell.openExternal(HELP_URL);',
  };
  const read = (file: string, line: number) => lines[`${file}:${line}`] ?? '';

  it('allows a finding pinned by check, file, line and text', () => {
    const v = judge([finding()], [entry()], read);
    expect(v.allowed).toHaveLength(1);
    expect(v.unexpected).toEqual([]);
    expect(v.stale).toEqual([]);
  });

  it('refuses new openExternal calls in an allow-listed file, and the same text elsewhere', () => {
    const v = judge(
      [finding(), finding({ line: 40 }), finding({ file: 'src/main/shell/menu.ts' })],
      [entry()],
      read,
    );
    expect(v.allowed).toHaveLength(1);
    expect(v.unexpected.map((f) => `${f.file}:${f.line}`)).toEqual([
      'src/main/shell/main-window.ts:40',
      'src/main/shell/menu.ts:10',
    ]);
  });

  it('an entry allows one finding only, and only while its line reads the same', () => {
    const twice = judge([finding(), finding()], [entry()], read);
    expect(twice.unexpected).toHaveLength(1);
    const changed = judge([finding()], [entry()], () => 'void shell.openExternal(somethingElse);');
    expect(changed.unexpected).toHaveLength(1);
    expect(changed.stale).toHaveLength(1);
  });

  it('reports an entry that matches nothing any more (the code moved or went)', () => {
    const moved = judge([finding({ line: 11 })], [entry()], () => 'void shell.openExternal(HELP_URL);');
    expect(moved.unexpected).toHaveLength(1);
    expect(moved.stale).toEqual([entry()]);
  });

  it('refuses an allow-list entry without a place, a text or a reason', () => {
    expect(() =>
      parseAllowList(JSON.stringify({ entries: [{ check: 'X', file: 'a.ts', reason: 'r' }] })),
    ).toThrow(/needs check, file, line, text and a reason/);
    expect(() => parseAllowList(JSON.stringify({ entries: [{ ...entry(), reason: 'ok' }] }))).toThrow();
    expect(parseAllowList(JSON.stringify({ entries: [entry()] }))).toEqual([entry()]);
  });
});

describe('electronegativity scan', () => {
  it('scans for the installed Electron version', () => {
    // package.json pins the exact version the scan assumes.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(electronVersion(root)).toBe(pkg.devDependencies['electron']);
  });

  it('the sources have no finding that is not pinned, and no stale pin', async () => {
    const entries = parseAllowList(await readFile(allowListPath, 'utf8'));
    const verdict = judge(scan(root, join(root, 'src'), electronVersion(root)), entries, lineReader(root));
    expect(verdict.unexpected).toEqual([]);
    expect(verdict.stale).toEqual([]);
    expect(verdict.allowed).toHaveLength(entries.length);
  }, 120_000);

  it('a new openExternal call in an allow-listed file fails the gate', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'electronegativity-case-'));
    try {
      const file = 'src/main/shell/main-window.ts';
      const source = await readFile(join(root, file), 'utf8');
      await mkdir(dirname(join(copy, file)), { recursive: true });
      await writeFile(
        join(copy, file),
        `${source}\nexport function openLink(shell: { openExternal(u: string): Promise<void> }, url: string) {\n  void shell.openExternal(url);\n}\n`,
      );
      const entries = parseAllowList(await readFile(allowListPath, 'utf8'));
      const verdict = judge(
        scan(root, join(copy, 'src'), electronVersion(root), copy),
        entries,
        lineReader(copy),
      );
      const inFile = verdict.unexpected.filter((f) => f.file === file);
      expect(inFile.map((f) => [f.check, f.text])).toEqual([
        ['OPEN_EXTERNAL_JS_CHECK', 'void shell.openExternal(url);'],
      ]);
      // The copy has no CSP and no permission handler: the scan's global checks say so, and fail too.
      expect(verdict.unexpected.map((f) => f.check)).toEqual(
        expect.arrayContaining(['CSP_GLOBAL_CHECK', 'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK']),
      );
      // The pinned preload finding of the same file is still allowed.
      expect(verdict.allowed.map((f) => f.check)).toEqual(['PRELOAD_JS_CHECK']);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }, 120_000);
});
