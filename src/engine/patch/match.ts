import type { FileText, Line } from './text.js';

/** One line of an edit: kept context, a line to remove, or a line to add. */
export interface EditLine {
  readonly op: 'ctx' | 'del' | 'add';
  readonly text: string;
}

/**
 * The matching tiers, tried in order; the first tier with any match decides. Every tier
 * compares the whole text of every context and removed line; they differ only in which
 * whitespace they ignore, never in the code:
 * exact → loose (line endings, trailing and inner whitespace runs, and the typographic quotes,
 * dashes and spaces chat windows substitute) → indent (leading whitespace differs but relative
 * indentation is consistent; the replacement is re-indented) → blank-lines (as indent, and
 * blank lines the answer added or left out are skipped on both sides).
 */
export type MatchTier = 'exact' | 'loose' | 'indent' | 'blank-lines';
export const MATCH_TIERS: readonly MatchTier[] = ['exact', 'loose', 'indent', 'blank-lines'];

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

/**
 * A bound on the matching work of one answer: file lines scanned, summed over every edit and
 * tier. Real answers use a small fraction of it; a pathological one (thousands of edits of a
 * growing file) is refused instead of taking seconds.
 */
export class WorkBudget {
  constructor(private left: number) {}

  /** Takes `lines` from the budget; false once it is spent. */
  charge(lines: number): boolean {
    this.left -= lines;
    return this.left >= 0;
  }
}

/** Line visits one answer's plan may spend (about 200 ms on a slow machine). */
export const PLAN_WORK_LINES = 2_000_000;

/** How to choose among places: the single one (default) or the first from `from` on (V4A after an anchor). */
export interface LocateOptions {
  /** First file line a match may start at. */
  readonly from?: number;
  /** Take the first match at or after `from` instead of requiring a single one. */
  readonly first?: boolean;
  /** The file line where the first non-blank old line is expected (a diff's line number): decides between several places. */
  readonly hint?: number;
  /** Only a place that ends with the file's last (non-blank) line counts (V4A's `*** End of File`). */
  readonly atEnd?: boolean;
  /** The answer's matching budget; charged per tier tried. */
  readonly budget?: WorkBudget;
  /** Keys of the edit's lines already computed, per tier (variants of one edit share most lines). */
  readonly keys?: Map<MatchTier, Map<string, string>>;
}

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

/** The spaces and tabs a line starts with. */
export function leadingWhitespace(text: string): string {
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
    case 'blank-lines':
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

/**
 * The loose and whitespace-free keys of a file line, computed once per line object: a file is
 * searched by every edit of an answer, and unchanged lines keep their object across edits.
 */
const lineKeys = new WeakMap<Line, { loose?: string; bare?: string }>();

function fileLineKey(line: Line, tier: MatchTier): string {
  if (tier === 'exact') return line.text;
  let cached = lineKeys.get(line);
  if (!cached) {
    cached = {};
    lineKeys.set(line, cached);
  }
  if (tier === 'loose') return (cached.loose ??= lineKey(line.text, 'loose'));
  return (cached.bare ??= lineKey(line.text, 'indent'));
}

// Two polynomial rolling hashes over line ids; moduli below 2^26 keep every product exact in a double.
const MOD_A = 67108859;
const MOD_B = 67108837;
const BASE_A = 40503;
const BASE_B = 52511;

/** A tier's view of the file: the line ids compared (blank ones dropped for blank-lines) and their prefix hashes. */
interface Sequence {
  readonly ids: Int32Array;
  /** File line of each position; null when position and line are the same (every tier but blank-lines). */
  readonly lines: Int32Array | null;
  /** Rolling-hash prefixes, built only when a search must fall back to them (see locateInTier). */
  prefixes?: { readonly a: Float64Array; readonly b: Float64Array };
}

/** The rolling-hash prefixes of a sequence, built on first need. */
function prefixesOf(seq: Sequence): { readonly a: Float64Array; readonly b: Float64Array } {
  if (seq.prefixes) return seq.prefixes;
  const { ids } = seq;
  const a = new Float64Array(ids.length + 1);
  const b = new Float64Array(ids.length + 1);
  for (let i = 0; i < ids.length; i += 1) {
    a[i + 1] = (a[i]! * BASE_A + ids[i]!) % MOD_A;
    b[i + 1] = (b[i]! * BASE_B + ids[i]!) % MOD_B;
  }
  seq.prefixes = { a, b };
  return seq.prefixes;
}

/** The same id space for every version of a file an answer produces (ids of equal keys are equal). */
class KeyIds {
  private readonly ids = new Map<string, number>();
  get(key: string, create: boolean): number | undefined {
    let id = this.ids.get(key);
    if (id === undefined && create) {
      id = this.ids.size + 1;
      this.ids.set(key, id);
    }
    return id;
  }
}

/** The files already prepared for searching: an edit of a file derives the next version's index instead of rebuilding it. */
const prepared = new WeakMap<FileText, KeyedFile>();

/**
 * A file prepared for searching: per-tier line ids and rolling hashes, built on first use. The
 * version after an edit is derived by splicing (unchanged lines keep their ids), so many edits
 * of one file cost a copy and some arithmetic each, not a re-reading of every line.
 */
export class KeyedFile {
  private readonly sequences = new Map<MatchTier, Sequence>();
  private static powers: { a: number[]; b: number[] } = { a: [1], b: [1] };
  private constructor(
    readonly file: FileText,
    private readonly keyIds: KeyIds,
  ) {}

  /** The prepared form of a file (shared by every edit that searches this version). */
  static of(file: FileText): KeyedFile {
    let keyed = prepared.get(file);
    if (!keyed) {
      keyed = new KeyedFile(file, new KeyIds());
      prepared.set(file, keyed);
    }
    return keyed;
  }

  /** Registers the version made by replacing `removed` lines at `start` with `inserted` lines (it is `next`). */
  spliced(next: FileText, start: number, removed: number, inserted: number): void {
    if (prepared.has(next)) return;
    const derived = new KeyedFile(next, this.keyIds);
    for (const [tier, seq] of this.sequences) {
      if (seq.lines !== null) continue; // blank-lines maps positions to lines: rebuilt when needed
      const ids = new Int32Array(next.lines.length);
      ids.set(seq.ids.subarray(0, start), 0);
      for (let k = 0; k < inserted; k += 1) ids[start + k] = this.keyIds.get(fileLineKey(next.lines[start + k]!, tier), true)!;
      ids.set(seq.ids.subarray(start + removed), start + inserted);
      derived.sequences.set(tier, { ids, lines: null });
    }
    prepared.set(next, derived);
  }

  /** The id of a key in this file's id space (undefined when no line has it and `create` is false). */
  idOf(key: string, create: boolean): number | undefined {
    return this.keyIds.get(key, create);
  }

  /** The tier's sequence, built on first use. */
  sequence(tier: MatchTier): Sequence {
    let seq = this.sequences.get(tier);
    if (seq) return seq;
    const all = this.file.lines;
    const positions: number[] = [];
    const idList: number[] = [];
    for (let i = 0; i < all.length; i += 1) {
      const key = fileLineKey(all[i]!, tier);
      if (tier === 'blank-lines' && key === '') continue;
      positions.push(i);
      idList.push(this.keyIds.get(key, true)!);
    }
    seq = { ids: Int32Array.from(idList), lines: tier === 'blank-lines' ? Int32Array.from(positions) : null };
    this.sequences.set(tier, seq);
    return seq;
  }

  /** Whether the tier's sequence is already built (building costs a pass over the file). */
  has(tier: MatchTier): boolean {
    return this.sequences.has(tier);
  }

  /** BASE^length modulo each modulus. */
  power(length: number): { a: number; b: number } {
    const { a, b } = KeyedFile.powers;
    while (a.length <= length) {
      a.push((a[a.length - 1]! * BASE_A) % MOD_A);
      b.push((b[b.length - 1]! * BASE_B) % MOD_B);
    }
    return { a: a[length]!, b: b[length]! };
  }
}

/** At most this many places are collected: beyond it an edit is ambiguous whatever the filters say. */
const MAX_PLACEMENTS = 64;
/** Up to this many places starting with the edit's first line are checked one by one; more go through the rolling hash. */
const DIRECT_CANDIDATES = 256;

/** Finds where `old` lines occur, trying the tiers in order (the single place, or as `options` say). */
export function locate(keyed: KeyedFile, edit: readonly EditLine[], tiers: readonly MatchTier[] = MATCH_TIERS, options: LocateOptions = {}): LocateResult {
  const old: string[] = [];
  for (const e of edit) if (e.op !== 'add') old.push(e.text);
  if (old.length === 0) return { kind: 'missing' };
  for (const tier of tiers) {
    const found = locateInTier(keyed, old, tier, options);
    if (found.length === 0) continue;
    if (found.length === 1 || options.first === true) return { kind: 'found', placement: found[0]! };
    // A place made only of lines an earlier edit of this answer inserted is not where the
    // answer meant: it could not have seen them. If that leaves one place, it is the one.
    const original = found.filter((p) => p.pairs.some(([, f]) => keyed.file.lines[f]!.inserted !== true));
    if (original.length === 1) return { kind: 'found', placement: original[0]! };
    if (options.hint !== undefined) {
      const firstReal = old.findIndex((t) => t.trim() !== '');
      const atHint = found.filter((p) => p.pairs.some(([o, f]) => o === firstReal && f === options.hint));
      if (atHint.length === 1) return { kind: 'found', placement: atHint[0]! };
    }
    return { kind: 'ambiguous', tier, lines: found.map((p) => p.start + 1), placements: found };
  }
  return { kind: 'missing' };
}

/**
 * Every place (up to MAX_PLACEMENTS) where the old lines' keys equal a run of the file's keys.
 * Windows are compared by rolling hash, so the work is linear in the file whatever the lines
 * repeat; a hash hit is confirmed key by key.
 */
function locateInTier(keyed: KeyedFile, old: readonly string[], tier: MatchTier, options: LocateOptions): Placement[] {
  const seq = keyed.sequence(tier); // registers the file's keys of this tier first
  let memo = options.keys?.get(tier);
  if (options.keys && !memo) options.keys.set(tier, (memo = new Map()));
  const oldIndex: number[] = [];
  const idList: number[] = [];
  for (const [i, text] of old.entries()) {
    let key = memo?.get(text);
    if (key === undefined) {
      key = lineKey(text, tier);
      memo?.set(text, key);
    }
    if (tier === 'blank-lines' && key === '') continue;
    const id = keyed.idOf(key, false);
    if (id === undefined) return []; // a line the file does not have in this tier: no need to look further
    oldIndex.push(i);
    idList.push(id);
  }
  const m = idList.length;
  if (m === 0) return [];
  const oldIds = Int32Array.from(idList);
  const { ids } = seq;
  const n = ids.length;
  if (m > n) return [];
  const lineAt = (position: number): number => (seq.lines === null ? position : seq.lines[position]!);
  const from = options.from ?? 0;
  let first = options.atEnd === true ? n - m : 0;
  while (first <= n - m && lineAt(first) < from) first += 1;
  const found: Placement[] = [];
  const consider = (s: number): boolean => {
    for (let j = 0; j < m; j += 1) if (ids[s + j] !== oldIds[j]) return false;
    const pairs = oldIndex.map((o, j) => [o, lineAt(s + j)] as const);
    if ((tier === 'indent' || tier === 'blank-lines') && !indentStructureAgrees(old, keyed.file.lines, pairs)) return false;
    found.push({ tier, start: pairs[0]![1], end: pairs[pairs.length - 1]![1] + 1, pairs });
    return true;
  };
  const last = n - m;
  // Most edits start with a line that occurs a few times at most: check those places directly.
  const starts: number[] = [];
  for (let s = first; s <= last && starts.length <= DIRECT_CANDIDATES; s += 1) if (ids[s] === oldIds[0]) starts.push(s);
  if (starts.length <= DIRECT_CANDIDATES) {
    for (const s of starts) {
      if (consider(s) && options.first === true) break;
      if (found.length >= MAX_PLACEMENTS) break;
    }
    return found;
  }
  // A first line that repeats everywhere (`}`, a blank): compare windows by rolling hash, so the
  // work stays linear in the file whatever the lines repeat; a hash hit is confirmed id by id.
  const prefixes = prefixesOf(seq);
  let hashA = 0;
  let hashB = 0;
  for (let j = 0; j < m; j += 1) {
    hashA = (hashA * BASE_A + oldIds[j]!) % MOD_A;
    hashB = (hashB * BASE_B + oldIds[j]!) % MOD_B;
  }
  const power = keyed.power(m);
  for (let s = first; s <= last && found.length < MAX_PLACEMENTS; s += 1) {
    const a = (((prefixes.a[s + m]! - ((prefixes.a[s]! * power.a) % MOD_A)) % MOD_A) + MOD_A) % MOD_A;
    if (a !== hashA) continue;
    const b = (((prefixes.b[s + m]! - ((prefixes.b[s]! * power.b) % MOD_B)) % MOD_B) + MOD_B) % MOD_B;
    if (b !== hashB) continue;
    if (consider(s) && options.first === true) break;
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
  // The first line is where a copy most often starts at the first non-blank character: when it
  // sits flush left while the file's is indented, its own indentation says nothing and only the
  // structure from the second line on is compared. Otherwise it is the first reference: a body
  // flattened to the level of its `def main():` does not agree with the file's.
  const first = pairs.findIndex(([o]) => old[o]!.trim() !== '');
  const firstPair = first === -1 ? undefined : pairs[first];
  const skipFirst = firstPair !== undefined && indentWidth(old[firstPair[0]]!) === 0 && indentWidth(fileLines[firstPair[1]]!.text) > 0;
  for (const [k, [o, f]] of pairs.entries()) {
    const oldText = old[o]!;
    if (oldText.trim() === '' || (k === first && skipFirst)) continue;
    const current = { old: indentWidth(oldText), file: indentWidth(fileLines[f]!.text) };
    if (previous && Math.sign(current.old - previous.old) !== Math.sign(current.file - previous.file)) return false;
    previous = current;
  }
  return true;
}
