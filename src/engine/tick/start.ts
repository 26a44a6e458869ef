// The one preflight of a tick: config and workspace, the root/bypassPermissions check, the lock,
// an interrupted rollback, a clean tree, the history cap and the budgets. `relais run`, the app's
// Run tick, its confirmation and `relais status --preflight` all go through `preflightTick`, so
// what refuses a tick in one place refuses it everywhere, with the same code.
import { bootId } from '../fs/process.js';
import type { Blocker } from './blocked.js';
import { acquireTickLock, inspectLock, type LockAttempt, type TickLock } from './lock.js';
import { checkStartable, type Startable } from './preflight.js';
import { openProject, type Project, type RunnerIdentity } from './project.js';
import { readRollbackIntent, removeRollbackIntent, rollback, rollbackIntentPath, waitForIndexLock } from './rollback.js';
import { relativeToRoot, type WorkspacePaths } from './workspace.js';

/**
 * `run`: take the lock (held by the returned value), finish a crashed run's rollback and delete
 * stale temp files. `check`: change nothing; a held lock or a rollback to finish is reported.
 */
export type PreflightMode = { readonly kind: 'run'; readonly runId: string; readonly at: Date } | { readonly kind: 'check'; readonly at: Date };

/**
 * A tick may start, or why not. In mode run the lock may be held either way (a refusal found
 * under the lock is written under it too): the caller releases it.
 */
export type Preflight =
  | { readonly ok: true; readonly project: Project; readonly start: Startable; readonly lock: TickLock | null; readonly notes: readonly string[] }
  | { readonly ok: false; readonly blocker: Blocker; readonly paths: WorkspacePaths; readonly lock: TickLock | null };

function heldBlocker(holder: { pid: number; started_at: string; boot_id: string; run_id?: string | null | undefined } | null, reason: string, lockRel: string): Blocker {
  const who = holder ? `process ${holder.pid} (run ${holder.run_id ?? 'unknown'}, started ${holder.started_at})` : 'another run';
  return {
    code: 'BLOCKED_LOCK_HELD',
    reason: `Another tick holds ${lockRel}: ${who}; ${reason}.`,
    remediation: `Wait for that tick to finish, then run again. If no relais process is running any more, delete ${lockRel} and run again.`,
    lockHolder: holder ? { pid: holder.pid, started_at: holder.started_at, boot_id: holder.boot_id, run_id: holder.run_id ?? null } : null,
  };
}

function lockBlocker(attempt: Extract<LockAttempt, { acquired: false }>, lockRel: string): Blocker {
  return heldBlocker(attempt.holder, attempt.reason, lockRel);
}

/**
 * Finishes a rollback a dead run left half done (its intent is in .git/, where no clone can put
 * one). Returns a blocker when it cannot be finished; null when there was none or it is done.
 */
async function finishInterruptedRollback(project: Project): Promise<Blocker | null> {
  const intent = await rollbackIntentPath(project.root);
  const found = readRollbackIntent(intent);
  if (found.kind === 'none') return null;
  const remediation = `Check \`git status\` and put the work tree back to the base commit by hand (git reset --hard; remove the files the tick created), then delete ${intent} and run again.`;
  if (found.kind === 'damaged') return { code: 'BLOCKED_CRASH_RECOVERY_REQUIRED', reason: `An interrupted rollback left ${intent}, which cannot be read (${found.reason}).`, remediation };
  await waitForIndexLock(project.root); // a git of the dead run may still be finishing
  const rb = await rollback(project.root, found.plan);
  if (!rb.clean) return { code: 'BLOCKED_CRASH_RECOVERY_REQUIRED', reason: `A rollback interrupted by a crash could not be finished: ${rb.problems.join('; ')}.`, remediation, details: rb.problems };
  removeRollbackIntent(intent);
  return null;
}

/** Runs the start checks of a tick, in the spec's order, for the runner `identity`. */
export async function preflightTick(options: RunnerIdentity & { readonly root: string }, mode: PreflightMode): Promise<Preflight> {
  const opened = await openProject(options.root, options);
  if (!opened.ok) return { ok: false, blocker: opened.blocker, paths: opened.paths, lock: null };
  const { project } = opened;
  const lockRel = relativeToRoot(project.root, project.paths.lock);
  if (mode.kind === 'check') {
    const lock = inspectLock(project.paths.lock, mode.at.getTime());
    if (lock.state === 'held') return { ok: false, blocker: heldBlocker(lock.holder, lock.reason, lockRel), paths: project.paths, lock: null };
    const notes: string[] = [];
    if (readRollbackIntent(await rollbackIntentPath(project.root)).kind !== 'none') notes.push('A rollback interrupted by a crash will be finished first.');
    const start = await checkStartable(project, 'check');
    return start.ok ? { ok: true, project, start: start.value, lock: null, notes } : { ok: false, blocker: start.blocker, paths: project.paths, lock: null };
  }
  const attempt = acquireTickLock(project.paths.lock, { pid: process.pid, started_at: mode.at.toISOString(), boot_id: bootId(), run_id: mode.runId }, mode.at.getTime());
  if (!attempt.acquired) return { ok: false, blocker: lockBlocker(attempt, lockRel), paths: project.paths, lock: null };
  const { lock } = attempt;
  try {
    // A rollback a crashed run left unfinished is finished first (we hold the lock: its run is dead).
    const unfinished = await finishInterruptedRollback(project);
    if (unfinished) return { ok: false, blocker: unfinished, paths: project.paths, lock };
    const start = await checkStartable(project, 'run');
    if (!start.ok) return { ok: false, blocker: start.blocker, paths: project.paths, lock };
    return { ok: true, project, start: start.value, lock, notes: [] };
  } catch (error) {
    attempt.lock.release();
    throw error;
  }
}
