// Builds better-sqlite3 for Electron's ABI into native/electron-v<abi>/better_sqlite3.node,
// beside the Node build that `npm install` leaves in node_modules (which the CLIs and the tests
// use). The app passes this file to better-sqlite3's `nativeBinding` option when it runs under
// Electron in development (src/engine/store/native.ts); packaged apps are rebuilt for Electron
// by electron-builder instead (electron-builder.yml: npmRebuild).
//
//   node scripts/native-electron.mjs               build it (fails loudly)
//   node scripts/native-electron.mjs --if-electron  postinstall: only when the Electron binary
//                                                   is installed, and never fail the install
//
// It first tries the prebuilt binary better-sqlite3 publishes for this Electron version
// (prebuild-install), then a source build against Electron's headers (node-gyp).
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const quiet = process.argv.includes('--if-electron');
const electronDir = path.join(root, 'node_modules', 'electron');
const sqliteDir = path.join(root, 'node_modules', 'better-sqlite3');

function done(message, code = 0) {
  console.log(`native-electron: ${message}`);
  process.exit(quiet ? 0 : code);
}

if (!existsSync(electronDir) || !existsSync(sqliteDir)) done('electron or better-sqlite3 is not installed; nothing to build.');
if (quiet && !existsSync(path.join(electronDir, 'path.txt'))) {
  done('the Electron binary is not installed here, so the Electron build of better-sqlite3 is not needed (the CLIs and tests use the Node build).');
}

const version = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version;
const abi = readFileSync(path.join(electronDir, 'abi_version'), 'utf8').trim();
const target = path.join(root, 'native', `electron-v${abi}`, 'better_sqlite3.node');
if (existsSync(target)) done(`${path.relative(root, target)} is already built for Electron ${version}.`);

// Work on a copy so the Node build in node_modules is never replaced.
const stage = path.join(root, 'native', `.stage-${abi}`, 'better-sqlite3');
rmSync(path.dirname(stage), { recursive: true, force: true });
cpSync(sqliteDir, stage, { recursive: true, filter: (source) => !source.startsWith(path.join(sqliteDir, 'build')) });

const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const run = (command, args) => spawnSync(command, args, { cwd: stage, stdio: 'inherit', timeout: 10 * 60_000, env: { ...process.env, npm_config_runtime: 'electron', npm_config_target: version } }).status === 0;

const built =
  run(bin('prebuild-install'), ['--runtime', 'electron', '--target', version, '--arch', process.arch, '--platform', process.platform, '--verbose']) ||
  run(bin('node-gyp'), ['rebuild', '--release', `--target=${version}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers']);
const output = path.join(stage, 'build', 'Release', 'better_sqlite3.node');
if (!built || !existsSync(output)) {
  rmSync(path.dirname(stage), { recursive: true, force: true });
  done(`could not build better-sqlite3 for Electron ${version} (ABI ${abi}): no prebuilt binary could be downloaded and the source build failed. The desktop app will report STORE_NATIVE_MODULE until \`npm run native:electron\` succeeds (it needs network access, python3, make and a C++ compiler).`, 1);
}
mkdirSync(path.dirname(target), { recursive: true });
copyFileSync(output, target);
rmSync(path.dirname(stage), { recursive: true, force: true });
done(`built ${path.relative(root, target)} for Electron ${version}.`);
