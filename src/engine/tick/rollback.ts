import { existsSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic.js';
import { bootId, ownerIsGone } from '../fs/process.js';
import { resolveInsideRoot } from '../fs/safe-path.js';
import { git } from '../git/core.js';
import { headCommit, symbolicHead } from '../git/head.js';
import { checkoutForce, resetHard } from '../git/reset.js';
import { status } from '../git/status.js';
import type { TouchedFile } from './blast.js';
import { applyRestoreEntries, restoreEntries, type FileSnapshot, type RestoreEntry } from './owned.js';

/** What the runner knew before the builder ran, needed to undo it. */
export interface RollbackPoint {
  readonly base: string;
  /** The branch HEAD was on ("refs/heads/main"), or null when it was detached. */
  readonly branch: string | null;
  /** Guarded files git cannot restore (runner-owned ignored files, .git internals). */
  readonly snapshots: readonly { readonly before: FileSnapshot; readonly changed: readonly string[] }[];
}

/**
 * Everything a rollback does, decided before it starts and written down (relais/ROLLBACK.json)
 * so that a rollback interrupted by a crash is finished by the next run.
 */
export interface RollbackPlan {
  readonly base: string;
  readonly branch: string | null;
  /** Untracked paths the tick made (the judge's list; more found at rollback time are removed too). */
  readonly untracked: readonly string[];
  readonly restore: readonly RestoreEntry[];
}

/** The plan for undoing a tick: what the judge found and the guarded files' restore entries. */
export function planRollback(point: RollbackPoint, touched: readonly TouchedFile[]): RollbackPlan {
  return {
    base: point.base,
    branch: point.branch,
    untracked: touched.filter((f) => f.change === 'untracked').map((f) => f.path),
    restore: point.snapshots.flatMap(({ before, changed }) => restoreEntries(before, changed)),
  };
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
 * Idempotent, so an interrupted rollback is finished by running it again.
 */
export async function rollback(root: string, plan: RollbackPlan): Promise<RollbackResult> {
  const problems: string[] = [];
  const removed: string[] = [];
  try {
    if ((await symbolicHead(root)) !== plan.branch) await checkoutForce(root, plan.branch, plan.base);
    await resetHard(root, plan.base);
  } catch (error) {
    problems.push(`git reset to ${plan.base.slice(0, 12)} failed: ${(error as Error).message}`);
  }
  // Preflight refused to start with any untracked file, so every untracked file now was made
  // by this tick: the judge's list, plus any a verification command wrote after the judge.
  const untracked = new Set(plan.untracked);
  try {
    for (const entry of await status(root)) if (entry.code === '??') untracked.add(entry.path);
  } catch (error) {
    problems.push(`git status failed: ${(error as Error).message}`);
  }
  for (const rel of [...untracked].sort()) {
    if (removeWithEmptyParents(root, rel)) removed.push(rel);
    else problems.push(`refused to remove ${rel}: it does not resolve inside the repository`);
  }
  const unrestored = applyRestoreEntries(root, plan.restore);
  const [left, head] = await Promise.all([status(root), headCommit(root)]);
  if (left.length > 0) problems.push(`work tree not clean after rollback: ${left.slice(0, 5).map((e) => `${e.code} ${e.path}`).join(', ')}`);
  if (head !== plan.base) problems.push(`HEAD is ${head ?? 'unborn'} instead of the base commit ${plan.base}`);
  return { clean: problems.length === 0, removed, problems, unrestored, head };
}

// ---------------------------------------------------------------------------------------------
// The rollback intent: written (durably) before the rollback changes anything, removed once the
// work tree is clean. A run that finds it (its writer is dead: the tick lock says so) finishes
// the rollback first, so a crash in the middle of a rollback never leaves a half-rolled-back tree.

// Root-relative, no "..", not absolute: checked again although the file lives in .git/.
const RelPath = z.string().refine((p) => p !== '' && !path.isAbsolute(p) && !/^[A-Za-z]:/.test(p) && !p.split(/[\\/]/).includes('..'), 'not a path inside the repository');

const RollbackIntentSchema = z.object({
  version: z.literal(1),
  owner: z.object({ pid: z.number().int(), boot_id: z.string(), started_at: z.string() }),
  plan: z.object({
    base: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/),
    branch: z.string().nullable(),
    untracked: z.array(RelPath),
    restore: z.array(
      z.discriminatedUnion('kind', [
        z.object({ path: RelPath, kind: z.literal('file'), content: z.string(), mode: z.number().int() }),
        z.object({ path: RelPath, kind: z.literal('absent') }),
        z.object({ path: RelPath, kind: z.literal('dir') }),
        z.object({ path: RelPath, kind: z.literal('lost') }),
      ]),
    ),
  }),
});

/** Writes the rollback intent before a rollback starts. */
export function writeRollbackIntent(file: string, plan: RollbackPlan, now: Date): void {
  writeFileAtomic(file, `${JSON.stringify({ version: 1, owner: { pid: process.pid, boot_id: bootId(), started_at: now.toISOString() }, plan }, null, 2)}\n`);
}

/** What an interrupted rollback left: nothing, its plan, or a file that cannot be read. */
export type InterruptedRollback = { readonly kind: 'none' } | { readonly kind: 'plan'; readonly plan: RollbackPlan; readonly ownerAlive: boolean } | { readonly kind: 'damaged'; readonly reason: string };

/** Reads the rollback intent, validated (it is read back from disk, so it is input like any other). */
export function readRollbackIntent(file: string): InterruptedRollback {
  if (!existsSync(file)) return { kind: 'none' };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { kind: 'damaged', reason: (error as Error).message };
  }
  const parsed = RollbackIntentSchema.safeParse(data);
  if (!parsed.success) return { kind: 'damaged', reason: parsed.error.issues[0]?.message ?? 'invalid' };
  const { owner, plan } = parsed.data;
  return { kind: 'plan', plan, ownerAlive: !ownerIsGone({ pid: owner.pid, bootId: owner.boot_id }) };
}

/** Waits (up to `timeoutMs`) while .git/index.lock exists: a git of the dead run may still be finishing. */
export async function waitForIndexLock(root: string, timeoutMs = 5000): Promise<void> {
  const { stdout } = await git(root, ['rev-parse', '--git-path', 'index.lock']);
  const lock = path.resolve(root, stdout.trim());
  const deadline = Date.now() + timeoutMs;
  while (existsSync(lock) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

/**
 * Where the rollback intent lives: inside .git/ (`git rev-parse --git-path`), which no clone
 * can ship and no rollback removes, so a stranger's repository can never hand us a "rollback" to run.
 */
export async function rollbackIntentPath(root: string): Promise<string> {
  const { stdout } = await git(root, ['rev-parse', '--git-path', 'relais-rollback.json']);
  return path.resolve(root, stdout.trim());
}

/** Removes the rollback intent once the rollback is done. */
export function removeRollbackIntent(file: string): void {
  rmSync(file, { force: true });
}
