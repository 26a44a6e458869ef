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

/** True when `git diff <range>` would print nothing (`git diff --quiet`, no text collected). */
export async function diffIsEmpty(cwd: string, range: string): Promise<boolean> {
  const { exitCode } = await git(cwd, ['diff', '--quiet', range, '--'], { okExitCodes: [1] });
  return exitCode === 0;
}

/** How a tracked file differs from the base commit. */
export type TrackedChange = 'added' | 'modified' | 'deleted' | 'type-changed';

/** One tracked file that differs between a commit and the work tree. */
export interface TrackedDiffEntry {
  readonly path: string;
  readonly change: TrackedChange;
  /** Lines added and deleted; 0 for binary files. */
  readonly added: number;
  readonly deleted: number;
  readonly binary: boolean;
}

function changeOf(letter: string): TrackedChange {
  switch (letter) {
    case 'A':
      return 'added';
    case 'D':
      return 'deleted';
    case 'T':
      return 'type-changed';
    default:
      // M, and U (unmerged) which the judge treats as a plain modification.
      return 'modified';
  }
}

/**
 * Parses `git diff --raw --numstat -z --no-renames` output: raw records
 * (":mode mode sha sha X\0path\0") followed by numstat records ("added\tdeleted\tpath\0").
 */
export function parseRawNumstatZ(output: string): TrackedDiffEntry[] {
  const tokens = output.split('\0');
  const changes = new Map<string, TrackedChange>();
  const counts = new Map<string, { added: number; deleted: number; binary: boolean }>();
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.startsWith(':')) {
      const letter = token.trim().split(' ').pop() ?? 'M';
      const path = tokens[i + 1];
      if (path !== undefined) changes.set(path, changeOf(letter.charAt(0)));
      i += 1;
      continue;
    }
    const match = /^(-|\d+)\t(-|\d+)\t([\s\S]+)$/.exec(token);
    if (!match) continue;
    const binary = match[1] === '-' || match[2] === '-';
    counts.set(match[3]!, { added: binary ? 0 : Number(match[1]), deleted: binary ? 0 : Number(match[2]), binary });
  }
  const entries: TrackedDiffEntry[] = [];
  for (const [path, change] of changes) {
    const count = counts.get(path) ?? { added: 0, deleted: 0, binary: false };
    entries.push({ path, change, ...count });
  }
  return entries;
}

/** Tracked files that differ between `base` and the work tree (commits made since base included). */
export async function diffAgainst(cwd: string, base: string): Promise<TrackedDiffEntry[]> {
  const { stdout } = await git(cwd, ['diff', '--raw', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', base, '--']);
  return parseRawNumstatZ(stdout);
}

/** The full patch of tracked changes since `base` (binary hunks included), for the history. */
export async function patchAgainst(cwd: string, base: string): Promise<string> {
  const { stdout } = await git(cwd, ['diff', '--binary', '--no-renames', '--no-ext-diff', '--no-color', base, '--']);
  return stdout;
}
