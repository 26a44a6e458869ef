import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import nodePath from 'node:path';
import type { ApplyFailureCode, FileOperation, PatchFailure } from './types.js';
import { closestLines, describeClosest } from './closest.js';
import { PLAN_WORK_LINES, WorkBudget, type MatchTier } from './match.js';
import { fromFileText, looksBinary, toFileText, type FileText } from './text.js';
import { applyReplace } from './strategies/replace.js';
import { applySearchReplace, parseSearchReplace } from './strategies/search-replace.js';
import { applyUnifiedDiff, parseUnifiedDiff } from './strategies/unified.js';
import { applyV4AUpdate } from './strategies/v4a.js';
import { resolveInsideRoot } from '../fs/safe-path.js';
import { tickOwnedPaths } from '../fs/protected.js';
import { assertNever, fail, ok, type Result } from '../result.js';

/** One file's content before and after the whole response (null = absent). */
export interface PlannedChange {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

export interface Plan {
  readonly changes: readonly PlannedChange[];
  /** How each edited file was matched, for the user's information. */
  readonly tiers: Readonly<Record<string, readonly MatchTier[]>>;
}

/**
 * What a patch may never write is decided by the path chokepoint (engine/fs/safe-path.ts and
 * protected.ts): git's folder, Relay Desk's state and the files that define commands, at any
 * depth and in every spelling a file system accepts, plus the tick runner's folder here.
 */
interface Entry {
  readonly original: string | null;
  readonly notUtf8?: boolean;
  current: FileText | null;
  readonly isDirectory: boolean;
}

/**
 * The project as the response would leave it, built in memory. Nothing on disk changes here;
 * the transaction writes the result only when every operation has succeeded.
 */
class VirtualTree {
  private readonly entries = new Map<string, Entry>();
  private readonly tickOwned: readonly string[];
  private readonly resolved = new Map<string, Result<string, ApplyFailureCode>>();
  constructor(private readonly root: string) {
    this.tickOwned = tickOwnedPaths(root);
  }

  /** The path where it really is (after links inside the project), or the chokepoint's refusal. */
  resolve(raw: string): Result<string, ApplyFailureCode> {
    // Checking a path costs file-system calls; an answer names the same path many times.
    let resolved = this.resolved.get(raw);
    if (!resolved) {
      const safe = resolveInsideRoot(this.root, raw, { tickOwned: this.tickOwned });
      resolved = safe.ok ? ok(safe.value.relative) : fail('UNSAFE_PATH', `${safe.error.code}: ${safe.error.message} The whole response was refused; nothing was written.`, raw);
      this.resolved.set(raw, resolved);
    }
    return resolved;
  }

  entry(relative: string): Entry {
    let entry = this.entries.get(relative);
    if (!entry) {
      entry = this.load(relative);
      this.entries.set(relative, entry);
    }
    return entry;
  }

  private load(relative: string): Entry {
    const absolute = nodePath.join(this.root, relative);
    let stat;
    try {
      stat = lstatSync(absolute);
    } catch {
      return { original: null, current: null, isDirectory: false };
    }
    if (stat.isDirectory()) return { original: null, current: null, isDirectory: true };
    const bytes = readFileSync(absolute);
    const content = bytes.toString('utf8');
    // Text that is not UTF-8 (Latin-1, say) would come back with its other bytes corrupted.
    const notUtf8 = !isUtf8(bytes);
    return { original: content, current: toFileText(content), isDirectory: false, notUtf8 };
  }

  changes(): PlannedChange[] {
    const out: PlannedChange[] = [];
    for (const [path, entry] of this.entries) {
      const after = entry.current === null ? null : fromFileText(entry.current);
      if (after !== entry.original) out.push({ path, before: entry.original, after });
    }
    return out;
  }
}

/** More file operations than any real answer holds; beyond it the plan would only cost time. */
const MAX_OPERATIONS = 400;

function failPlan(code: ApplyFailureCode, message: string): { ok: false; error: PatchFailure<ApplyFailureCode> } {
  return { ok: false, error: { code, message } };
}

/** Applies every operation in memory, in order; the first failure refuses the whole response. */
export function planOperations(root: string, operations: readonly FileOperation[]): { ok: true; value: Plan } | { ok: false; error: PatchFailure<ApplyFailureCode> } {
  if (operations.length > MAX_OPERATIONS) {
    return failPlan('PLAN_TOO_LARGE', `The answer holds ${operations.length} file operations; Relay Desk applies at most ${MAX_OPERATIONS} in one answer, so that each can be checked. Nothing was applied; ask for the change in parts.`);
  }
  const tree = new VirtualTree(root);
  const tiers: Record<string, MatchTier[]> = {};
  // Check every path first so that an unsafe path is reported even after a failing edit.
  for (const [index, op] of operations.entries()) {
    for (const raw of op.kind === 'rename' ? [op.from, op.to] : [op.path]) {
      const resolved = tree.resolve(raw);
      if (!resolved.ok) return { ok: false, error: { ...resolved.error, operation: index } };
    }
  }
  const budget = new WorkBudget(PLAN_WORK_LINES);
  for (const [index, op] of operations.entries()) {
    const planned = planOne(tree, root, op, tiers, budget);
    if (!planned.ok) return { ok: false, error: { ...planned.error, operation: index } };
  }
  return ok({ changes: tree.changes(), tiers });
}

/** Applies one operation to the virtual tree. */
function planOne(tree: VirtualTree, root: string, op: FileOperation, tiers: Record<string, MatchTier[]>, budget: WorkBudget): Result<void, ApplyFailureCode> | { ok: false; error: PatchFailure<ApplyFailureCode> } {
  switch (op.kind) {
    case 'write': {
      const path = (tree.resolve(op.path) as { value: string }).value;
      const entry = tree.entry(path);
      if (entry.isDirectory) return fail('FILE_EXISTS', `${path} is a folder, not a file.`, path);
      if (entry.current !== null && entry.original !== null && looksBinary(entry.original)) {
        return fail('BINARY_FILE', `${path} is a binary file; Relay Desk only patches text files.`, path);
      }
      const creates = op.strategy === 'replace' || op.inferred === true || createsNewFile(op);
      const clash = creates && entry.original === null && entry.current === null ? caseClash(root, path) : null;
      if (clash) {
        return fail('PATH_CASE_CLASH', `${path} would be a new file next to ${clash}, which differs only in case: on macOS and Windows they are the same file. It is not clear whether the answer means to replace ${clash}; nothing was applied.`, path);
      }
      if (entry.notUtf8 && entry.current !== null) {
        return fail('ENCODING_UNSUPPORTED', `${path} is not UTF-8 text (Latin-1 or another legacy encoding?). Relay Desk patches UTF-8 files only, so that no byte it does not mean to change is altered; convert the file to UTF-8 first. Nothing was applied.`, path);
      }
      const applied = applyWrite(entry.current, op, path, entry.original, budget);
      if (!applied.ok) return explainFailure(applied.error, entry.current, root, path);
      entry.current = applied.value.file;
      (tiers[path] ??= []).push(...applied.value.tiers);
      return ok(undefined);
    }
    case 'delete': {
      const path = (tree.resolve(op.path) as { value: string }).value;
      const entry = tree.entry(path);
      if (entry.current === null) return fail('DELETE_MISSING', `${path}: cannot delete a file that does not exist.`, path);
      entry.current = null;
      return ok(undefined);
    }
    case 'rename': {
      const from = (tree.resolve(op.from) as { value: string }).value;
      let to = (tree.resolve(op.to) as { value: string }).value;
      // "to": "scripts/dev/" (or an existing folder) means into that folder, as with mv.
      if (/[\\/]\s*$/.test(op.to) || tree.entry(to).isDirectory) to = `${to}/${nodePath.posix.basename(from)}`;
      const source = tree.entry(from);
      const target = tree.entry(to);
      const clash = target.current === null ? caseClash(root, to) : null;
      if (clash) return fail('PATH_CASE_CLASH', `Cannot rename ${from} to ${to}: ${clash} already exists and differs only in case (the same file on macOS and Windows). Nothing was applied.`, to);
      if (source.current === null) return fail('RENAME_SOURCE_MISSING', `Cannot rename ${from}: it does not exist.`, from);
      if (from === to) return ok(undefined);
      if (target.current !== null || target.isDirectory) {
        return fail('RENAME_TARGET_EXISTS', `Cannot rename ${from} to ${to}: ${to} already exists. Nothing was applied.`, to);
      }
      target.current = source.current;
      source.current = null;
      return ok(undefined);
    }
    default:
      return assertNever(op);
  }
}

/**
 * Adds what a person needs to a failed edit: for an edit that matched nowhere, the file's
 * closest lines (with how alike they are); for a missing file, a file whose name differs in case.
 */
function explainFailure(error: PatchFailure<ApplyFailureCode>, file: FileText | null, root: string, path: string): { ok: false; error: PatchFailure<ApplyFailureCode> } {
  if (error.code === 'FILE_NOT_FOUND') {
    const near = nearbyPath(root, path);
    return { ok: false, error: near ? { ...error, message: `${error.message} Did you mean ${near}?` } : error };
  }
  const closest = file !== null && error.expected ? closestLines(file, error.expected) : null;
  if (!closest) return { ok: false, error };
  return { ok: false, error: { ...error, closest, message: `${error.message}\n${describeClosest(closest)}` } };
}

function applyWrite(file: FileText | null, op: Extract<FileOperation, { kind: 'write' }>, path: string, original: string | null, budget?: WorkBudget): Result<{ file: FileText | null; tiers: MatchTier[] }, ApplyFailureCode> {
  if (file === null && op.inferred && !createsNewFile(op) && canHoldPatchText(path)) {
    // No strategy word, a patch-looking body, no such file, and a file that holds data rather
    // than code (a test fixture, a .diff): the body is the new file's content. Any other edit of
    // a missing file is refused by its strategy: only an empty SEARCH or a /dev/null diff creates one.
    const replaced = applyReplace(null, op.body, path);
    return replaced.ok ? ok({ file: replaced.value, tiers: [] }) : replaced;
  }
  switch (op.strategy) {
    case 'replace': {
      if (op.origin?.format === 'v4a' && file !== null) {
        return fail('FILE_EXISTS', `${path} already exists, but the patch adds it with "*** Add File:" (the assistant may not have seen it). Nothing was applied; ask for "*** Update File: ${path}" instead.`, path);
      }
      // Native whole files end with a newline; Relay's own blocks keep the old file's final-newline state.
      const endsWithNewline = op.origin !== undefined && op.origin.format !== 'relay' ? true : undefined;
      const replaced = applyReplace(file, op.body, path, file === null ? original : undefined, endsWithNewline);
      return replaced.ok ? ok({ file: replaced.value, tiers: [] }) : replaced;
    }
    case 'search-replace':
      return applySearchReplace(file, op.body, path, budget);
    case 'unified':
      return applyUnifiedDiff(file, op.body, path, { trustLineNumbers: op.declaredStrategy !== 'new-unified', ...(budget ? { budget } : {}) });
    case 'v4a':
      return applyV4AUpdate(file, op.body, path, budget);
    default:
      return assertNever(op.strategy);
  }
}

/** Files that may hold a diff or SEARCH/REPLACE text as their content: patches, text, fixtures. */
function canHoldPatchText(path: string): boolean {
  return /\.(diff|patch|txt|md|markdown|snap|golden|expected|out)$/i.test(path) || /(^|\/)(fixtures?|__fixtures__|testdata|__snapshots__|golden)\//i.test(path);
}

/** Whether a patch body itself creates the file (a diff from /dev/null, or an empty SEARCH). */
function createsNewFile(op: Extract<FileOperation, { kind: 'write' }>): boolean {
  if (op.strategy === 'unified') {
    const parsed = parseUnifiedDiff(op.body);
    return parsed.ok && (parsed.value.createsFile || parsed.value.hunks.every((h) => h.lines.every((l) => l.op === 'add' || l.text.trim() === '')));
  }
  if (op.strategy === 'search-replace') {
    const parsed = parseSearchReplace(op.body);
    return parsed.ok && parsed.value.blocks.length === 1 && parsed.value.blocks[0]!.search.every((l) => l.trim() === '');
  }
  return false;
}

/** An existing file whose path differs from `relative` only in case, if any. */
function caseClash(root: string, relative: string): string | null {
  const near = nearbyPath(root, relative);
  return near !== null && near !== relative ? near : null;
}

/** A file in the same folder whose name differs only in case (a common slip in answers). */
function nearbyPath(root: string, relative: string): string | null {
  const dir = nodePath.posix.dirname(relative);
  const name = nodePath.posix.basename(relative).toLowerCase();
  try {
    const match = readdirSync(nodePath.join(root, dir)).find((entry) => entry.toLowerCase() === name);
    return match ? (dir === '.' ? match : `${dir}/${match}`) : null;
  } catch {
    return null;
  }
}
