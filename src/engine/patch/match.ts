import type { FileText, Line } from './text.js';
import { newLine } from './text.js';

/** One line of an edit: kept context, a line to remove, or a line to add. */
export interface EditLine {
  readonly op: 'ctx' | 'del' | 'add';
  readonly text: string;
}

/**
 * The matching tiers, tried in order; the first tier with any match decides.
 * exact → loose (line endings, trailing and inner whitespace runs, Unicode punctuation)
 * → indent (leading whitespace differs but relative indentation is consistent; the
 * replacement is re-indented) → fuzzy (blank lines skipped, a few context lines differ).
 */
export type MatchTier = 'exact' | 'loose' | 'indent' | 'fuzzy';
export const MATCH_TIERS: readonly MatchTier[] = ['exact', 'loose', 'indent', 'fuzzy'];

/** Where an edit's old lines sit in the file: pairs of (old line index, file line index). */
export interface Placement {
  readonly tier: MatchTier;
  readonly start: number;
  readonly end: number;
  readonly pairs: ReadonlyArray<readonly [number, number]>;
}

export type LocateResult =
  | { readonly kind: 'found'; readonly placement: Placement }
  | { readonly kind: 'ambiguous'; readonly tier: MatchTier; readonly lines: readonly number[]; readonly placements: readonly Placement[] }
  | { readonly kind: 'missing' };

const PUNCTUATION: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u00B4]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' '],
  [/[\u200B\u200C\u200D\u2060\uFEFF]/g, ''],
];

function normalisePunctuation(text: string): string {
  // Fast path: plain ASCII lines (nearly all code) need no work.
  if (/^[\x00-\x7F]*$/.test(text)) return text;
  // Composed and decomposed accents (NFC/NFD) are the same text.
  let out = text.normalize('NFC');
  for (const [pattern, replacement] of PUNCTUATION) out = out.replace(pattern, replacement);
  return out;
}

function leadingWhitespace(text: string): string {
  return /^[ \t]*/.exec(text)![0];
}

/** The comparison key of a line for a tier. */
export function lineKey(text: string, tier: MatchTier): string {
  switch (tier) {
    case 'exact':
      return text;
    case 'loose': {
      const indent = leadingWhitespace(text);
      return indent + normalisePunctuation(text.slice(indent.length)).replace(/[ \t]+/g, ' ').trimEnd();
    }
    case 'indent':
    case 'fuzzy':
      return normalisePunctuation(text).replace(/[ \t]+/g, ' ').trim();
  }
}

const TAB_WIDTH = 4;

/** Width of leading whitespace with tabs counted as four columns. */
export function indentWidth(text: string): number {
  let width = 0;
  for (const ch of leadingWhitespace(text)) width += ch === '\t' ? TAB_WIDTH : 1;
  return width;
}

/** Caches the per-tier keys of a file's lines (a file is searched many times per patch). */
export class KeyedFile {
  private readonly keys = new Map<MatchTier, string[]>();
  private readonly index = new Map<MatchTier, Map<string, number[]>>();
  constructor(readonly file: FileText) {}

  keysFor(tier: MatchTier): string[] {
    let keys = this.keys.get(tier);
    if (!keys) {
      keys = this.file.lines.map((l) => lineKey(l.text, tier));
      this.keys.set(tier, keys);
    }
    return keys;
  }

  /** Line numbers whose key equals `key`. */
  positionsOf(tier: MatchTier, key: string): readonly number[] {
    let map = this.index.get(tier);
    if (!map) {
      map = new Map();
      this.keysFor(tier).forEach((k, i) => {
        const list = map!.get(k);
        if (list) list.push(i);
        else map!.set(k, [i]);
      });
      this.index.set(tier, map);
    }
    return map.get(key) ?? [];
  }
}

/** Finds the single place where `old` lines occur, trying the tiers in order. */
export function locate(keyed: KeyedFile, edit: readonly EditLine[], tiers: readonly MatchTier[] = MATCH_TIERS): LocateResult {
  const old: string[] = [];
  const removals = new Set<number>();
  for (const e of edit) {
    if (e.op === 'add') continue;
    if (e.op === 'del') removals.add(old.length);
    old.push(e.text);
  }
  if (old.length === 0) return { kind: 'missing' };
  for (const tier of tiers) {
    const found = tier === 'fuzzy' ? locateFuzzy(keyed, old, removals) : locateContiguous(keyed, old, tier);
    if (found.length === 1) return { kind: 'found', placement: found[0]! };
    if (found.length > 1) {
      // A place made only of lines an earlier edit of this answer inserted is not where the
      // answer meant: it could not have seen them. If that leaves one place, it is the one.
      const original = found.filter((p) => p.pairs.some(([, f]) => keyed.file.lines[f]!.inserted !== true));
      if (original.length === 1) return { kind: 'found', placement: original[0]! };
      return { kind: 'ambiguous', tier, lines: found.map((p) => p.start + 1), placements: found };
    }
  }
  return { kind: 'missing' };
}

function locateContiguous(keyed: KeyedFile, old: readonly string[], tier: MatchTier): Placement[] {
  const keys = keyed.keysFor(tier);
  const oldKeys = old.map((t) => lineKey(t, tier));
  // Anchor on the most selective non-blank line to keep the scan cheap on long files.
  let anchor = 0;
  let anchorCount = Infinity;
  oldKeys.forEach((k, i) => {
    if (k.trim() === '') return;
    const count = keyed.positionsOf(tier, k).length;
    if (count < anchorCount) {
      anchor = i;
      anchorCount = count;
    }
  });
  const candidates = anchorCount === Infinity ? keys.map((_, i) => i + anchor) : keyed.positionsOf(tier, oldKeys[anchor]!);
  const found: Placement[] = [];
  for (const at of candidates) {
    const start = at - anchor;
    if (start < 0 || start + old.length > keys.length) continue;
    let same = true;
    for (let j = 0; j < old.length; j += 1) {
      if (keys[start + j] !== oldKeys[j]) {
        same = false;
        break;
      }
    }
    if (!same) continue;
    const pairs = old.map((_, j) => [j, start + j] as const);
    if (tier === 'indent' && !indentStructureAgrees(old, keyed.file.lines, pairs)) continue;
    found.push({ tier, start, end: start + old.length, pairs });
  }
  return found;
}

/**
 * Whether the old lines and the file lines they were paired with have the same relative
 * indentation: between consecutive non-blank lines, both go deeper, stay level, or go back
 * together. Widths are compared, so a file that mixes tabs and spaces still qualifies, but
 * shifted structure (Python's meaning) does not.
 */
export function indentStructureAgrees(old: readonly string[], fileLines: readonly Line[], pairs: ReadonlyArray<readonly [number, number]>): boolean {
  let previous: { old: number; file: number } | null = null;
  // The first line is where a copy most often starts at the first non-blank character; its
  // own indentation is not compared, only the structure from the second line on.
  const first = pairs.findIndex(([o]) => old[o]!.trim() !== '');
  for (const [k, [o, f]] of pairs.entries()) {
    const oldText = old[o]!;
    if (oldText.trim() === '' || k === first) continue;
    const current = { old: indentWidth(oldText), file: indentWidth(fileLines[f]!.text) };
    if (previous && Math.sign(current.old - previous.old) !== Math.sign(current.file - previous.file)) return false;
    previous = current;
  }
  return true;
}

/**
 * For each indentation width of the old lines, the indentation the file uses there: the old
 * indentation itself when the file has it verbatim for that width, else the file's most common.
 */
export function indentMapping(old: readonly string[], fileLines: readonly Line[], pairs: ReadonlyArray<readonly [number, number]>): Map<number, string> {
  const seen = new Map<number, Map<string, number>>();
  const verbatim = new Map<number, string>();
  for (const [o, f] of pairs) {
    const oldText = old[o]!;
    if (oldText.trim() === '') continue;
    const oldIndent = leadingWhitespace(oldText);
    const fileIndent = leadingWhitespace(fileLines[f]!.text);
    const width = indentWidth(oldText);
    const counts = seen.get(width) ?? new Map<string, number>();
    counts.set(fileIndent, (counts.get(fileIndent) ?? 0) + 1);
    seen.set(width, counts);
    if (oldIndent === fileIndent) verbatim.set(width, fileIndent);
  }
  const mapping = new Map<number, string>();
  for (const [width, counts] of seen) {
    mapping.set(width, verbatim.get(width) ?? [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
  }
  return mapping;
}

const FUZZY_MIN_LINES = 3;

/**
 * Bounded fuzzy placement: blank lines are ignored on both sides, every removed line must match
 * (ignoring whitespace), and at most a quarter of the context lines (at least one) may differ,
 * each still similar. The best window must be unique.
 */
function locateFuzzy(keyed: KeyedFile, old: readonly string[], removals: ReadonlySet<number>): Placement[] {
  const keys = keyed.keysFor('fuzzy');
  const oldIdx = old.map((_, i) => i).filter((i) => old[i]!.trim() !== '');
  if (oldIdx.length < FUZZY_MIN_LINES) return [];
  const oldKeys = oldIdx.map((i) => lineKey(old[i]!, 'fuzzy'));
  const fileIdx: number[] = [];
  const nonBlankIndex = new Map<number, number>();
  keys.forEach((k, i) => {
    if (k === '') return;
    nonBlankIndex.set(i, fileIdx.length);
    fileIdx.push(i);
  });
  const m = oldIdx.length;
  const contextCount = oldIdx.filter((i) => !removals.has(i)).length;
  const allowedMisses = Math.max(1, Math.floor(contextCount / 4));
  const neededHits = Math.max(m - allowedMisses, Math.ceil(m / 2));
  // Only windows where enough lines already agree exactly are worth an edit-distance check.
  const votes = new Map<number, number>();
  oldKeys.forEach((k, j) => {
    for (const at of keyed.positionsOf('fuzzy', k)) {
      for (const s of [nonBlankIndex.get(at)! - j, nonBlankIndex.get(at)! - j - 1]) {
        if (s >= 0 && s + m <= fileIdx.length) votes.set(s, (votes.get(s) ?? 0) + 1);
      }
    }
  });
  /** Misses of old line j against file position p (Infinity: a removal differs, or too unlike). */
  const miss = (j: number, p: number): number => {
    const fk = keys[fileIdx[p]!]!;
    if (fk === oldKeys[j]) return 0;
    if (removals.has(oldIdx[j]!)) return Infinity;
    return similarity(fk, oldKeys[j]!) < 0.6 ? Infinity : 1;
  };
  // Every qualifying window counts: two of them mean the text repeats, which is ambiguous.
  const placements = new Map<string, Placement>();
  for (const [s, hits] of [...votes.entries()].sort((a, b) => a[0] - b[0])) {
    if (hits < neededHits - 1) continue;
    // skip = -1: the window as is; skip = k: one file line the answer left out sits before old line k.
    for (let skip = -1; skip < m; skip += 1) {
      if (skip === 0) continue;
      if (skip > 0 && (s + m >= fileIdx.length || removals.has(oldIdx[skip - 1]!) || removals.has(oldIdx[skip]!))) continue;
      let misses = skip > 0 ? 1 : 0;
      for (let j = 0; j < m && misses <= allowedMisses; j += 1) misses += miss(j, s + j + (skip > 0 && j >= skip ? 1 : 0));
      if (misses > allowedMisses) continue;
      const pairs = oldIdx.map((o, j) => [o, fileIdx[s + j + (skip > 0 && j >= skip ? 1 : 0)]!] as const);
      // Fuzzy never relaxes indentation structure: in Python it is meaning, not style.
      if (!indentStructureAgrees(old, keyed.file.lines, pairs)) continue;
      const key = pairs.map(([, f]) => f).join(',');
      if (!placements.has(key)) placements.set(key, { tier: 'fuzzy', start: pairs[0]![1], end: pairs[pairs.length - 1]![1] + 1, pairs });
      break;
    }
  }
  return [...placements.values()];
}

/** Similarity of two strings in [0, 1] from their edit distance. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  if (Math.abs(a.length - b.length) / longest > 0.5) return 0;
  return 1 - levenshtein(a, b) / longest;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const cur = [i];
    for (let j = 1; j <= b.length; j += 1) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The indentation step of a file: a tab, or the most common increase in leading spaces. */
export function detectIndentUnit(lines: readonly string[]): string {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const text of lines) {
    if (text.trim() === '') continue;
    if (text.startsWith('\t')) tabs += 1;
    else if (text.startsWith(' ')) spaces += 1;
    const width = indentWidth(text);
    const step = width - previous;
    if (step > 0 && !text.startsWith('\t')) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = width;
  }
  if (tabs > spaces) return '\t';
  let unit = 0;
  let seen = 0;
  for (const [step, count] of steps) {
    if (step <= 8 && (count > seen || (count === seen && step < unit))) {
      unit = step;
      seen = count;
    }
  }
  return ' '.repeat(unit || 2);
}

/**
 * Builds the lines that replace the placed region: context lines come from the file verbatim,
 * removed lines go, added lines are written with the file's indentation when the match was
 * made by relative indentation.
 */
export function renderPlacement(file: FileText, edit: readonly EditLine[], placement: Placement): Line[] {
  const oldLines = edit.filter((e) => e.op !== 'add').map((e) => e.text);
  const fileOf = new Map(placement.pairs.map(([o, f]) => [o, f]));
  const reindent = makeReindenter(file, edit, oldLines, placement);
  const out: Line[] = [];
  let cursor = placement.start;
  let oldIndex = 0;
  let previousOp: EditLine['op'] | null = null;
  const nextAlignedOp = (fromOld: number): EditLine['op'] | null => {
    let o = 0;
    for (const e of edit) {
      if (e.op === 'add') continue;
      if (o >= fromOld && fileOf.has(o)) return e.op;
      o += 1;
    }
    return null;
  };
  for (const e of edit) {
    if (e.op === 'add') {
      out.push(newLine(reindent(e.text)));
      continue;
    }
    const target = fileOf.get(oldIndex);
    if (target === undefined && e.text.trim() === '') {
      // A blank line of the answer the fuzzy tier did not pair: it stands for the file's blank
      // line at this point, if there is one, so what follows lands after it.
      const line = file.lines[cursor];
      if (line && line.text.trim() === '' && cursor < placement.end) {
        if (e.op === 'ctx') out.push(line);
        cursor += 1;
      }
    }
    if (target !== undefined) {
      // File lines the fuzzy tier skipped stay; blank ones inside a removal go with it.
      const dropBlankGap = previousOp === 'del' && nextAlignedOp(oldIndex) === 'del';
      for (let k = cursor; k < target; k += 1) if (!dropBlankGap || file.lines[k]!.text.trim() !== '') out.push(file.lines[k]!);
      if (e.op === 'ctx') out.push(file.lines[target]!);
      cursor = target + 1;
      previousOp = e.op;
    }
    oldIndex += 1;
  }
  return out;
}

function makeReindenter(file: FileText, edit: readonly EditLine[], oldLines: readonly string[], placement: Placement): (text: string) => string {
  if (placement.tier === 'exact' || placement.tier === 'loose') return (text) => text;
  const verbatim = placement.pairs.every(([o, f]) => oldLines[o]!.trim() === '' || leadingWhitespace(oldLines[o]!) === leadingWhitespace(file.lines[f]!.text));
  if (verbatim) return (text) => text;
  const mapping = indentMapping(oldLines, file.lines, placement.pairs);
  if (mapping.size === 0) return (text) => text;
  const fileUnit = detectIndentUnit(file.lines.map((l) => l.text));
  const oldUnitWidth = indentWidth(detectIndentUnit(edit.map((e) => e.text))) || 2;
  const known = [...mapping.entries()].sort((a, b) => a[0] - b[0]);
  const fileUsesTabs = [...mapping.values()].some((indent) => indent.includes('\t'));
  return (text) => {
    if (text.trim() === '') return '';
    // A tab-indented line for a tab-indented file is already in the file's style.
    if (fileUsesTabs && /^\t+\S/.test(text)) return text;
    const width = indentWidth(text);
    const body = text.slice(leadingWhitespace(text).length);
    const exact = mapping.get(width);
    if (exact !== undefined) return exact + body;
    const below = [...known].reverse().find(([w]) => w < width);
    if (below) {
      const levels = Math.max(0, Math.round((width - below[0]) / oldUnitWidth));
      return below[1] + fileUnit.repeat(levels) + body;
    }
    const above = known[0]!;
    const levels = Math.round((above[0] - width) / oldUnitWidth);
    let indent = above[1];
    for (let i = 0; i < levels; i += 1) indent = indent.endsWith(fileUnit) ? indent.slice(0, indent.length - fileUnit.length) : indent.replace(/[ \t]$/, '');
    return indent + body;
  };
}
