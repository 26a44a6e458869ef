// Whether the build (out/ and dist/cli) is older than what it is made from: `npm start` rebuilds
// then, so it never runs stale code after a `git pull`.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the build is made from, and what it makes. */
const SOURCES = ['src', 'package.json', 'package-lock.json', 'electron.vite.config.ts', 'tsconfig.json', 'tsconfig.node.json', 'tsconfig.web.json', 'scripts/build-cli.mjs', 'resources'];
const OUTPUTS = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'dist/cli/relay.js', 'dist/cli/relais.js'];

/** Newest modification time under `file` (a file or a folder), 0 when it does not exist. */
function newest(file) {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file shows only as its folder's change
  for (const name of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, name)));
  return latest;
}

/** Why the build in `root` must be redone, or null when it is up to date. */
export function staleBuild(root) {
  const missing = OUTPUTS.find((file) => !existsSync(path.join(root, file)));
  if (missing) return `${missing} is missing`;
  const built = Math.min(...OUTPUTS.map((file) => statSync(path.join(root, file)).mtimeMs));
  const changed = SOURCES.find((file) => newest(path.join(root, file)) > built);
  return changed ? `${changed} changed since the last build` : null;
}
