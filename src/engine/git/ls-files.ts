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
