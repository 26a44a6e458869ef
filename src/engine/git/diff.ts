import { fail, ok, type Result } from '../result.js';
import { git, GitCommandError } from './core.js';

/** Why a diff could not be collected: git's own words (stderr, else stdout), never empty. */
export function diffFailureDetail(stderr: string, stdout: string): string {
  return stderr.trim() || stdout.trim() || 'git diff failed';
}

/**
 * Runs `git diff <args>` in `cwd` and returns its text with surrounding whitespace trimmed
 * (the trailing newline carries no information and would count against size limits).
 * A git failure (not a repo, unknown revision) is a value carrying git's message.
 */
export async function diffText(cwd: string, args: readonly string[]): Promise<Result<string, 'GIT_DIFF_FAILED'>> {
  try {
    const { stdout } = await git(cwd, ['diff', ...args]);
    return ok(stdout.trim());
  } catch (error) {
    if (error instanceof GitCommandError) return fail('GIT_DIFF_FAILED', diffFailureDetail(error.stderr, ''));
    // simple-git reports some failures (e.g. a folder that vanished) without an exit code.
    return fail('GIT_DIFF_FAILED', diffFailureDetail((error as Error).message ?? '', ''));
  }
}
