// `npm start`: opens the desktop app, built and with its production Content-Security-Policy.
// 1. Builds first when any source is newer than the build (never runs stale code after a pull).
// 2. Installs the Electron binary with Electron's own installer when it is missing (electron 45
//    downloads it only through `install-electron`, which npm install does not run), showing how
//    much has arrived, and giving up when nothing arrives for a while.
// 3. Starts the built app (`electron-vite preview`, not the dev server: `npm run dev` has hot
//    reload). Where Electron cannot be installed or cannot show a window, it says why in one line
//    and opens the same window in the browser through `relay ui` instead.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { electronBinary } from './electron-binary.mjs';
import { staleBuild } from './build-state.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Give up on the installer when no byte of the download has arrived for this long. */
const STALL_MS = Number(process.env.RELAY_ELECTRON_INSTALL_STALL_MS ?? 20_000);

function build() {
  const why = staleBuild(ROOT);
  if (!why) return true;
  console.log(`Building Relay Desk (${why})…`);
  const run = spawnSync(npm, ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (run.status === 0) return true;
  console.error(`✘ The build failed (exit ${run.status ?? run.signal}); see above.`);
  return false;
}

/** Where the installer downloads from (the same settings @electron/get reads). */
function downloadUrl() {
  const { version } = require('electron/package.json');
  const mirror = process.env.ELECTRON_MIRROR ?? process.env.npm_config_electron_mirror ?? 'https://github.com/electron/electron/releases/download/';
  const arch = process.env.ELECTRON_INSTALL_ARCH ?? process.arch;
  return `${mirror.endsWith('/') ? mirror : `${mirror}/`}v${version}/electron-v${version}-${process.platform}-${arch}.zip`;
}

/** Asks the download host directly, to say in words why the installer could not download. */
async function diagnose(url) {
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    return response.status >= 400 ? `${host} answered ${response.status} for ${url}` : null;
  } catch (error) {
    const cause = error.cause ?? error;
    if (error.name === 'TimeoutError') return `no answer from ${host} within 5 s`;
    return `cannot reach ${host} (${cause.message ?? cause.code ?? String(error)})`;
  }
}

/** Size of the download so far: the installer writes it into a folder of its TMPDIR. */
function downloadedBytes(tmp) {
  let total = 0;
  for (const folder of readdirSync(tmp)) {
    const dir = path.join(tmp, folder);
    try {
      for (const file of readdirSync(dir)) total += statSync(path.join(dir, file)).size;
    } catch {
      // not a folder, or gone meanwhile
    }
  }
  return total;
}

/** Runs Electron's own installer; resolves to null when it worked, else to the reason in words. */
async function installElectron() {
  const installer = require.resolve('electron/install.js');
  const url = downloadUrl();
  console.log(`Installing Electron with its installer (install-electron, from ${new URL(url).host}; about 100 MB, once)…`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'relay-electron-install-'));
  const child = spawn(process.execPath, [installer], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp, TEMP: tmp, TMP: tmp, ELECTRON_GET_NO_PROGRESS: '1' }, stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk.toString()).slice(-8_000)));
  let lastBytes = 0;
  let lastTens = 0;
  let lastChange = Date.now();
  let stalled = false;
  const tty = process.stdout.isTTY;
  const timer = setInterval(() => {
    const bytes = downloadedBytes(tmp);
    if (bytes !== lastBytes) {
      lastBytes = bytes;
      lastChange = Date.now();
      const line = `  downloaded ${(bytes / 1_048_576).toFixed(1)} MB`;
      if (tty) process.stdout.write(`\r${line}`);
      else if (Math.floor(bytes / 10_485_760) > lastTens) {
        lastTens = Math.floor(bytes / 10_485_760);
        console.log(line);
      }
    } else if (Date.now() - lastChange > STALL_MS) {
      stalled = true;
      child.kill('SIGTERM');
    }
  }, 500);
  const code = await new Promise((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
  clearInterval(timer);
  if (tty && lastBytes > 0) process.stdout.write('\n');
  rmSync(tmp, { recursive: true, force: true });
  if (code === 0 && electronBinary()) return null;
  if (stalled) return `the download stalled: nothing arrived from ${new URL(url).host} for ${Math.round(STALL_MS / 1000)} s`;
  const network = await diagnose(url);
  if (network) return network;
  const said = stderr.split('\n').map((line) => line.trim()).find((line) => /^\w*Error\b|^Error:/.test(line));
  return `install-electron failed (exit ${code})${said ? `: ${said}` : ''}`;
}

function hasDisplay() {
  return process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function run(command, args) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  // Ctrl+C reaches the child from the terminal itself; wait for it to shut down cleanly.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function openInBrowser(why) {
  console.log(`Electron cannot open the desktop app here: ${why}. Opening Relay Desk in your browser with \`relay ui\` instead.`);
  run(process.execPath, [path.join(ROOT, 'dist/cli/relay.js'), 'ui', ...process.argv.slice(2)]);
}

let why = null;
if (!electronBinary()) {
  // Without a display there is no window to show: no point in downloading Electron for it.
  why = hasDisplay() ? await installElectron() : 'no display (DISPLAY and WAYLAND_DISPLAY are unset)';
} else if (!hasDisplay()) {
  why = 'no display (DISPLAY and WAYLAND_DISPLAY are unset)';
}
if (!build()) process.exit(1);
if (why) openInBrowser(why);
else {
  const { version } = require('electron/package.json');
  console.log(`Starting Relay Desk (Electron ${version}, the built app)…`);
  run(process.execPath, [require.resolve('electron-vite/bin/electron-vite.js'), 'preview', '--skipBuild', ...process.argv.slice(2)]);
}
