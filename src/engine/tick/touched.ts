import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { resolveInsideRoot } from '../fs/safe-path.js';
import { diffAgainst, patchAgainst } from '../git/diff.js';
import { status } from '../git/status.js';
import { countLines, newFilePatch, type TouchedFile } from './blast.js';

/**
 * An untracked file's bytes as git would show them: a symlink is its target path (never the file
 * it points to, which may be outside the repository), and the path goes through the chokepoint.
 */
function readUntracked(root: string, rel: string): Buffer {
  const where = resolveInsideRoot(root, rel, { purpose: 'cleanup' });
  if (!where.ok) throw new Error(where.error.message);
  if (lstatSync(where.value.absolute).isSymbolicLink()) return Buffer.from(readlinkSync(where.value.absolute));
  return readFileSync(where.value.absolute);
}

/**
 * The touched set from git reality: tracked files that differ from `base` in the work tree
 * (which covers commits the builder made on top of base as well as uncommitted edits), every
 * other path `git status` lists as changed, plus every untracked, non-ignored file, with its
 * lines counted as added.
 */
export async function collectTouched(root: string, base: string): Promise<TouchedFile[]> {
  const [tracked, entries] = await Promise.all([diffAgainst(root, base), status(root)]);
  const files: TouchedFile[] = tracked.map((t) => ({ path: t.path, change: t.change, added: t.added, deleted: t.deleted, binary: t.binary }));
  const seen = new Set(files.map((f) => f.path));
  for (const entry of entries) {
    if (entry.code !== '??') {
      // A change only the index (or a commit on top of base) holds: `git diff base` compares the
      // work tree and misses it (e.g. `git update-index --chmod=+x`, or `git add` then an undo in
      // the work tree), yet the tree is no longer clean. Touched, with no lines of its own.
      for (const p of [entry.path, ...(entry.from ? [entry.from] : [])]) {
        if (seen.has(p)) continue;
        seen.add(p);
        files.push({ path: p, change: entry.code[0] === 'A' ? 'added' : 'modified', added: 0, deleted: 0, binary: false });
      }
      continue;
    }
    if (seen.has(entry.path)) continue;
    let counted = { lines: 0, binary: false };
    try {
      counted = countLines(readUntracked(root, entry.path));
    } catch {
      // vanished or unreadable (a socket, a broken symlink): still touched, with no lines
    }
    files.push({ path: entry.path, change: 'untracked', added: counted.lines, deleted: 0, binary: counted.binary });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The tracked part of the tick's diff (may run while the touched set is being collected). */
export function trackedPatch(root: string, base: string): Promise<string> {
  return patchAgainst(root, base);
}

/** The tick's whole diff as one patch: tracked changes from git, then each new untracked file. */
export function diffPatch(tracked: string, root: string, touched: readonly TouchedFile[]): string {
  let patch = tracked;
  for (const file of touched) {
    if (file.change !== 'untracked') continue;
    try {
      patch += newFilePatch(file.path, readUntracked(root, file.path));
    } catch {
      patch += `diff --git a/${file.path} b/${file.path}\n# (unreadable untracked file)\n`;
    }
  }
  return patch;
}
