/**
 * Does an answer without a control block belong to this project? The clipboard holds code,
 * logs, READMEs and diffs of other repositories far more often than answers, so "it would apply"
 * is not enough: the answer must be tied to the project by what it finds there.
 *
 * An answer fits a project when, checked against it without writing anything (planAnswer):
 * - every file it edits, deletes or moves exists there, and every edit matches;
 * - every file it creates goes into a folder that already exists there (an answer from the
 *   clipboard never makes new folders: nothing would say which project they belong in);
 * - and at least one change is evidence: a diff hunk, SEARCH/REPLACE block or apply_patch
 *   section that matched existing lines of a file, a whole file that keeps at least half of the
 *   current file's lines, or a move of an existing file. Creating files, deleting them, or
 *   overwriting a file with unrelated text (a README's example labelled `// src/index.js`)
 *   proves nothing (a deletion carries nothing to check), so such an answer is
 *   never routed from the clipboard: `relay apply` in the project, or the window's paste with a
 *   project chosen, applies it.
 *
 * An answer that fits nowhere is a near miss of a project when it is clearly meant for it: the
 * edit that failed is for a file that exists there, is not already in that file (the user's own
 * `git diff`, copied from a terminal, is), and either its closest lines are very alike (the file
 * changed since the assistant saw it), it matched several places, or an earlier edit of the
 * same answer did match there.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { planAnswer, type CheckedAnswer, type PatchRefusal, type ReadAnswer } from './check.js';
import { planOperations } from './plan.js';
import { parseSearchReplace } from './strategies/search-replace.js';
import { parseUnifiedDiff } from './strategies/unified.js';
import { parseV4ASections } from './strategies/v4a.js';
import type { FileOperation } from './types.js';
import { resolveInsideRoot } from '../fs/safe-path.js';
import { assertNever } from '../result.js';

/** Closest lines at least this alike make a failed edit a near miss (the file moved on, the answer did not). */
export const NEAR_MISS_SIMILARITY = 0.6;
/** A whole file is evidence when it keeps at least this share of the current file's lines. */
const KEPT_SHARE = 0.5;
/** A file with fewer distinct non-trivial lines says too little for a whole-file comparison. */
const MIN_COMPARED_LINES = 3;

/** How an answer stands against one project. */
export type Fit =
  /** It applies, and something in it ties it to the project. */
  | { readonly kind: 'fits'; readonly checked: CheckedAnswer }
  /**
   * Nothing in it is evidence for this project (or it does not apply): it is not routed here.
   * `inFile`: the edit that failed is already in the file (an answer applied before, or the
   * user's own `git diff` copied from a terminal).
   */
  | { readonly kind: 'no'; readonly why: string; readonly inFile?: true }
  /** Clearly meant for this project, but it does not apply: the refusal to tell the person. */
  | { readonly kind: 'near-miss'; readonly refusal: PatchRefusal; readonly similarity: number };

type WriteOp = Extract<FileOperation, { kind: 'write' }>;

/** Whether an edit can only apply where existing lines match (context or removed lines that are not blank). */
export function anchoredEdit(op: WriteOp): boolean {
  switch (op.strategy) {
    case 'replace':
      return false;
    case 'search-replace': {
      const parsed = parseSearchReplace(op.body);
      return parsed.ok && parsed.value.blocks.some((b) => b.search.some((l) => l.trim() !== ''));
    }
    case 'unified': {
      const parsed = parseUnifiedDiff(op.body);
      return parsed.ok && !parsed.value.createsFile && parsed.value.hunks.some((h) => h.lines.some((l) => l.op !== 'add' && l.text.trim() !== ''));
    }
    case 'v4a':
      return parseV4ASections(op.body).some((s) => s.anchors.length > 0 || s.lines.some((l) => l.op !== 'add' && l.text.trim() !== ''));
    default:
      return assertNever(op.strategy);
  }
}

/** The distinct lines of a text worth comparing (trimmed, not blank, not a lone brace). */
function significantLines(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.length >= 3) out.add(trimmed);
  }
  return out;
}

/**
 * Whether a whole file is a version of the current one: it keeps at least half of its lines and
 * is not merely a piece of it (a fragment would delete the rest).
 */
export function keepsCurrentFile(before: string, after: string): boolean {
  const old = significantLines(before);
  if (old.size < MIN_COMPARED_LINES) return false;
  const next = significantLines(after);
  let kept = 0;
  for (const line of old) if (next.has(line)) kept += 1;
  if (kept / old.size < KEPT_SHARE) return false;
  const onlyOldLines = [...next].every((line) => old.has(line));
  return !(onlyOldLines && next.size < old.size);
}

/** What the project has at a path: a file, a folder, nothing, or a path it would refuse. */
function kindAt(root: string, relative: string): 'file' | 'folder' | 'none' | 'unsafe' {
  const safe = resolveInsideRoot(root, relative);
  if (!safe.ok) return 'unsafe';
  try {
    return statSync(safe.value.absolute).isFile() ? 'file' : 'folder';
  } catch {
    return 'none';
  }
}

/** Whether the folder a new file would go into exists in the project. */
function parentExists(root: string, relative: string): boolean {
  const parent = path.posix.dirname(relative.replace(/\\/g, '/').replace(/^\.\//, ''));
  return parent === '.' || parent === '' || kindAt(root, parent) === 'folder';
}

/**
 * The files an answer touches that the project has: on disk, and where the answer moves them
 * (`known`: an edit after a move edits an existing file). The reason instead when a created or
 * moved-to file needs a folder the project does not have, an edited file is missing, or a path
 * is one an answer may never write.
 */
function touchedPaths(root: string, operations: readonly FileOperation[]): { existing: Set<string>; known: Set<string> } | { no: string } {
  const existing = new Set<string>();
  const known = new Set<string>();
  const made = new Set<string>();
  const needsParent = (p: string): string | null => (parentExists(root, p) ? null : `${p} would need a new folder`);
  for (const op of operations) {
    const p = op.kind === 'rename' ? op.from : op.path;
    const kind = kindAt(root, p);
    if (kind === 'unsafe') return { no: `${p} is not a path an answer may write here` };
    if (kind === 'file') {
      existing.add(p);
      known.add(p);
    } else if (!made.has(p) && !known.has(p)) {
      // Not there: only a new file can be written, into a folder that exists.
      if (op.kind !== 'write') return { no: `${p} does not exist here` };
      const problem = needsParent(p);
      if (problem) return { no: problem };
      made.add(p);
    }
    if (op.kind === 'rename') {
      const problem = needsParent(op.to);
      if (problem) return { no: problem };
      (known.has(op.from) ? known : made).add(op.to);
    }
  }
  return { existing, known };
}

/**
 * Whether operation `op` of a checked answer ties it to the project: an edit that matched
 * existing lines, a whole file that is a version of the current one, or a move of a file the
 * project has (it names that file exactly, and its new folder exists).
 */
function isEvidence(root: string, op: FileOperation, known: ReadonlySet<string>, checked: CheckedAnswer): boolean {
  if (op.kind === 'rename') return known.has(op.from);
  if (op.kind !== 'write' || !known.has(op.path)) return false;
  if (op.strategy !== 'replace') return anchoredEdit(op);
  const safe = resolveInsideRoot(root, op.path);
  if (!safe.ok) return false;
  const change = checked.plan.changes.find((c) => c.path === safe.value.relative);
  return change !== undefined && change.before !== null && change.after !== null && keepsCurrentFile(change.before, change.after);
}

/** How a read answer (without a control block) stands against the project at `root`. Reads files, writes nothing. */
export function fitIn(root: string, answer: ReadAnswer): Fit {
  const operations = answer.parsed.operations;
  const touched = touchedPaths(root, operations);
  if ('no' in touched) return { kind: 'no', why: touched.no };
  const { existing, known } = touched;
  if (existing.size === 0) return { kind: 'no', why: 'it only creates files, which ties it to no project' };
  const checked = planAnswer(root, answer);
  if (!checked.ok) return nearMiss(root, answer, known, checked.error);
  if (!operations.some((op) => isEvidence(root, op, known, checked.value))) return { kind: 'no', why: 'no change in it matched existing lines of a file here' };
  return { kind: 'fits', checked: checked.value };
}

/** The same edit the other way round: what the file would have to hold if the edit were already made. */
export function reversedEdit(op: WriteOp): WriteOp | null {
  switch (op.strategy) {
    case 'replace':
      return null;
    case 'search-replace': {
      const parsed = parseSearchReplace(op.body);
      if (!parsed.ok || parsed.value.blocks.some((b) => b.replace.every((l) => l.trim() === ''))) return null;
      const body = parsed.value.blocks.map((b) => ['<<<<<<< SEARCH', ...b.replace, '=======', ...b.search, '>>>>>>> REPLACE'].join('\n')).join('\n');
      return { ...op, body };
    }
    case 'unified': {
      const parsed = parseUnifiedDiff(op.body);
      if (!parsed.ok || parsed.value.createsFile || parsed.value.deletesFile) return null;
      const lines = op.body.split('\n');
      const out: string[] = [];
      for (let i = 0; i < lines.length; i += 1) {
        const line = lines[i]!;
        const next = lines[i + 1];
        if (line.startsWith('--- ') && next?.startsWith('+++ ')) {
          out.push(`--- ${next.slice(4)}`, `+++ ${line.slice(4)}`);
          i += 1;
          continue;
        }
        const header = /^@@ -(\d+(?:,\d+)?) \+(\d+(?:,\d+)?) @@(.*)$/.exec(line);
        if (header) out.push(`@@ -${header[2]} +${header[1]} @@${header[3]}`);
        else out.push(swapSign(line));
      }
      return { ...op, body: out.join('\n') };
    }
    case 'v4a':
      return { ...op, body: op.body.split('\n').map(swapSign).join('\n') };
    default:
      return assertNever(op.strategy);
  }
}

function swapSign(line: string): string {
  return line.startsWith('+') ? `-${line.slice(1)}` : line.startsWith('-') ? `+${line.slice(1)}` : line;
}

/** Whether an edit that did not apply is one the file already has (it applies backwards, alone). */
function alreadyInFile(root: string, op: FileOperation): boolean {
  if (op.kind !== 'write') return false;
  const reversed = reversedEdit(op);
  return reversed !== null && anchoredEdit(reversed) && planOperations(root, [reversed]).ok;
}

/** A refusal that still shows the answer is meant for this project, or a plain "no". */
function nearMiss(root: string, answer: ReadAnswer, known: ReadonlySet<string>, refusal: PatchRefusal): Fit {
  const operations = answer.parsed.operations;
  const index = refusal.operation;
  const failing = index === undefined ? undefined : operations[index];
  const failingPath = failing === undefined ? undefined : failing.kind === 'rename' ? failing.from : failing.path;
  if (failing === undefined || failingPath === undefined || !known.has(failingPath)) return { kind: 'no', why: refusal.message };
  if (alreadyInFile(root, failing)) return { kind: 'no', why: `the change to ${failingPath} is already in the file`, inFile: true };
  const similarity = refusal.closest?.similarity ?? 0;
  const ambiguous = refusal.code === 'SEARCH_AMBIGUOUS' || refusal.code === 'HUNK_AMBIGUOUS';
  const earlierMatched = operations.slice(0, index).some((op) => op.kind === 'write' && known.has(op.path) && anchoredEdit(op));
  if (similarity >= NEAR_MISS_SIMILARITY || ambiguous || earlierMatched) return { kind: 'near-miss', refusal, similarity: ambiguous ? 1 : similarity };
  return { kind: 'no', why: refusal.message };
}
