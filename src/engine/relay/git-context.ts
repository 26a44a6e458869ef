import { refExists } from '../git/branch.js';
import { diffText } from '../git/diff.js';
import { RelayError } from './errors.js';
import { ensureSizeLimit, MAX_DIFF_BYTES } from './limits.js';

/** `git diff <args>` within the diff limit; a git failure gives '' (best effort), a diff over the limit throws. */
export async function tryGitDiff(repoPath: string, args: readonly string[]): Promise<string> {
  const result = await diffText(repoPath, args);
  if (!result.ok) return '';
  ensureSizeLimit('Git diff', result.value, MAX_DIFF_BYTES);
  return result.value;
}

/**
 * The diff worth showing for `relay --include-diff`: uncommitted changes against HEAD, or,
 * when there are none, what the last commit changed. Silent when git cannot say.
 */
export async function gitDiff(repoPath: string): Promise<string> {
  const uncommitted = await tryGitDiff(repoPath, ['HEAD', '--']);
  if (uncommitted) return uncommitted;
  return tryGitDiff(repoPath, ['HEAD~1', 'HEAD', '--']);
}

/** What HEAD changed since it left `base` (`git diff base...HEAD`); a review needs it, so failure throws. */
export async function gitDiffBase(repoPath: string, base: string): Promise<string> {
  // A base is a revision, never an option: "--output=…" would make git write a file.
  if (base.startsWith('-')) throw new RelayError('DIFF_FAILED', `Failed to collect git diff against ${base}: a base must not start with "-"`);
  const result = await diffText(repoPath, [`${base}...HEAD`, '--']);
  if (!result.ok) throw new RelayError('DIFF_FAILED', `Failed to collect git diff against ${base}: ${result.error.message}`);
  ensureSizeLimit('Git diff', result.value, MAX_DIFF_BYTES);
  return result.value;
}

/** The branch a review compares against: main, else master, else the previous commit. */
export async function detectDefaultBranch(repoPath: string): Promise<string> {
  for (const branch of ['main', 'master']) {
    if (await refExists(repoPath, branch)) return branch;
  }
  return 'HEAD~1';
}
