
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

/**
 * The GIT_* variables git may take from the user's environment. simple-git strips every GIT_*
 * variable (and EDITOR, PAGER, VISUAL, PREFIX, SSH_ASKPASS) from the child's environment unless
 * it is named in `allowEnvironment`; we name only these:
 * - who the author and committer are, and when (plain `git commit` honours them, and a machine
 *   with no ~/.gitconfig has no other way to say it);
 * - where the user's own config files are. GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM name files
 *   with the same power as ~/.gitconfig and /etc/gitconfig, which git reads anyway, and HOME
 *   (which simple-git never guards) already moves ~/.gitconfig: blocking them protects nothing
 *   and breaks users (and test suites) that keep their config elsewhere.
 * Everything else stays stripped, because each one runs a program or redirects git at a
 * repository, config or template other than the one asked for: GIT_EDITOR, GIT_SEQUENCE_EDITOR,
 * GIT_PAGER, GIT_SSH, GIT_SSH_COMMAND, GIT_ASKPASS, GIT_PROXY_COMMAND, GIT_EXTERNAL_DIFF,
 * GIT_EXEC_PATH, GIT_TEMPLATE_DIR, GIT_CONFIG_COUNT / _KEY_n / _VALUE_n, GIT_CONFIG_PARAMETERS,
 * GIT_CONFIG, GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY … (a git hook that runs
 * relay sets GIT_DIR and GIT_INDEX_FILE for its own repository; they must not leak into ours).
 */
export const GIT_ENV_PASSTHROUGH = [
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
] as const;

export interface GitOptions {
  /** Exit codes that are outcomes rather than failures (e.g. 1 for `git diff --exit-code`). */
  readonly okExitCodes?: readonly number[];
  /** Use this index file instead of the repository's (GIT_INDEX_FILE): work on a private index. */
  readonly indexFile?: string;
}

// simple-git refuses an explicitly given environment that names an editor, pager or git setting
// (they can run programs); without one it drops ambient GIT_* itself. Same here, by hand.
const UNSAFE_ENV = new Set(['editor', 'visual', 'pager', 'prefix', 'ssh_askpass']);

function inheritableEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (value === undefined || UNSAFE_ENV.has(lower) || (lower.startsWith('git_') && !(GIT_ENV_PASSTHROUGH as readonly string[]).includes(key))) continue;
    env[key] = value;
  }
  return env;
}

/**
 * Runs git in `cwd`: the one place the engine starts git. Exit codes other than 0 and the
 * declared ones throw a GitCommandError carrying the args and stderr.
 */
export async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  // Loaded on first use, so commands that never run git do not pay for loading it.
  const { simpleGit } = await import('simple-git');
  const ok = new Set([0, ...(options.okExitCodes ?? [])]);
  let exitCode = 0;
  let stderr = '';
  let stdoutOnFailure = '';
  const client = simpleGit({
    baseDir: cwd,
    maxConcurrentProcesses: 4,
    allowEnvironment: options.indexFile ? ['GIT_INDEX_FILE', ...GIT_ENV_PASSTHROUGH] : GIT_ENV_PASSTHROUGH,
    // An explicitly given environment (the private index below) is checked by simple-git, which
    // refuses GIT_CONFIG_GLOBAL/SYSTEM there unless told; they are let through on purpose (see
    // GIT_ENV_PASSTHROUGH). Every other unsafe variable stays refused or stripped.
    ...(options.indexFile ? { unsafe: { allowUnsafeConfigPaths: true } } : {}),
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
