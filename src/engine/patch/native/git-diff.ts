/**
 * Git-style unified diffs as assistants print them, fenced or not: `diff --git` sections with
 * `index`, `new file mode`, `deleted file mode`, `similarity index` and `rename from/to` lines,
 * bare `--- a/x` / `+++ b/x` pairs, several files in one diff, `\ No newline at end of file`,
 * hunks with wrong, missing or no numbers (`@@ ... @@`). Each file becomes operations of the
 * common plan; the hunks themselves are applied by strategies/unified.ts.
 *
 * Paths: `a/` and `b/` are stripped when both header paths carry them (or one is /dev/null);
 * otherwise they are taken as written.
 */
import type { FileOperation, OperationOrigin, ParseFailureCode } from '../types.js';
import { fail, ok, type Result } from '../../result.js';

const GIT_LINE = /^diff --git (.+)$/;
const HUNK = /^@@(?:\s+-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s+@@.*|.*)$/;
const META = /^(index [0-9a-f]+\.\.[0-9a-f]+|new file mode|deleted file mode|old mode|new mode|similarity index|dissimilarity index|rename from |rename to |copy from |copy to )/;
const BINARY = /^(Binary files .* differ|GIT binary patch)/;
/** What a header path looks like, as opposed to the text of a removed `-- x` line. */
const PATH_LIKE = /^\s*("?[ab]\/|\/dev\/null|"?\S+\.\w+\s*$|"?\S+\.\w+\t)/;

/** The path of a ---/+++ header line, without a trailing timestamp and quotes. */
function headerPath(raw: string): string {
  let value = raw.split('\t')[0]!.trim();
  if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return value;
}

/** The two paths of `diff --git a/x b/y` (quoted or not). */
function gitPaths(rest: string): [string, string] | null {
  const quoted = /^"([^"]+)"\s+"([^"]+)"$/.exec(rest.trim());
  if (quoted) return [quoted[1]!, quoted[2]!];
  const m = /^(a\/.+?) (b\/.+)$/.exec(rest.trim());
  if (m) return [m[1]!, m[2]!];
  const parts = rest.trim().split(/\s+/);
  return parts.length === 2 ? [parts[0]!, parts[1]!] : null;
}

/** Strips git's a/ b/ prefixes when both sides carry them (or one side is /dev/null). */
function stripPrefixes(oldPath: string, newPath: string): [string, string] {
  const isNull = (p: string): boolean => p === '/dev/null';
  const prefixed = (isNull(oldPath) || oldPath.startsWith('a/')) && (isNull(newPath) || newPath.startsWith('b/')) && !(isNull(oldPath) && isNull(newPath));
  if (!prefixed) return [oldPath, newPath];
  return [isNull(oldPath) ? oldPath : oldPath.slice(2), isNull(newPath) ? newPath : newPath.slice(2)];
}

/** True when a `---`/`+++` pair starts a file header (and is not a removed `-- x` / added `++ y` pair). */
function isHeaderPair(lines: readonly string[], i: number): boolean {
  return (lines[i] ?? '').startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ');
}

interface Section {
  readonly start: number;
  git?: [string, string];
  minus?: string;
  plus?: string;
  renameFrom?: string;
  renameTo?: string;
  newFile: boolean;
  deletedFile: boolean;
  binary: boolean;
  /** Index of the `---` line (or of the first hunk when there is no file header). */
  bodyStart: number | null;
  end: number;
}

/**
 * Reads a diff into per-file sections. Hunk line counts, when given, say where a hunk ends, so a
 * removed `-- comment` line followed by an added `++ x` line is not taken for a file header.
 */
function sections(lines: readonly string[]): { sections: Section[]; preamble: number } {
  const found: Section[] = [];
  let current: Section | null = null;
  let remainingOld = 0;
  let remainingNew = 0;
  let inHunk = false;
  let preamble = lines.length;
  const open = (start: number): Section => {
    current = { start, newFile: false, deletedFile: false, binary: false, bodyStart: null, end: lines.length };
    if (found.length > 0) found[found.length - 1]!.end = start;
    found.push(current);
    inHunk = false;
    if (preamble === lines.length) preamble = start;
    return current;
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const countsLeft = remainingOld > 0 || remainingNew > 0;
    // Counts are hints too: a `diff --git` line, a numbered hunk header or a file header followed
    // by a hunk always starts something new, whatever the previous hunk's counts said.
    const structure = GIT_LINE.test(line) || /^@@ -\d/.test(line) || (isHeaderPair(lines, i) && /^@@/.test(lines[i + 2] ?? ''));
    if (countsLeft && inHunk && !structure) {
      if (line.startsWith('+')) remainingNew -= 1;
      else if (line.startsWith('-')) remainingOld -= 1;
      else if (!line.startsWith('\\')) {
        remainingOld -= 1;
        remainingNew -= 1;
      }
      continue;
    }
    const git = GIT_LINE.exec(line);
    if (git) {
      const section = open(i);
      const paths = gitPaths(git[1]!);
      if (paths) section.git = paths;
      continue;
    }
    if (isHeaderPair(lines, i) && (current === null || !inHunk || structure || (PATH_LIKE.test(line.slice(4)) && PATH_LIKE.test(lines[i + 1]!.slice(4))))) {
      const section: Section = current !== null && (current as Section).minus === undefined && !inHunk ? current : open(i);
      section.minus = headerPath(line.slice(4));
      section.plus = headerPath(lines[i + 1]!.slice(4));
      section.bodyStart = i;
      i += 1;
      inHunk = false;
      continue;
    }
    const hunk = HUNK.exec(line);
    if (line.startsWith('@@') && hunk) {
      const section = current ?? open(i);
      section.bodyStart ??= i;
      inHunk = true;
      remainingOld = hunk[1] !== undefined ? Number(hunk[2] ?? 1) : 0;
      remainingNew = hunk[3] !== undefined ? Number(hunk[4] ?? 1) : 0;
      continue;
    }
    if (current !== null && !inHunk) {
      const section: Section = current;
      if (line.startsWith('new file mode')) section.newFile = true;
      else if (line.startsWith('deleted file mode')) section.deletedFile = true;
      else if (line.startsWith('rename from ')) section.renameFrom = line.slice('rename from '.length).trim();
      else if (line.startsWith('rename to ')) section.renameTo = line.slice('rename to '.length).trim();
      else if (BINARY.test(line)) section.binary = true;
    }
  }
  return { sections: found, preamble };
}

/**
 * Reads a diff block (or an unfenced diff) into operations. `fallbackPath` names the file when
 * the diff has hunks but no file headers (the path was given above the block). Null when the
 * text holds no diff at all.
 */
export function parseGitDiff(lines: readonly string[], firstLine: number, fallbackPath?: string): Result<FileOperation[], ParseFailureCode> | null {
  const { sections: found } = sections(lines);
  if (found.length === 0) return null;
  const ops: FileOperation[] = [];
  for (const section of found) {
    const origin: OperationOrigin = { format: 'git-diff', line: firstLine + section.start };
    const named = section.minus !== undefined || section.git !== undefined;
    let oldPath: string;
    let newPath: string;
    if (section.minus !== undefined && section.plus !== undefined) [oldPath, newPath] = stripPrefixes(section.minus, section.plus);
    else if (section.git) [oldPath, newPath] = stripPrefixes(section.git[0], section.git[1]);
    else if (fallbackPath !== undefined) [oldPath, newPath] = [fallbackPath, fallbackPath];
    else return fail('UNHEADED_FILE_BLOCK', `The diff on line ${firstLine + section.start} does not say which file it changes (no "--- a/path" / "+++ b/path" lines and no path above it). Nothing was applied; ask for the diff with its file headers.`);
    if (section.newFile && section.minus === undefined) oldPath = '/dev/null';
    if (section.deletedFile && section.plus === undefined) newPath = '/dev/null';
    const from = section.renameFrom ?? (oldPath === '/dev/null' ? null : oldPath);
    const to = section.renameTo ?? (newPath === '/dev/null' ? null : newPath);
    const path = to ?? from;
    if (path === null) return fail('PATCH_MALFORMED', `The diff section on line ${firstLine + section.start} names no file (both sides are /dev/null). Nothing was applied.`);
    if (section.binary) return fail('PATCH_MALFORMED', `The diff for ${path} (line ${firstLine + section.start}) is a binary patch, which Relay Desk cannot apply. Nothing was applied.`);
    const body = section.bodyStart === null ? [] : lines.slice(section.bodyStart, section.end);
    while (body.length > 0 && body[body.length - 1]!.trim() === '') body.pop();
    const hasHunks = body.some((l) => l.startsWith('@@') || /^[+-]/.test(l));
    const renamed = from !== null && to !== null && from !== to && (section.renameFrom !== undefined || section.renameTo !== undefined);
    if (renamed) ops.push({ kind: 'rename', from, to, origin });
    if (!hasHunks) {
      if (section.deletedFile || newPath === '/dev/null') ops.push({ kind: 'delete', path: from ?? path, origin });
      else if (section.newFile || oldPath === '/dev/null') ops.push({ kind: 'write', path, strategy: 'replace', body: '', origin });
      else if (!renamed && named && body.length > 0) return fail('PATCH_MALFORMED', `The diff for ${path} (line ${firstLine + section.start}) has no hunks. Nothing was applied.`);
      continue;
    }
    // The strategy reads creation and deletion from the ---/+++ lines: give it git's when it has only mode lines.
    const header = section.minus === undefined ? [`--- ${oldPath === '/dev/null' ? '/dev/null' : `a/${from ?? path}`}`, `+++ ${newPath === '/dev/null' ? '/dev/null' : `b/${path}`}`] : [];
    ops.push({ kind: 'write', path: newPath === '/dev/null' ? (from ?? path) : path, strategy: 'unified', body: [...header, ...body].join('\n'), origin });
  }
  return ok(ops);
}

/**
 * The end (exclusive) of a diff that starts at `start` in prose: it runs while lines can belong
 * to a diff (headers, hunks, " ", "+", "-", "\" lines, blank lines inside a hunk).
 */
export function unfencedDiffEnd(lines: readonly string[], start: number): number {
  let i = start;
  let lastDiffLine = start;
  while (i < lines.length) {
    const line = lines[i]!;
    const diffish = GIT_LINE.test(line) || META.test(line) || BINARY.test(line) || /^(--- |\+\+\+ |@@|[ +\-\\])/.test(line);
    if (line === '') {
      i += 1;
      continue;
    }
    if (!diffish) break;
    lastDiffLine = i;
    i += 1;
  }
  return lastDiffLine + 1;
}

/** Whether an unfenced diff starts at line `i` of prose: a `diff --git` line, or a `---`/`+++` pair followed by a hunk. */
export function unfencedDiffStartsAt(lines: readonly string[], i: number): boolean {
  return GIT_LINE.test(lines[i] ?? '') || (isHeaderPair(lines, i) && /^@@/.test(lines[i + 2] ?? ''));
}
