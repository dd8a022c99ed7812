// Runs the Electronegativity scan over src/ for the Electron version the app is built with, and fails on
// any finding that is not pinned in the reviewed allow-list (.electronegativity/allow-list.json). An
// entry allows exactly one finding: its check, its file, its line and that line's exact text. A new
// finding anywhere (a second openExternal in an allow-listed file included) fails, and so does an entry
// that no longer matches (the code moved or changed: review it again and pin it where it is now).
//
// The tool itself exits 0 whatever it finds, so the SARIF report is what is judged here. It also tries
// to fetch Electron's release list (its AVAILABLE_SECURITY_FIXES check), which these machines cannot
// reach: that check reports nothing offline, and Electron is upgraded deliberately in package.json.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Finding {
  check: string;
  /** Relative to the repository root, with forward slashes. */
  file: string;
  line: number;
  level: string;
  message: string;
}

export interface AllowEntry {
  check: string;
  file: string;
  line: number;
  /** The finding's line, trimmed, exactly as it reads in the file. */
  text: string;
  reason: string;
}

export interface Verdict {
  allowed: Finding[];
  unexpected: (Finding & { text: string })[];
  /** Entries that matched no finding: the code they were reviewed for moved or changed. */
  stale: AllowEntry[];
}

/** Checks the allow-list's shape; throws on an entry that does not pin a place, a text and a reason. */
export function parseAllowList(json: string): AllowEntry[] {
  const entries = (JSON.parse(json) as { entries?: unknown }).entries;
  if (!Array.isArray(entries)) throw new Error('the allow-list has no "entries" list');
  return entries.map((e: Partial<AllowEntry>) => {
    if (
      typeof e.check !== 'string' ||
      typeof e.file !== 'string' ||
      !Number.isInteger(e.line) ||
      typeof e.text !== 'string' ||
      typeof e.reason !== 'string' ||
      e.reason.trim().length < 20
    ) {
      throw new Error(`allow-list entry needs check, file, line, text and a reason: ${JSON.stringify(e)}`);
    }
    return e as AllowEntry;
  });
}

/**
 * Matches findings to entries one to one: an entry allows the finding of its check, in its file, at its
 * line, whose line reads exactly its text. `lineText` reads a line of a file (trimmed).
 */
export function judge(
  findings: readonly Finding[],
  entries: readonly AllowEntry[],
  lineText: (file: string, line: number) => string,
): Verdict {
  const unused = new Set(entries);
  const allowed: Finding[] = [];
  const unexpected: (Finding & { text: string })[] = [];
  for (const f of findings) {
    const text = lineText(f.file, f.line);
    const entry = [...unused].find(
      (e) => e.check === f.check && e.file === f.file && e.line === f.line && e.text === text,
    );
    if (entry) {
      unused.delete(entry);
      allowed.push(f);
    } else {
      unexpected.push({ ...f, text });
    }
  }
  return { allowed, unexpected, stale: [...unused] };
}

/** The Electron version the app is built with: the installed package, as package.json pins it. */
export function electronVersion(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  if (typeof pkg.version !== 'string' || !/^\d+\.\d+\.\d+/.test(pkg.version))
    throw new Error('node_modules/electron has no version');
  return pkg.version;
}

/**
 * Runs the scanner (installed under `root`) over `input` and returns its findings, with paths relative
 * to `relativeTo` (the repository root unless told).
 */
export function scan(root: string, input: string, version: string, relativeTo = root): Finding[] {
  const tmp = mkdtempSync(join(tmpdir(), 'electronegativity-'));
  const sarifPath = join(tmp, 'report.sarif');
  try {
    const bin = join(
      root,
      'node_modules',
      '.bin',
      process.platform === 'win32' ? 'electronegativity.cmd' : 'electronegativity',
    );
    const run = spawnSync(bin, ['-i', input, '-o', sarifPath, '-e', version], {
      cwd: root,
      encoding: 'utf8',
    });
    if (run.error) throw run.error;
    let sarif: {
      runs?: {
        results?: {
          ruleId: string;
          level?: string;
          message?: { text?: string };
          locations?: {
            physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number } };
          }[];
        }[];
      }[];
    };
    try {
      sarif = JSON.parse(readFileSync(sarifPath, 'utf8')) as typeof sarif;
    } catch (e) {
      throw new Error(
        `electronegativity produced no readable SARIF report (${(e as Error).message}): ${run.stdout} ${run.stderr}`,
      );
    }
    const findings: Finding[] = [];
    for (const r of sarif.runs ?? []) {
      for (const result of r.results ?? []) {
        const loc = result.locations?.[0]?.physicalLocation;
        const uri = loc?.artifactLocation?.uri ?? '';
        const file = relative(relativeTo, uri.startsWith('file://') ? new URL(uri).pathname : uri)
          .split('\\')
          .join('/');
        findings.push({
          check: result.ruleId,
          file,
          line: loc?.region?.startLine ?? 0,
          level: result.level ?? '',
          message: result.message?.text ?? '',
        });
      }
    }
    return findings;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A line of a file under `root`, trimmed ('' when there is none). */
export function lineReader(root: string): (file: string, line: number) => string {
  const cache = new Map<string, string[]>();
  return (file, line) => {
    let lines = cache.get(file);
    if (!lines) {
      try {
        lines = readFileSync(join(root, file), 'utf8').split('\n');
      } catch {
        lines = [];
      }
      cache.set(file, lines);
    }
    return (lines[line - 1] ?? '').trim();
  };
}

function main(): number {
  const root = resolve(import.meta.dirname, '..');
  const version = electronVersion(root);
  const entries = parseAllowList(readFileSync(join(root, '.electronegativity', 'allow-list.json'), 'utf8'));
  const findings = scan(root, join(root, 'src'), version);
  const verdict = judge(findings, entries, lineReader(root));
  console.log(
    `electronegativity (Electron ${version}): ${findings.length} finding(s), ${verdict.allowed.length} pinned in the allow-list, ` +
      `${verdict.unexpected.length} not allowed, ${verdict.stale.length} stale allow-list entr${verdict.stale.length === 1 ? 'y' : 'ies'}`,
  );
  for (const f of verdict.unexpected)
    console.log(`  ✗ ${f.check} ${f.file}:${f.line} [${f.level}] ${f.message}\n      ${f.text}`);
  for (const e of verdict.stale)
    console.log(`  ✗ allow-list entry matches nothing any more: ${e.check} ${e.file}:${e.line} "${e.text}"`);
  return verdict.unexpected.length === 0 && verdict.stale.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(main());
