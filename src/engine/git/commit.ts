import { git } from './core.js';

/** Creates and switches to a new branch at HEAD. */
export async function createBranch(cwd: string, name: string): Promise<void> {
  await git(cwd, ['switch', '-c', name]);
}

/** The current branch name, or null when HEAD is detached or there is no commit yet. */
export async function currentBranch(cwd: string): Promise<string | null> {
  const { stdout } = await git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okExitCodes: [1, 128] });
  return stdout.trim() || null;
}

/** Stages exactly these paths (additions, changes and deletions) and commits them. */
export async function commitPaths(cwd: string, paths: readonly string[], message: string): Promise<string> {
  await git(cwd, ['add', '-A', '--', ...paths]);
  await git(cwd, ['commit', '-m', message, '--', ...paths]);
  const { stdout } = await git(cwd, ['rev-parse', 'HEAD']);
  return stdout.trim();
}

/** True when `name` is a valid branch name for git. */
export async function isValidBranchName(cwd: string, name: string): Promise<boolean> {
  const { exitCode } = await git(cwd, ['check-ref-format', '--branch', name], { okExitCodes: [1, 128] });
  return exitCode === 0;
}
