import { refExists } from '../git/branch.js';
import { diffIsEmpty, diffText } from '../git/diff.js';
import { isAncestor } from '../git/head.js';
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

/**
 * The base a review compares against: main, else master, skipping one that already holds HEAD
 * (on main itself, or on the only branch, master, its diff would be empty), else the previous
 * commit; null when there is nothing before HEAD to compare against.
 */
export async function detectDefaultBranch(repoPath: string): Promise<string | null> {
  for (const branch of ['main', 'master']) {
    if ((await refExists(repoPath, branch)) && !(await isAncestor(repoPath, 'HEAD', branch))) return branch;
  }
  return (await refExists(repoPath, 'HEAD~1')) ? 'HEAD~1' : null;
}

/**
 * Checks a review's base before anything is sent, on every path (the native review as well as
 * the diff): it must be a revision (never an option), exist, and HEAD must differ from it.
 */
export async function checkReviewBase(repoPath: string, base: string): Promise<void> {
  // A base is a revision, never an option: "--output=…" would make git write a file.
  if (base.startsWith('-')) throw new RelayError('DIFF_FAILED', `Failed to collect git diff against ${base}: a base must not start with "-"`);
  if (!(await refExists(repoPath, `${base}^{commit}`))) {
    throw new RelayError('BASE_NOT_FOUND', `The base ${base} is not a branch or commit of ${repoPath}; \`git branch -a\` lists the branches.`);
  }
  if (await diffIsEmpty(repoPath, `${base}...HEAD`)) {
    throw new RelayError('NOTHING_TO_REVIEW', `Nothing to review: HEAD has no changes since ${base}. Commit your work first, or pass --base <branch> to compare against another branch.`);
  }
}
