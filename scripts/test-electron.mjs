// `npm run test:electron`: launches the built app with Playwright's _electron and runs the smoke
// test (window, IPC round trip, a patch through the real Electron clipboard). Where the Electron
// binary is absent it says so plainly and exits non-zero: nothing claims it ran.
import { spawnSync } from 'node:child_process';
import { electronBinary } from './electron-binary.mjs';

const binary = electronBinary();
if (!binary) {
  console.error('test:electron did NOT run: the Electron binary is not installed on this machine (it could not be downloaded). Install it with `npx install-electron` where the network allows, then run `npm run test:electron` again.');
  process.exit(1);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', '--silent', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.electron.config.ts'], { stdio: 'inherit', env: { ...process.env, ELECTRON_BINARY: binary } });
process.exit(run.status ?? 1);
