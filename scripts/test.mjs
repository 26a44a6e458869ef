// The whole test suite in one command: build, typecheck, lint, then every vitest test
// (unit, integration, end to end). It ends with one line `N passed, N failed` holding the
// true counts, which is what CI reads. Extra arguments go to vitest (e.g. a file filter);
// with a filter the build/typecheck/lint checks are skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const extra = process.argv.slice(2);
const filtered = extra.length > 0;
const resultsFile = '.vitest-results.json';
let passed = 0;
let failed = 0;

function step(name, command, args) {
  console.log(`\n▶ ${name}: ${[command, ...args].join(' ')}`);
  const run = spawnSync(command, args, { stdio: 'inherit' });
  const ok = run.status === 0;
  console.log(ok ? `✔ ${name}` : `✘ ${name} (exit ${run.status ?? run.signal})`);
  if (ok) passed += 1;
  else failed += 1;
  return ok;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
if (!filtered) {
  step('build', npm, ['run', '--silent', 'build']);
  step('typecheck', npm, ['run', '--silent', 'typecheck']);
  step('lint', npm, ['run', '--silent', 'lint']);
} else if (!existsSync('dist/cli/relay.js') || !existsSync('out/renderer/index.html')) {
  step('build', npm, ['run', '--silent', 'build']);
}

rmSync(resultsFile, { force: true });
console.log('\n▶ vitest');
spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`, ...extra],
  { stdio: 'inherit' },
);

if (existsSync(resultsFile)) {
  const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A test file that fails to load has no failed tests of its own; count it once.
  for (const file of report.testResults) {
    if (file.status === 'failed' && file.assertionResults.every((t) => t.status !== 'failed')) failed += 1;
  }
} else {
  console.log('vitest wrote no results file: counting the test run as one failure');
  failed += 1;
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
