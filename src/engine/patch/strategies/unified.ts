import type { ApplyFailureCode } from '../types.js';
import type { EditLine, MatchTier, WorkBudget } from '../match.js';
import { newLine, type FileText } from '../text.js';
import { applyEdit, trimBlankEdges } from './edit.js';
import { findLazyPlaceholders } from '../lazy.js';
import { fail, ok, type Result } from '../../result.js';

export interface Hunk {
  readonly lines: readonly EditLine[];
  /** Context lines as written, when some lost (or never had) the one-space prefix. */
  readonly rawContext: readonly (string | null)[] | null;
  /** Indices of context lines that only say "code skipped here" (`...`, `// ... existing code ...`). */
  readonly elisions: readonly number[];
  /** The old-file line number the header claims; a hint only, never trusted for placement. */
  readonly oldStart?: number;
  /** Lines that were truly empty (no leading space) at the hunk's ends: blank context or separators. */
  readonly looseBlankEdges: boolean;
}

export interface ParsedDiff {
  readonly hunks: readonly Hunk[];
  readonly createsFile: boolean;
  readonly deletesFile: boolean;
  /** What `\ No newline at end of file` markers say about each side, when there are any. */
  readonly noFinalNewline: { readonly old: boolean; readonly new: boolean } | null;
}

const HUNK_HEADER = /^@@.*@@?.*$|^@@\s*$/;
const PREAMBLE = /^(diff --git |index [0-9a-f]|Index: |={5,}$|new file mode|deleted file mode|old mode|new mode|similarity index|rename from|rename to|Binary files)/;

/** True when a body is itself a unified diff (file headers first, or a hunk header first). */
export function isUnifiedDiffBody(body: string): boolean {
  const lines = body.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) return false;
  const line = lines[first]!;
  if (/^(diff --git |Index: )/.test(line) || HUNK_HEADER.test(line)) return true;
  return line.startsWith('--- ') && (lines[first + 1] ?? '').startsWith('+++ ');
}

/**
 * Reads a unified diff the way models write them: `@@ ... @@` without numbers, missing
 * `---/+++` headers, context lines that lost their leading space, `\ No newline` markers.
 */
export function parseUnifiedDiff(body: string): Result<ParsedDiff, ApplyFailureCode> {
  const lines = body.split('\n');
  // Lines before the first header are commentary (a repeated "// path" line, say) when the
  // diff has headers at all; only a diff without any header is one implicit hunk.
  const hasHeaders = lines.some((l, i) => HUNK_HEADER.test(l) || (l.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')));
  const hunks: Hunk[] = [];
  let createsFile = false;
  let deletesFile = false;
  let noFinalNewline: { old: boolean; new: boolean } | null = null;
  let current: { lines: EditLine[]; oldStart?: number; rawEmpty: boolean[]; raw: (string | null)[]; unprefixed: boolean } | null = null;
  let afterFileHeader = false;
  const start = (oldStart?: number): NonNullable<typeof current> => ({ lines: [], rawEmpty: [], raw: [], unprefixed: false, ...(oldStart !== undefined ? { oldStart } : {}) });

  const finish = (): void => {
    if (current === null) return;
    const { lines: hunkLines, rawEmpty } = current;
    let end = hunkLines.length;
    while (end > 0 && rawEmpty[end - 1]) end -= 1;
    const looseTrailing = end < hunkLines.length;
    // Truly empty lines after the last real line may be separators; keep them but say so.
    if (hunkLines.some((l) => l.op !== 'ctx' || l.text.trim() !== '')) {
      const elisions = hunkLines.flatMap((l, i) => (l.op === 'ctx' && isElision(l.text) ? [i] : []));
      hunks.push({
        lines: hunkLines,
        rawContext: current.unprefixed ? current.raw : null,
        elisions,
        ...(current.oldStart !== undefined ? { oldStart: current.oldStart } : {}),
        looseBlankEdges: looseTrailing || rawEmpty[0] === true,
      });
    }
    current = null;
  };

  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ') && (current === null || isHeaderPair(line, lines[i + 1]!))) {
      finish();
      if (/^---\s+\/dev\/null\s*$/.test(line)) createsFile = true;
      if (/^\+\+\+\s+\/dev\/null\s*$/.test(lines[i + 1]!)) deletesFile = true;
      afterFileHeader = true;
      i += 1;
      continue;
    }
    if (HUNK_HEADER.test(line)) {
      finish();
      const m = /^@@\s*-(\d+)/.exec(line);
      current = start(m ? Number(m[1]) : undefined);
      continue;
    }
    if (current === null) {
      if (line.trim() === '' || PREAMBLE.test(line)) continue;
      // Before any header, a line is commentary (a repeated "// path"); after file headers
      // without an @@ line, or in a diff with no headers at all, it starts an implicit hunk.
      if (hasHeaders && !afterFileHeader) continue;
      current = start();
    }
    if (line.startsWith('\\')) {
      // "\ No newline at end of file" speaks of the line before it: old side, new side, or both.
      const before = current.lines[current.lines.length - 1]?.op;
      noFinalNewline ??= { old: false, new: false };
      if (before === 'del' || before === 'ctx') noFinalNewline.old = true;
      if (before === 'add' || before === 'ctx') noFinalNewline.new = true;
      continue;
    }
    if (line === '') {
      current.lines.push({ op: 'ctx', text: '' });
      current.rawEmpty.push(true);
      current.raw.push('');
      continue;
    }
    const marker = line[0];
    const op: EditLine['op'] = marker === '+' ? 'add' : marker === '-' ? 'del' : 'ctx';
    const text = marker === '+' || marker === '-' || marker === ' ' ? line.slice(1) : line;
    if (op === 'ctx' && marker !== ' ') current.unprefixed = true;
    current.lines.push({ op, text });
    current.rawEmpty.push(false);
    current.raw.push(op === 'ctx' ? line : null);
  }
  finish();
  if (hunks.length === 0) return fail('DIFF_MALFORMED', 'The diff has no hunks (no lines starting with " ", "+" or "-").');
  return ok({ hunks, createsFile, deletesFile, noFinalNewline });
}

/** A context line that only says "code skipped here": `...`, `// ...`, a C-style comment of dots, `// ... existing code ...`. */
function isElision(text: string): boolean {
  return /^\s*(\.\.\.|…)\s*$/.test(text) || findLazyPlaceholders(text, null).length > 0;
}

/** A `---`/`+++` pair inside a hunk is a new file header only if both name paths, not content. */
function isHeaderPair(minus: string, plus: string): boolean {
  return /^---\s+(a\/|\/dev\/null|\S+\.\w+)/.test(minus) && /^\+\+\+\s+(b\/|\/dev\/null|\S+\.\w+)/.test(plus);
}

/**
 * Variants of a hunk to try: as written, then without blank edge lines, then (when some context
 * lines had no one-space prefix, i.e. were pasted raw) with every context line taken whole.
 */
function hunkVariants(lines: readonly EditLine[], rawContext: Hunk['rawContext']): EditLine[][] {
  const asWritten = [...lines];
  const variants = [asWritten];
  const trimmed = trimBlankEdges(asWritten);
  if (trimmed.length !== asWritten.length) variants.push(trimmed);
  if (rawContext) {
    const raw = asWritten.map((l, i) => (l.op === 'ctx' && rawContext[i] !== null && rawContext[i] !== undefined ? { op: l.op, text: rawContext[i]! } : l));
    variants.push(raw, trimBlankEdges(raw));
  }
  return variants;
}

/** The parts of a hunk between its elision lines, each an edit of its own (parts that change nothing are dropped). */
function splitAtElisions(hunk: Hunk): Array<{ lines: EditLine[]; raw: (string | null)[] | null }> {
  const parts: Array<{ lines: EditLine[]; raw: (string | null)[] | null }> = [];
  let from = 0;
  for (const at of [...hunk.elisions, hunk.lines.length]) {
    const lines = hunk.lines.slice(from, at);
    if (lines.some((l) => l.op !== 'ctx')) parts.push({ lines, raw: hunk.rawContext ? hunk.rawContext.slice(from, at) : null });
    from = at + 1;
  }
  return parts;
}

/** Places one hunk; when it is not found as written and it skips context with "...", its parts are placed one by one. */
function applyHunk(file: FileText, hunk: Hunk, path: string, name: string, hint: number | undefined, budget: WorkBudget | undefined): Result<{ file: FileText; tier: MatchTier; end: number }, ApplyFailureCode> {
  const label = { name, notFound: 'HUNK_NOT_FOUND', ambiguous: 'HUNK_AMBIGUOUS' } as const;
  const whole = applyEdit(file, hunkVariants(hunk.lines, hunk.rawContext), path, label, { ...(hint === undefined ? {} : { hint }), ...(budget ? { budget } : {}) });
  if (whole.ok || whole.error.code !== 'HUNK_NOT_FOUND' || hunk.elisions.length === 0) return whole;
  let current = file;
  let tier: MatchTier = 'exact';
  let end = 0;
  for (const [i, part] of splitAtElisions(hunk).entries()) {
    const placed = applyEdit(current, hunkVariants(part.lines, part.raw), path, { ...label, name: `${name} (part ${i + 1}, after skipped context)` }, budget ? { budget } : {});
    if (!placed.ok) return placed;
    current = placed.value.file;
    end = placed.value.end;
    tier = placed.value.tier === 'exact' ? tier : placed.value.tier;
  }
  return ok({ file: current, tier, end });
}

/** The 0-based file line where a hunk's first non-blank old line should be, by its header's numbers. */
function lineHint(hunk: Hunk, applied: ReadonlyArray<{ oldStart: number; delta: number }>): number | undefined {
  if (hunk.oldStart === undefined) return undefined;
  const offset = applied.filter((a) => a.oldStart < hunk.oldStart!).reduce((sum, a) => sum + a.delta, 0);
  const old = hunk.lines.filter((l) => l.op !== 'add');
  const firstReal = old.findIndex((l) => l.text.trim() !== '');
  return firstReal === -1 ? undefined : hunk.oldStart - 1 + offset + firstReal;
}

/** True when the removed lines of a deletion diff are exactly the file's content (as git apply checks). */
function deletionMatches(file: FileText, hunks: readonly Hunk[]): boolean {
  const removed = hunks.flatMap((h) => h.lines.filter((l) => l.op === 'del').map((l) => l.text.trimEnd()));
  const content = file.lines.map((l) => l.text.trimEnd());
  while (removed.length > 0 && removed[removed.length - 1] === '' && removed.length > content.length) removed.pop();
  return removed.length === content.length && removed.every((line, i) => line === content[i]);
}

/**
 * Applies a diff. Hunks are placed by content, one after another on the evolving file, so they
 * may come in any order and may overlap. Returns null when the diff deletes the file.
 */
export function applyUnifiedDiff(
  file: FileText | null,
  body: string,
  path: string,
  options: { readonly trustLineNumbers?: boolean; readonly budget?: WorkBudget } = {},
): Result<{ file: FileText | null; tiers: MatchTier[] }, ApplyFailureCode> {
  const hasDiffMarkers = body.split('\n').some((l) => /^[-+@]/.test(l));
  if (file === null && !hasDiffMarkers && body.trim() !== '') {
    // Labelled as a diff but written as a whole new file: for a file that does not exist yet
    // that has one meaning. (For an existing file it would be a silent full replacement.)
    return ok({ file: { lines: body.split('\n').map(newLine), bom: false, eol: '\n', finalNewline: true }, tiers: [] });
  }
  if (file !== null && !hasDiffMarkers) return fail('DIFF_MALFORMED', `${path}: the block is labelled as a diff but has no "+", "-" or "@@" lines. Nothing was applied.`, path);
  const parsed = parseUnifiedDiff(body);
  if (!parsed.ok) return fail(parsed.error.code, `${path}: ${parsed.error.message}`, path);
  const { hunks } = parsed.value;
  const pureAddition = hunks.every((h) => h.lines.every((l) => l.op === 'add' || l.text.trim() === ''));
  if (file === null) {
    if (!parsed.value.createsFile && !pureAddition) {
      return fail('FILE_NOT_FOUND', `${path}: the diff edits a file that does not exist. Nothing was applied.`, path);
    }
    const added = hunks.flatMap((h) => h.lines.filter((l) => l.op === 'add').map((l) => newLine(l.text)));
    // "\ No newline at end of file" after the last added line: the new file ends without one.
    return ok({ file: { lines: added, bom: false, eol: '\n', finalNewline: parsed.value.noFinalNewline?.new !== true }, tiers: ['exact'] });
  }
  if (parsed.value.createsFile && file.lines.some((line) => line.text.trim() !== '')) {
    // A diff from /dev/null adds a file the assistant thought was not there: it is.
    return fail('FILE_EXISTS', `${path} already exists, but the diff creates it (from /dev/null; the assistant may not have seen it). Nothing was applied; ask for a diff against the current file instead.`, path);
  }
  if (parsed.value.deletesFile) {
    if (!deletionMatches(file, hunks)) {
      return fail('HUNK_NOT_FOUND', `${path}: the diff deletes the file, but the lines it removes are not the file's current content (it changed since the assistant saw it). Nothing was applied.`, path);
    }
    return ok({ file: null, tiers: ['exact'] });
  }
  let current = file;
  const tiers: MatchTier[] = [];
  // Line numbers are hints: they only decide between several places where a hunk matches. Each
  // is shifted by what the hunks applied so far added or removed above it.
  const applied: Array<{ oldStart: number; delta: number }> = [];
  for (const [index, hunk] of hunks.entries()) {
    const name = hunks.length > 1 ? `hunk ${index + 1}` : 'the hunk';
    if (!hunk.lines.some((l) => l.op !== 'add' && l.text.trim() !== '')) {
      if (current.lines.every((l) => l.text.trim() === '')) {
        current = { ...current, lines: hunk.lines.filter((l) => l.op === 'add').map((l) => newLine(l.text)) };
        tiers.push('exact');
        continue;
      }
      return fail('HUNK_NOT_FOUND', `${path}: ${name} has no context lines, so there is no way to tell where it goes.`, path);
    }
    const hint = options.trustLineNumbers === true ? lineHint(hunk, applied) : undefined;
    const placed = applyHunk(current, hunk, path, name, hint, options.budget);
    if (!placed.ok) return placed;
    current = placed.value.file;
    tiers.push(placed.value.tier);
    if (hunk.oldStart !== undefined) applied.push({ oldStart: hunk.oldStart, delta: hunk.lines.filter((l) => l.op === 'add').length - hunk.lines.filter((l) => l.op === 'del').length });
  }
  // Markers that agree with the file about the old side say what the new side should be.
  const markers = parsed.value.noFinalNewline;
  if (markers && markers.old !== markers.new && markers.old === !file.finalNewline) current = { ...current, finalNewline: !markers.new };
  return ok({ file: current, tiers });
}

/** One file's part of a multi-file diff, as git prints it. */
export interface DiffSection {
  /** The file the hunks apply to (after a rename, its new path). */
  readonly path: string;
  /** Set when the section moves the file (`rename from`/`rename to`). */
  readonly renamedFrom?: string;
  /** The `---`/`+++` headers and hunks; empty for a pure rename. */
  readonly body: string;
}

const GIT_HEADER = /^diff --git ("?)a\/(.+?)\1 ("?)b\/(.+?)\3\s*$/;

/**
 * Splits a diff that names its files (`diff --git` sections, or `--- a/x` / `+++ b/x` pairs) into
 * one part per file, with git's renames. Null when the body does not start with such headers.
 */
export function splitDiffSections(body: string): DiffSection[] | null {
  const lines = body.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) return null;
  const gitStarts = lines.flatMap((l, i) => (GIT_HEADER.test(l) ? [i] : []));
  if (gitStarts.length > 0 && gitStarts[0] === first) return gitSections(lines, gitStarts);
  if (!lines[first]!.startsWith('--- ') || !(lines[first + 1] ?? '').startsWith('+++ ')) return null;
  const starts: number[] = [];
  for (let i = first; i < lines.length - 1; i += 1) {
    if (lines[i]!.startsWith('--- ') && lines[i + 1]!.startsWith('+++ ') && (i === first || isHeaderPair(lines[i]!, lines[i + 1]!))) starts.push(i);
  }
  const sections: DiffSection[] = [];
  starts.forEach((start, k) => {
    const end = k + 1 < starts.length ? starts[k + 1]! : lines.length;
    const section = lines.slice(start, end);
    while (section.length > 0 && PREAMBLE.test(section[section.length - 1]!)) section.pop();
    const path = sectionPath(lines[start]!, lines[start + 1]!);
    if (path) sections.push({ path, body: section.join('\n') });
  });
  return sections.length > 0 ? sections : null;
}

function gitSections(lines: readonly string[], starts: readonly number[]): DiffSection[] | null {
  const sections: DiffSection[] = [];
  for (const [k, start] of starts.entries()) {
    const m = GIT_HEADER.exec(lines[start]!)!;
    const part = lines.slice(start + 1, k + 1 < starts.length ? starts[k + 1]! : lines.length);
    const renameFrom = part.find((l) => l.startsWith('rename from '))?.slice('rename from '.length).trim();
    const renameTo = part.find((l) => l.startsWith('rename to '))?.slice('rename to '.length).trim();
    const headerAt = part.findIndex((l, i) => l.startsWith('--- ') && (part[i + 1] ?? '').startsWith('+++ '));
    const body = headerAt === -1 ? '' : part.slice(headerAt).join('\n');
    const path = headerAt === -1 ? (renameTo ?? m[4]!) : (sectionPath(part[headerAt]!, part[headerAt + 1]!) ?? m[4]!);
    sections.push({ path, body, ...(renameFrom && renameTo ? { renamedFrom: renameFrom } : {}) });
  }
  return sections.length > 0 ? sections : null;
}

/** The path a `---`/`+++` pair is about (the old one for a deletion), without git's a/ b/ prefixes. */
function sectionPath(minus: string, plus: string): string | null {
  const oldPath = headerPath(minus.slice(4));
  const newPath = headerPath(plus.slice(4));
  const gitStyle = oldPath.startsWith('a/') || newPath.startsWith('b/');
  const chosen = newPath === '/dev/null' ? oldPath : newPath;
  const path = gitStyle ? chosen.replace(/^[ab]\//, '') : chosen;
  return path && path !== '/dev/null' ? path : null;
}

/** The path of a ---/+++ header line, without a trailing timestamp and quotes. */
function headerPath(raw: string): string {
  let value = raw.split('\t')[0]!.trim();
  if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return value;
}
