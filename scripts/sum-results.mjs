// Sums vitest JSON reports into the one closing line CI reads: "N passed, N failed[, N skipped]".
// A missing or unreadable report counts as a failed suite, so a crash can never look green.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A suite that failed to load has no failed tests but must still fail the run.
    if ((report.numFailedTestSuites ?? 0) > 0 && (report.numFailedTests ?? 0) === 0)
      failed += report.numFailedTestSuites;
    if ((report.numTotalTests ?? 0) === 0) {
      console.error(`${file}: ran no test`);
      failed += 1;
    }
  } catch {
    console.error(`${file}: no report (the suite did not run to completion)`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
