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

/** Where HEAD is: the commit (null when there is none yet) and the branch (null when detached). */
export interface HeadPosition {
  readonly commit: string | null;
  readonly branch: string | null;
}

/** Parses `git rev-parse HEAD --symbolic-full-name HEAD`: the commit, then the branch ref (or "HEAD" when detached). */
export function parseHeadPosition(output: string): HeadPosition {
  const [commit, ref] = output.trim().split('\n').map((l) => l.trim());
  return { branch: ref && ref.startsWith('refs/') ? ref : null, commit: commit && /^[0-9a-f]{7,64}$/.test(commit) ? commit : null };
}

/** HEAD's commit and branch in one git call. */
export async function headPosition(cwd: string): Promise<HeadPosition> {
  const { stdout, exitCode } = await git(cwd, ['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD'], { okExitCodes: [128] });
  if (exitCode === 0) return parseHeadPosition(stdout);
  // No commit yet: HEAD cannot be resolved, but it may already name a branch.
  return { commit: null, branch: await symbolicHead(cwd) };
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
