import { git } from './core.js';

/** True when `ref` names a commit git can resolve in `cwd` (`git rev-parse --verify --quiet`). */
export async function refExists(cwd: string, ref: string): Promise<boolean> {
  try {
    const { exitCode } = await git(cwd, ['rev-parse', '--verify', '--quiet', ref], { okExitCodes: [1, 128] });
    return exitCode === 0;
  } catch {
    // Not a repository, or git itself is missing: the ref does not exist for us.
    return false;
  }
}

/** Points HEAD at branch `ref` ("refs/heads/main") without touching the index or work tree (both branches must be at one commit). */
export async function pointHeadAt(cwd: string, ref: string): Promise<void> {
  await git(cwd, ['symbolic-ref', 'HEAD', ref]);
}

/** Deletes a local branch, whatever it holds. */
export async function deleteBranch(cwd: string, name: string): Promise<void> {
  await git(cwd, ['branch', '-D', '--', name]);
}
