// Builds better-sqlite3 for this Node (the CLIs, `relay ui` and the tests use it). Its own
// install script is not run (package.json allowScripts): it would download headers from
// nodejs.org whenever no prebuilt binary can be fetched, which fails on a machine with no access
// to GitHub or nodejs.org, and on any machine with an empty HOME (no ~/.npmrc naming the headers).
// Here the build uses the headers installed beside this Node when there are any.
//
//   node scripts/native-node.mjs     (postinstall) build it unless a working build is there
//
// Order: a build already in place that loads → done; the prebuilt binary better-sqlite3
// publishes (prebuild-install, needs GitHub); a source build with node-gyp against, in order,
// $npm_config_nodedir, the headers of this Node's own installation (<prefix>/include/node), or
// headers node-gyp downloads.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const sqliteDir = path.join(root, 'node_modules', 'better-sqlite3');
const binary = path.join(sqliteDir, 'build', 'Release', 'better_sqlite3.node');

function say(message) {
  console.log(`native-node: ${message}`);
}

/** True when the build in place opens a database in this Node (a build for another ABI does not). */
function loads() {
  if (!existsSync(binary)) return false;
  const probe = spawnSync(process.execPath, ['-e', `new (require(${JSON.stringify(sqliteDir)}))(':memory:').close()`], { stdio: 'ignore', timeout: 30_000 });
  return probe.status === 0;
}

if (!existsSync(sqliteDir)) {
  say('better-sqlite3 is not installed; nothing to build.');
  process.exit(0);
}
if (loads()) {
  say('better-sqlite3 is already built for this Node.');
  process.exit(0);
}

const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const run = (command, args, timeout) => spawnSync(command, args, { cwd: sqliteDir, stdio: 'inherit', timeout, shell: process.platform === 'win32' }).status === 0;
/** node-gyp from node_modules, else the one npm ships with (what better-sqlite3's own script would use). */
function nodeGyp(args) {
  if (existsSync(bin('node-gyp'))) return run(bin('node-gyp'), args, 15 * 60_000);
  const npmCli = process.env.npm_execpath;
  const bundled = npmCli ? path.join(path.dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js') : null;
  return bundled !== null && existsSync(bundled) && run(process.execPath, [bundled, ...args], 15 * 60_000);
}

// A prebuilt binary, when GitHub answers (a short wait: offline it fails at once or hangs on DNS).
if (run(bin('prebuild-install'), [], 60_000) && loads()) {
  say('installed the prebuilt better-sqlite3 binary.');
  process.exit(0);
}

const prefix = path.resolve(path.dirname(process.execPath), '..');
const localHeaders = existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? prefix : null;
const nodedir = process.env.npm_config_nodedir || localHeaders;
say(nodedir ? `building better-sqlite3 from source against the Node headers in ${nodedir}…` : 'building better-sqlite3 from source (node-gyp downloads the Node headers)…');
if (nodeGyp(['rebuild', '--release', ...(nodedir ? [`--nodedir=${nodedir}`] : [])]) && loads()) {
  say('built better-sqlite3 for this Node.');
  process.exit(0);
}
say(
  'could not build better-sqlite3 (the database of Relay Desk). A source build needs python3, make and a C++ compiler ' +
    '(Debian: apt-get install -y python3 make g++) and the Node headers: installed with Node (<prefix>/include/node), ' +
    'named by npm_config_nodedir, or downloadable from nodejs.org. Then run `npm rebuild better-sqlite3 --foreground-scripts` or `node scripts/native-node.mjs`.',
);
process.exit(1);
