import { readdirSync, realpathSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { resolveInsideRoot } from '../fs/safe-path.js';
import { headCommit, symbolicHead } from '../git/head.js';
import { checkoutForce, resetHard } from '../git/reset.js';
import { status } from '../git/status.js';
import type { TouchedFile } from './blast.js';
import { restoreSnapshot, type FileSnapshot } from './owned.js';

/** What the runner knew before the builder ran, needed to undo it. */
export interface RollbackPoint {
  readonly base: string;
  /** The branch HEAD was on ("refs/heads/main"), or null when it was detached. */
  readonly branch: string | null;
  /** Guarded files git cannot restore (runner-owned ignored files, .git internals). */
  readonly snapshots: readonly { readonly before: FileSnapshot; readonly changed: readonly string[] }[];
}

export interface RollbackResult {
  /** True when the work tree is back at base: no changes, no untracked files, HEAD = base. */
  readonly clean: boolean;
  readonly removed: readonly string[];
  readonly problems: readonly string[];
  /** Guarded files that changed and could not be put back (history files are not copied). */
  readonly unrestored: readonly string[];
  /** HEAD after the rollback (the base commit when it worked). */
  readonly head: string | null;
}

function removeWithEmptyParents(root: string, rel: string): boolean {
  // Through the path chokepoint: inside the root, never .git, and the entry itself may be a
  // symlink (rm removes the link, never what it points to).
  const where = resolveInsideRoot(root, rel, { purpose: 'cleanup' });
  if (!where.ok) return false;
  rmSync(where.value.absolute, { force: true, recursive: true });
  // git cannot represent empty folders; leave none behind from files the tick created.
  const rootReal = realpathSync(root);
  let dir = path.dirname(where.value.absolute);
  while (dir.startsWith(rootReal + path.sep)) {
    try {
      if (readdirSync(dir).length > 0) break;
      rmdirSync(dir);
    } catch {
      break;
    }
    dir = path.dirname(dir);
  }
  return true;
}

/**
 * Appendix B: put HEAD back on its branch at base (`git reset --hard`), remove the untracked
 * files the tick created (only those), restore guarded files, then check that it is clean.
 */
export async function rollback(root: string, point: RollbackPoint, touched: readonly TouchedFile[]): Promise<RollbackResult> {
  const problems: string[] = [];
  const removed: string[] = [];
  try {
    if ((await symbolicHead(root)) !== point.branch) await checkoutForce(root, point.branch, point.base);
    await resetHard(root, point.base);
  } catch (error) {
    problems.push(`git reset to ${point.base.slice(0, 12)} failed: ${(error as Error).message}`);
  }
  // Preflight refused to start with any untracked file, so every untracked file now was made
  // by this tick: the judge's list, plus any a verification command wrote after the judge.
  const untracked = new Set(touched.filter((f) => f.change === 'untracked').map((f) => f.path));
  try {
    for (const entry of await status(root)) if (entry.code === '??') untracked.add(entry.path);
  } catch (error) {
    problems.push(`git status failed: ${(error as Error).message}`);
  }
  for (const rel of [...untracked].sort()) {
    if (removeWithEmptyParents(root, rel)) removed.push(rel);
    else problems.push(`refused to remove ${rel}: it does not resolve inside the repository`);
  }
  const unrestored: string[] = [];
  for (const { before, changed } of point.snapshots) unrestored.push(...restoreSnapshot(root, before, changed));
  const [left, head] = await Promise.all([status(root), headCommit(root)]);
  if (left.length > 0) problems.push(`work tree not clean after rollback: ${left.slice(0, 5).map((e) => `${e.code} ${e.path}`).join(', ')}`);
  if (head !== point.base) problems.push(`HEAD is ${head ?? 'unborn'} instead of the base commit ${point.base}`);
  return { clean: problems.length === 0, removed, problems, unrestored, head };
}
