// `npm run dist` (after the build): electron-builder for the current OS, without breaking the
// CLIs and the tests afterwards. electron-builder rebuilds native modules for Electron's ABI in
// place, in the project's own node_modules (electron-builder.yml: npmRebuild); the Node build of
// better-sqlite3 that `relay`, `relais` and the tests load would be gone until
// `npm rebuild better-sqlite3`. So the Node build is copied aside first and put back after
// (with the rebuild's marker), whether packaging succeeded or not. Extra arguments go to electron-builder.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Runs `run`, then puts each of `files` back as it was before: the same content when it
 * existed, gone when it did not.
 */
export function keepingFiles(files, run) {
  const saved = mkdtempSync(path.join(os.tmpdir(), 'relay-dist-'));
  const before = files.map((file, i) => {
    if (!existsSync(file)) return { file, copy: null };
    const copy = path.join(saved, `${i}-${path.basename(file)}`);
    copyFileSync(file, copy);
    return { file, copy };
  });
  try {
    return run();
  } finally {
    for (const { file, copy } of before) {
      if (copy) copyFileSync(copy, file);
      else rmSync(file, { force: true });
    }
    rmSync(saved, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const require = createRequire(import.meta.url);
  const root = path.resolve(import.meta.dirname, '..');
  const release = path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release');
  // .forge-meta is @electron/rebuild's "already built for this ABI" marker: left behind, the
  // next `npm run dist` would skip the rebuild and package the Node build.
  const status = keepingFiles([path.join(release, 'better_sqlite3.node'), path.join(release, '.forge-meta')], () => spawnSync(process.execPath, [require.resolve('electron-builder/cli.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' }).status);
  process.exit(status ?? 1);
}
