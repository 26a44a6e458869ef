// The whole test suite in one command: build, typecheck, lint, then every vitest test
// (unit, integration, end to end). It ends with one line `N passed, N failed` holding the
// true counts, which is what CI reads. Extra arguments go to vitest (e.g. a file filter);
// with a filter the build/typecheck/lint checks are skipped.
//
// First it makes sure the machine has what the tests drive for real: a Chromium for the browser
// tests, Xvfb for the clipboard tests, xsel for clipboard writes, and util-linux's `script` for
// the terminal tests. Missing ones are installed with apt-get where that is possible without a
// password (as root, or with passwordless sudo); otherwise the run stops at once with the exact
// command to run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const extra = process.argv.slice(2);
const filtered = extra.length > 0;
const resultsFile = '.vitest-results.json';
let passed = 0;
let failed = 0;

function onPath(command) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));
}

/** A Chromium the browser tests can drive: CHROMIUM_PATH, Debian's or Ubuntu's, or Playwright's own download. */
function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH ?? path.join(os.homedir(), '.cache', 'ms-playwright');
  try {
    for (const dir of readdirSync(cache).filter((name) => name.startsWith('chromium')).sort().reverse()) {
      candidates.push(path.join(cache, dir, 'chrome-linux', 'chrome'), path.join(cache, dir, 'chrome-linux64', 'chrome'));
    }
  } catch {
    // no Playwright browsers downloaded
  }
  return candidates.find((file) => file && existsSync(file)) ?? null;
}

/** What the tests need from the system, with the Debian package that provides each. */
function missingTools() {
  if (process.platform !== 'linux') return [];
  const missing = [];
  if (!findChromium()) missing.push({ what: 'a Chromium for the browser tests', pkg: 'chromium' });
  if (!onPath('Xvfb')) missing.push({ what: 'Xvfb for the clipboard tests', pkg: 'xvfb' });
  if (!onPath('xsel')) missing.push({ what: 'xsel to write the clipboard', pkg: 'xsel' });
  if (!onPath('script')) missing.push({ what: "util-linux's script for the terminal tests", pkg: 'bsdutils' });
  return missing;
}

function canInstall() {
  if (!onPath('apt-get')) return null;
  if (typeof process.getuid === 'function' && process.getuid() === 0) return [];
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo', '-n'];
  return null;
}

function ensureTools() {
  const missing = missingTools();
  if (missing.length === 0) return true;
  const packages = missing.map((m) => m.pkg);
  const command = `sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  const prefix = canInstall();
  if (prefix === null) {
    const say = `The tests need ${missing.map((m) => m.what).join(', ')}. Install ${packages.length === 1 ? 'it' : 'them'} with:\n    ${command}\n  (or set CHROMIUM_PATH to a Chromium you already have)`;
    // A filtered run may not need them: it goes on, and a test that does fails with the same fix.
    if (filtered) {
      console.error(`! ${say}.`);
      return true;
    }
    console.error(`✘ ${say}, then run \`npm test\` again.`);
    return false;
  }
  console.log(`▶ installing what the tests need: ${packages.join(' ')} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => {
    const [command, ...rest] = [...prefix, 'apt-get', ...args];
    return spawnSync(command, rest, { stdio: 'inherit', env }).status === 0;
  };
  if (!apt(['update', '-qq']) || !apt(['install', '-y', '-qq', '--no-install-recommends', ...packages])) {
    console.error(`✘ apt-get could not install ${packages.join(' ')}; install them yourself:\n    ${command}`);
    return false;
  }
  const still = missingTools();
  if (still.length > 0) {
    console.error(`✘ Still missing after apt-get: ${still.map((m) => m.what).join(', ')}.`);
    return false;
  }
  return true;
}

if (!ensureTools()) {
  // Counted as one failure, so CI's closing line says the run did not pass.
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}
const chromium = findChromium();
const testEnv = chromium && !process.env.CHROMIUM_PATH ? { ...process.env, CHROMIUM_PATH: chromium } : process.env;

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
  { stdio: 'inherit', env: testEnv },
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
