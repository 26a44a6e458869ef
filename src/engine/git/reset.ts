import { git } from './core.js';

/** Moves the current branch (or detached HEAD) to `commit` and makes index and work tree match it. */
export async function resetHard(cwd: string, commit: string): Promise<void> {
  await git(cwd, ['reset', '--hard', '--quiet', commit]);
}

/**
 * Puts HEAD back on branch `ref` ("refs/heads/main") at `commit`, recreating the branch if it
 * was deleted, or, when `ref` is null, detaches HEAD at `commit`. Local changes are discarded,
 * as in a rollback.
 */
export async function checkoutForce(cwd: string, ref: string | null, commit: string): Promise<void> {
  if (ref === null) await git(cwd, ['checkout', '--force', '--quiet', '--detach', commit]);
  else await git(cwd, ['checkout', '--force', '--quiet', '-B', ref.replace(/^refs\/heads\//, ''), commit]);
}
