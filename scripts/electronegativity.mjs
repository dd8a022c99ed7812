// Runs the Electronegativity scan over src/ and fails on any finding that is not in the reviewed
// allow-list (.electronegativity/allow-list.json). The tool itself exits 0 whatever it finds, so the
// SARIF report is what is judged here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const allowListPath = join(root, '.electronegativity', 'allow-list.json');
const tmp = mkdtempSync(join(tmpdir(), 'electronegativity-'));
const sarifPath = join(tmp, 'report.sarif');

try {
  const bin = join(
    root,
    'node_modules',
    '.bin',
    process.platform === 'win32' ? 'electronegativity.cmd' : 'electronegativity',
  );
  const run = spawnSync(bin, ['-i', join(root, 'src'), '-o', sarifPath], { cwd: root, encoding: 'utf8' });
  if (run.error) throw run.error;

  let sarif;
  try {
    sarif = JSON.parse(readFileSync(sarifPath, 'utf8'));
  } catch (e) {
    console.error('electronegativity produced no readable SARIF report:', e.message);
    console.error(run.stdout, run.stderr);
    process.exit(2);
  }

  const allow = JSON.parse(readFileSync(allowListPath, 'utf8')).entries ?? [];
  for (const e of allow) {
    if (!e.check || !e.file || !e.reason)
      throw new Error(`allow-list entry needs check, file and reason: ${JSON.stringify(e)}`);
  }
  const allowed = (check, file) => allow.some((e) => e.check === check && e.file === file);

  const findings = [];
  for (const r of sarif.runs ?? []) {
    for (const result of r.results ?? []) {
      const loc = result.locations?.[0]?.physicalLocation;
      const uri = loc?.artifactLocation?.uri ?? '';
      const file = relative(root, uri.startsWith('file://') ? new URL(uri).pathname : uri)
        .split('\\')
        .join('/');
      findings.push({
        check: result.ruleId,
        file,
        line: loc?.region?.startLine ?? 0,
        level: result.level,
        message: result.message?.text ?? '',
      });
    }
  }
  const unexpected = findings.filter((f) => !allowed(f.check, f.file));
  const unused = allow.filter((e) => !findings.some((f) => f.check === e.check && f.file === e.file));

  console.log(
    `electronegativity: ${findings.length} finding(s), ${findings.length - unexpected.length} allow-listed, ${unexpected.length} not allowed`,
  );
  for (const f of unexpected) console.log(`  ✗ ${f.check} ${f.file}:${f.line} [${f.level}] ${f.message}`);
  for (const e of unused) console.log(`  (allow-list entry no longer needed: ${e.check} ${e.file})`);
  process.exit(unexpected.length === 0 ? 0 : 1);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
