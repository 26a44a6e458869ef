// `npm start`: runs the desktop app with electron-vite. Where the Electron binary is missing
// (offline or locked-down machines, which cannot download it), says so in one line and opens
// the same window in the default browser through `relay ui` instead.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const dir = path.dirname(require.resolve('electron/package.json'));
    const pathFile = path.join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = path.join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (electronBinary()) {
  run(process.execPath, [require.resolve('electron-vite/bin/electron-vite.js'), 'dev', ...process.argv.slice(2)]);
} else {
  console.log('Electron is not installed on this machine (its binary could not be downloaded); opening Relay Desk in your browser with `relay ui` instead.');
  if (!existsSync('dist/cli/relay.js') || !existsSync('out/renderer/index.html')) {
    const build = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
    build.on('exit', (code) => (code === 0 ? run(process.execPath, ['dist/cli/relay.js', 'ui']) : process.exit(code ?? 1)));
  } else {
    run(process.execPath, ['dist/cli/relay.js', 'ui']);
  }
}
