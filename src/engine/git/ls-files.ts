import { git } from './core.js';

/** Paths of the tracked files, as git lists them (-z, unquoted). */
export async function trackedFiles(cwd: string): Promise<string[]> {
  const { stdout } = await git(cwd, ['ls-files', '-z']);
  return stdout.split('\0').filter((p) => p.length > 0);
}

/** One line about the last commit: "<short sha> <subject>". */
export async function lastCommitLine(cwd: string): Promise<string> {
  const { stdout } = await git(cwd, ['log', '-1', '--format=%h %s']);
  return stdout.trim();
}

/** True when git tracks `file` (a path relative to `cwd`); false outside a repository. */
export async function isTracked(cwd: string, file: string): Promise<boolean> {
  try {
    const { stdout, exitCode } = await git(cwd, ['--literal-pathspecs', 'ls-files', '-z', '--', file], { okExitCodes: [128] });
    return exitCode === 0 && stdout.length > 0;
  } catch {
    return false;
  }
}
