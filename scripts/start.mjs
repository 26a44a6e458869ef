// `npm start`: runs the desktop app with electron-vite. Where the Electron binary is missing
// (offline or locked-down machines, which cannot download it), says so in one line and opens
// the same window in the default browser through `relay ui` instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { electronBinary } from './electron-binary.mjs';

const require = createRequire(import.meta.url);

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  // Ctrl+C reaches the child from the terminal itself; wait for it to shut down cleanly.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
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
