import { refExists } from '../git/branch.js';
import { diffIsEmpty, diffText } from '../git/diff.js';
import { isAncestor } from '../git/head.js';
import { ok } from '../result.js';
import { CHECKED, relayFail, type RelayOutcome } from './errors.js';
import { checkSizeLimit, MAX_DIFF_BYTES } from './limits.js';

/** A diff within the diff limit, else TOO_LARGE. */
function withinDiffLimit(diff: string): RelayOutcome<string> {
  const checked = checkSizeLimit('Git diff', diff, MAX_DIFF_BYTES);
  return checked.ok ? ok(diff) : checked;
}

/** `git diff <args>` within the diff limit; a git failure gives '' (best effort), a diff over the limit is TOO_LARGE. */
export async function tryGitDiff(repoPath: string, args: readonly string[]): Promise<RelayOutcome<string>> {
  const result = await diffText(repoPath, args);
  return result.ok ? withinDiffLimit(result.value) : ok('');
}

/**
 * The diff worth showing for `relay --include-diff`: uncommitted changes against HEAD, or,
 * when there are none, what the last commit changed. Silent when git cannot say.
 */
export async function gitDiff(repoPath: string): Promise<RelayOutcome<string>> {
  const uncommitted = await tryGitDiff(repoPath, ['HEAD', '--']);
  if (!uncommitted.ok || uncommitted.value) return uncommitted;
  return tryGitDiff(repoPath, ['HEAD~1', 'HEAD', '--']);
}

/** A base is a revision, never an option: "--output=…" would make git write a file. */
function checkBaseIsRevision(base: string): RelayOutcome<undefined> {
  return base.startsWith('-') ? relayFail('DIFF_FAILED', `Failed to collect git diff against ${base}: a base must not start with "-"`) : CHECKED;
}

/** What HEAD changed since it left `base` (`git diff base...HEAD`); a review needs it, so a git failure is DIFF_FAILED. */
export async function gitDiffBase(repoPath: string, base: string): Promise<RelayOutcome<string>> {
  const revision = checkBaseIsRevision(base);
  if (!revision.ok) return revision;
  const result = await diffText(repoPath, [`${base}...HEAD`, '--']);
  if (!result.ok) return relayFail('DIFF_FAILED', `Failed to collect git diff against ${base}: ${result.error.message}`);
  return withinDiffLimit(result.value);
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
export async function checkReviewBase(repoPath: string, base: string): Promise<RelayOutcome<undefined>> {
  const revision = checkBaseIsRevision(base);
  if (!revision.ok) return revision;
  if (!(await refExists(repoPath, `${base}^{commit}`))) {
    return relayFail('BASE_NOT_FOUND', `The base ${base} is not a branch or commit of ${repoPath}; \`git branch -a\` lists the branches.`);
  }
  if (await diffIsEmpty(repoPath, `${base}...HEAD`)) {
    return relayFail('NOTHING_TO_REVIEW', `Nothing to review: HEAD has no changes since ${base}. Commit your work first, or pass --base <branch> to compare against another branch.`);
  }
  return CHECKED;
}
