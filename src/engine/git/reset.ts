import { git } from './core.js';

/** Moves the current branch (or detached HEAD) to `commit` and makes index and work tree match it. */
export async function resetHard(cwd: string, commit: string): Promise<void> {
  await git(cwd, ['reset', '--hard', '--quiet', commit]);
}

/**
 * Puts HEAD back on `ref` ("refs/heads/main") or, when `ref` is null, detaches it at `commit`;
 * local changes are discarded, as in a rollback.
 */
export async function checkoutForce(cwd: string, ref: string | null, commit: string): Promise<void> {
  if (ref === null) await git(cwd, ['checkout', '--force', '--quiet', '--detach', commit]);
  else await git(cwd, ['checkout', '--force', '--quiet', ref.replace(/^refs\/heads\//, '')]);
}
