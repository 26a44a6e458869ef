// Committing a transaction's files: what `relay git commit` does, kept out of the CLI so the
// app can offer it too.
import { isGitRepo } from '../git/core.js';
import { fail, ok, type Result } from '../result.js';
import { commitTransactionFiles } from './git-commit.js';
import type { Recovery } from './recover.js';
import { listCommitted } from '../records/transactions.js';
import type { PatchHooks } from './transaction.js';

/** What committing the newest transaction would do. */
export interface CommitPlan {
  readonly uuid: string;
  readonly message: string;
  /** Every path the transaction wrote, deleted or renamed (root-relative). */
  readonly paths: readonly string[];
}

export type CommitPlanCode = 'NOT_A_GIT_REPO' | 'NO_TRANSACTION';
export type CommitCode = 'NOTHING_TO_COMMIT' | 'GIT_FAILED';

/** The newest transaction of `relay log` as a commit: its gitCommitMsg and the paths it touched. */
export async function planLatestCommit(root: string): Promise<Result<CommitPlan, CommitPlanCode>> {
  if (!(await isGitRepo(root))) return fail('NOT_A_GIT_REPO', `${root} is not a git repository; run \`git init\` there first.`);
  const latest = listCommitted(root)[0];
  if (!latest) return fail('NO_TRANSACTION', 'No transaction to commit yet: apply an answer first (`relay apply`, `relay watch`).');
  const message = latest.gitCommitMsg ?? latest.promptSummary ?? `relay: ${latest.uuid}`;
  const paths = [...new Set([...Object.keys(latest.result), ...latest.files.map((f) => f.path)])];
  return ok({ uuid: latest.uuid, message, paths });
}

/** A commit made, with what recovery did before it (under the same project lock). */
export interface CommittedPlan {
  readonly sha: string;
  readonly recovered: readonly Recovery[];
  readonly notes: readonly string[];
}

/**
 * Stages and commits exactly the plan's paths with its message, durably and under the project
 * lock (git-commit.ts): a kill at any point leaves HEAD and the index before or after.
 */
export async function commitPlan(root: string, plan: CommitPlan, hooks: PatchHooks = {}): Promise<Result<CommittedPlan, CommitCode | string>> {
  const committed = await commitTransactionFiles(root, plan.paths, plan.message, hooks);
  if (!committed.ok) return committed;
  const { sha, recovered, notes } = committed.value;
  if (sha === null) return fail('NOTHING_TO_COMMIT', `Nothing to commit: the files of ${plan.uuid} (${plan.paths.join(', ')}) are as in the last commit.`);
  return ok({ sha, recovered, notes });
}
