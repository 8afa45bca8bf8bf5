// Prints vitest's JSON report as one plain closing line, `vitest: N passed, N failed, N skipped`,
// and fails when the run executed no test at all.
import { readFileSync } from "node:fs";

const report = JSON.parse(readFileSync(process.argv[2] ?? ".tmp/vitest-report.json", "utf8"));
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
if (report.numTotalTests === 0 || report.numPassedTests === 0) {
  console.error("no test was executed");
  process.exit(1);
}
if (report.numFailedTests > 0 || !report.success) process.exit(1);
