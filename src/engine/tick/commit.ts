// "Approve & commit" for a SUCCESS tick. The runner never commits (the next tick is then
// BLOCKED_DIRTY_WORKTREE until someone does); this commits exactly the tick's touched paths, and
// only while the work tree still holds exactly the tick's change on the commit it ran on.
//
// The commit is recorded in `<history>/<run_id>/commit.json`, beside the tick's other history
// files, rather than only in the app's store: history is the tick's file of truth, so the record
// survives a reindex, is seen by every window and by the CLI, and the history folder is ignored
// by git, so writing it does not make the work tree dirty again.
import { writeFileAtomic } from '../fs/atomic.js';
import { ownFile } from '../fs/safe-path.js';
import { commitPaths } from '../git/commit.js';
import { headCommit } from '../git/head.js';
import { status } from '../git/status.js';
import { COMMIT_FILE, latestTickWithReport, readTickCommit, readTickFiles, readTickText, reportedTouchedPaths, TICK_RUN_ID, type TickCommitRecord } from '../records/index.js';
import { fail, ok, type Result } from '../result.js';
import { defaultTickConfig, loadTickConfig } from './config.js';
import { inspectLock } from './lock.js';
import { collectTouched, diffPatch, trackedPatch } from './touched.js';
import { relativeToRoot, workspacePaths, type WorkspacePaths } from './workspace.js';

export const MAX_COMMIT_MESSAGE_CHARS = 5000;

export type TickCommitCode =
  | 'INVALID_RUN_ID'
  | 'INVALID_MESSAGE'
  | 'TICK_NOT_FOUND'
  | 'TICK_NOT_SUCCESS'
  | 'TICK_NOT_LATEST'
  | 'TICK_ALREADY_COMMITTED'
  | 'TICK_RUNNING'
  | 'TOUCHED_LIST_TRUNCATED'
  | 'REPORT_PATH_UNSAFE'
  | 'NOTHING_TO_COMMIT'
  | 'HEAD_MOVED'
  | 'WORKTREE_DIFFERS'
  | 'TICK_CHANGES_EDITED';

/** What is known about committing one tick, before doing it. */
export interface TickCommitPlan {
  readonly runId: string;
  /** The tick's touched paths that will be committed (runner-owned paths left out). */
  readonly paths: readonly string[];
  readonly head: string;
  /** "relais <run_id>: <intent>". */
  readonly suggestedMessage: string;
}

type Json = Record<string, unknown>;

function layout(root: string): WorkspacePaths {
  const config = loadTickConfig(root);
  return workspacePaths(root, config.ok ? config.value : defaultTickConfig());
}

function isRunnerOwned(paths: WorkspacePaths, rel: string): boolean {
  const lock = relativeToRoot(paths.root, paths.lock);
  return rel === paths.dirRel || rel.startsWith(`${paths.dirRel}/`) || rel.startsWith(`${paths.historyDirRel}/`) || rel === lock || rel.startsWith(`${lock}.`);
}


const list = (items: readonly string[]): string => (items.length > 10 ? `${items.slice(0, 10).join(', ')} and ${items.length - 10} more` : items.join(', '));

/** The files each `diff --git` section of a patch is about, mapped to that section's text. */
function sectionsByFile(patch: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const section of patch.split(/(?=^diff --git )/m)) {
    const first = section.split('\n', 1)[0] ?? '';
    if (!first.startsWith('diff --git ')) continue;
    // "diff --git a/<p> b/<p>": the same path twice (the tick never renames).
    const rest = first.slice('diff --git '.length);
    const name = rest.length % 2 === 1 ? rest.slice(2, (rest.length - 1) / 2) : rest;
    out.set(name, section);
  }
  return out;
}

/**
 * Checks that the tick can be committed now: a SUCCESS tick, the latest, not yet committed, no
 * tick running, HEAD where the tick left it, and the work tree's changes exactly the tick's.
 */
export async function planTickCommit(root: string, runId: string): Promise<Result<TickCommitPlan, TickCommitCode>> {
  if (!TICK_RUN_ID.test(runId)) return fail('INVALID_RUN_ID', `"${runId.slice(0, 80)}" is not a tick run id.`);
  const paths = layout(root);
  const read = readTickFiles(root, runId);
  const report = read && 'tick' in read ? read.tick.report : null;
  if (!report) return fail('TICK_NOT_FOUND', `No tick ${runId} with a report.json in ${paths.historyDirRel}/.`);
  const verdict = String(report.verdict ?? '');
  if (verdict !== 'success') return fail('TICK_NOT_SUCCESS', `Tick ${runId} ended ${verdict.toUpperCase() || 'without a verdict'} (${String(report.code ?? '?')}); only a SUCCESS tick can be approved and committed.`);
  const done = readTickCommit(root, runId);
  if (done) return fail('TICK_ALREADY_COMMITTED', `Tick ${runId} was already committed as ${done.commit.slice(0, 12)}.`);
  const latest = latestTickWithReport(root);
  if (latest !== runId) return fail('TICK_NOT_LATEST', `Tick ${runId} is not the project's latest tick (${latest ?? 'none'} is); only the latest tick's changes can still be in the work tree.`);
  const lock = inspectLock(paths.lock);
  if (lock.state === 'held') return fail('TICK_RUNNING', `A tick is running in this project (${lock.holder ? `process ${lock.holder.pid}` : 'lock held'}); commit once it has ended.`);

  const reported = reportedTouchedPaths(root, report, (p) => isRunnerOwned(paths, p));
  if (reported.truncated) return fail('TOUCHED_LIST_TRUNCATED', `Tick ${runId} touched more paths than its report lists; commit it by hand.`);
  if (reported.refused.length > 0) return fail('REPORT_PATH_UNSAFE', `Tick ${runId}'s report lists paths Relay Desk never commits for a tick: ${list(reported.refused)}. Commit by hand if these changes are yours.`);
  const touched = reported.paths;
  if (touched.length === 0) return fail('NOTHING_TO_COMMIT', `Tick ${runId} touched no file outside the runner's own (${paths.dirRel}/); there is nothing to commit.`);

  const tickHead = typeof report.head_commit === 'string' ? report.head_commit : typeof report.base_commit === 'string' ? report.base_commit : null;
  const head = await headCommit(root);
  if (!head || !tickHead || head !== tickHead) {
    return fail('HEAD_MOVED', `HEAD is at ${head?.slice(0, 12) ?? 'no commit'} but tick ${runId} left it at ${tickHead?.slice(0, 12) ?? 'an unknown commit'}: someone committed or switched branches since. Commit the tick's changes by hand, if they are still wanted.`);
  }

  const changed = new Set<string>();
  for (const entry of await status(root)) {
    for (const p of entry.from !== undefined ? [entry.path, entry.from] : [entry.path]) if (!isRunnerOwned(paths, p)) changed.add(p);
  }
  const touchedSet = new Set(touched);
  const extra = [...changed].filter((p) => !touchedSet.has(p)).sort();
  const missing = touched.filter((p) => !changed.has(p));
  if (extra.length > 0 || missing.length > 0) {
    const parts = [
      ...(extra.length > 0 ? [`changed but not touched by the tick: ${list(extra)}`] : []),
      ...(missing.length > 0 ? [`touched by the tick but no longer changed: ${list(missing)}`] : []),
    ];
    return fail('WORKTREE_DIFFERS', `The work tree's changes are not tick ${runId}'s (${parts.join('; ')}). Someone edited after the tick; commit by hand, or undo those edits and try again.`);
  }

  // Same files, but maybe not the same content: compare with the diff the tick kept, when it kept one.
  const keptPatch = readTickText(root, runId, 'diff.patch');
  if (keptPatch !== null && typeof report.base_commit === 'string') {
    const base = report.base_commit;
    const [tracked, now] = await Promise.all([trackedPatch(root, base), collectTouched(root, base)]);
    const current = diffPatch(tracked, root, now);
    if (current !== keptPatch) {
      const before = sectionsByFile(keptPatch);
      const after = sectionsByFile(current);
      const edited = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort();
      return fail('TICK_CHANGES_EDITED', `Files of tick ${runId} were edited after it ended: ${edited.length > 0 ? list(edited) : 'the diff differs'}. Commit by hand, or put them back as the tick left them.`);
    }
  }

  return ok({ runId, paths: touched, head, suggestedMessage: suggestedCommitMessage(runId, report) });
}

/** "relais <run_id>: <intent>", from a tick's report.json. */
export function suggestedCommitMessage(runId: string, report: unknown): string {
  const task = report !== null && typeof report === 'object' ? ((report as Json).task as Json | undefined) : undefined;
  const intent = typeof task?.intent === 'string' ? (task.intent.trim().split('\n')[0] ?? '') : '';
  return intent ? `relais ${runId}: ${intent}` : `relais ${runId}`;
}

/** Checks again, then stages the tick's paths (`git add -A -- <paths>`), commits them and writes commit.json. */
export async function commitTick(root: string, runId: string, message: string, now: () => Date = () => new Date()): Promise<Result<TickCommitRecord, TickCommitCode>> {
  const text = message.trim();
  if (text.length === 0 || text.length > MAX_COMMIT_MESSAGE_CHARS) return fail('INVALID_MESSAGE', `The commit message must have 1 to ${MAX_COMMIT_MESSAGE_CHARS} characters.`);
  const plan = await planTickCommit(root, runId);
  if (!plan.ok) return plan;
  const sha = await commitPaths(root, plan.value.paths, text);
  if (!sha) return fail('NOTHING_TO_COMMIT', `None of tick ${runId}'s paths differ from HEAD any more.`);
  const record: TickCommitRecord = { run_id: runId, commit: sha, parent: plan.value.head, message: text, paths: plan.value.paths, committed_at: now().toISOString() };
  // The history folder must be a real folder inside the project (a linked one is not written through).
  const file = ownFile(root, `${layout(root).historyDirRel}/${runId}`, COMMIT_FILE);
  if (!file.ok) throw new Error(`Committed ${sha.slice(0, 12)}, but commit.json was not written: ${file.error.message}`);
  writeFileAtomic(file.value, `${JSON.stringify(record, null, 2)}\n`);
  return ok(record);
}
