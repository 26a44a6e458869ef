import { git } from './core.js';

/** The commit HEAD points at, or null when there is none yet (an empty repository). */
export async function headCommit(cwd: string): Promise<string | null> {
  const { stdout, exitCode } = await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { okExitCodes: [1, 128] });
  return exitCode === 0 ? stdout.trim() : null;
}

/** The top folder of the work tree `cwd` is in, or null when `cwd` is not inside one. */
export async function workTreeRoot(cwd: string): Promise<string | null> {
  try {
    const { stdout, exitCode } = await git(cwd, ['rev-parse', '--show-toplevel'], { okExitCodes: [128] });
    return exitCode === 0 ? stdout.trim() : null;
  } catch {
    return null;
  }
}

/** The branch HEAD is on (e.g. "main"), or null when HEAD is detached. */
export async function symbolicHead(cwd: string): Promise<string | null> {
  const { stdout, exitCode } = await git(cwd, ['symbolic-ref', '--quiet', 'HEAD'], { okExitCodes: [1, 128] });
  return exitCode === 0 ? stdout.trim() : null;
}

/** True when `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  const { exitCode } = await git(cwd, ['merge-base', '--is-ancestor', ancestor, descendant], { okExitCodes: [1, 128] });
  return exitCode === 0;
}

/** Parses `git --version` output ("git version 2.39.5") into the version, or null. */
export function parseGitVersion(output: string): string | null {
  const match = /git version (\S+)/.exec(output);
  return match ? match[1]! : null;
}

/** The installed git's version, e.g. "2.39.5". */
export async function gitVersion(cwd: string): Promise<string | null> {
  const { stdout } = await git(cwd, ['--version']);
  return parseGitVersion(stdout);
}
