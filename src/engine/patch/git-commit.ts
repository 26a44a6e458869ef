// `relay git commit`: commits the files of a transaction under the project lock, durably (see
// commitPathsDurably): a kill at any point leaves HEAD and the index either before or after.
import { commitPathsDurably } from '../git/durable-commit.js';
import { GitCommandError } from '../git/core.js';
import { fail, ok, type Result } from '../result.js';
import { stateDir } from './state.js';
import { lockAndRecover, type PatchHooks } from './transaction.js';
import type { Recovery } from './recover.js';

/** A commit made (sha), or null when none of the paths differed from HEAD; with what recovery did first. */
export interface CommitFilesResult {
  readonly sha: string | null;
  readonly recovered: readonly Recovery[];
  readonly notes: readonly string[];
}

/** Commits exactly `paths` with `message`, holding the project lock. */
export async function commitTransactionFiles(root: string, paths: readonly string[], message: string, hooks: PatchHooks = {}): Promise<Result<CommitFilesResult, string>> {
  const locked = await lockAndRecover(root, hooks);
  if ('refused' in locked) return fail(locked.refused.code, locked.refused.message);
  try {
    const sha = await commitPathsDurably(root, paths, message, { dir: stateDir(root) });
    return ok({ sha, recovered: locked.recovered, notes: locked.notes });
  } catch (error) {
    if (error instanceof GitCommandError) return fail('GIT_FAILED', `git commit failed: ${error.stderr.split('\n')[0] || error.message}. Nothing was committed.`);
    throw error;
  } finally {
    locked.release();
  }
}
