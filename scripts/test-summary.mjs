// The last line of `npm test`: the tests of every lane, counted from vitest's JSON reports.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let files = 0;
for (const project of ["workers", "node", "e2e"]) {
  const file = path.join(dir, `${project}.json`);
  if (!existsSync(file)) {
    console.log(`${project}: no report (the lane stopped before its tests ran)`);
    failed++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  console.log(`${project}: ${report.testResults.length} files, ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  files += report.testResults.length;
}
console.log(`tests: ${passed} passed, ${failed} failed in ${files} files`);
process.exit(failed === 0 ? 0 : 1);
