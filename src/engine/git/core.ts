import { simpleGit } from 'simple-git';

/** What a finished git command printed and how it exited. */
export interface GitResult {
  readonly stdout: string;
  readonly exitCode: number;
}

/** A git command that ended with an exit code its caller did not declare as expected. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (exit ${exitCode}): ${stderr.trim() || 'no output'}`);
    this.name = 'GitCommandError';
  }
}

export interface GitOptions {
  /** Exit codes that are outcomes rather than failures (e.g. 1 for `git diff --exit-code`). */
  readonly okExitCodes?: readonly number[];
  /** Use this index file instead of the repository's (GIT_INDEX_FILE): work on a private index. */
  readonly indexFile?: string;
}

// simple-git refuses an explicitly given environment that names an editor, pager or git setting
// (they can run programs); without one it drops ambient GIT_* itself. Same here, by hand.
const UNSAFE_ENV = new Set(['editor', 'visual', 'pager', 'prefix', 'ssh_askpass']);
/** Who a commit is by: passed on, so a commit made through a private index has the user's identity. */
const IDENTITY_ENV = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_COMMITTER_DATE'];

function inheritableEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (value === undefined || UNSAFE_ENV.has(lower) || (lower.startsWith('git_') && !IDENTITY_ENV.includes(key))) continue;
    env[key] = value;
  }
  return env;
}

/**
 * Runs git in `cwd`: the one place the engine starts git. Exit codes other than 0 and the
 * declared ones throw a GitCommandError carrying the args and stderr.
 */
export async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const ok = new Set([0, ...(options.okExitCodes ?? [])]);
  let exitCode = 0;
  let stderr = '';
  let stdoutOnFailure = '';
  const client = simpleGit({
    baseDir: cwd,
    maxConcurrentProcesses: 4,
    ...(options.indexFile ? { allowEnvironment: ['GIT_INDEX_FILE', ...IDENTITY_ENV] } : {}),
    errors(error, result) {
      exitCode = result.exitCode;
      stderr = Buffer.concat(result.stdErr).toString('utf8');
      if (ok.has(result.exitCode)) return undefined;
      // simple-git only calls an exit code an error when stderr has text; `git commit` with
      // nothing to commit exits 1 and says so on stdout, which must not pass for success.
      stdoutOnFailure = Buffer.concat(result.stdOut).toString('utf8');
      return error ?? new Error(stdoutOnFailure.trim() || `exit ${result.exitCode}`);
    },
  });
  if (options.indexFile) client.env({ ...inheritableEnv(), GIT_INDEX_FILE: options.indexFile });
  try {
    // No optional locks: a `git status` of ours must never hold .git/index.lock (and leave it behind if killed).
    const stdout = await client.raw(['--no-optional-locks', ...args]);
    return { stdout, exitCode };
  } catch (error) {
    if (exitCode !== 0) throw new GitCommandError(args, exitCode, stderr.trim() || stdoutOnFailure.trim() || (error as Error).message);
    throw error;
  }
}

/** True when `cwd` is inside a git work tree. */
export async function isGitRepo(cwd: string): Promise<boolean> {
  try {
    const { stdout } = await git(cwd, ['rev-parse', '--is-inside-work-tree']);
    return stdout.trim() === 'true';
  } catch {
    return false;
  }
}
