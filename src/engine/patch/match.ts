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

/** A tier's view of the file: the lines compared (blank ones dropped for blank-lines), their ids and prefix hashes. */
interface Sequence {
  readonly keys: readonly string[];
  /** File line of each position. */
  readonly lines: readonly number[];
  readonly prefixA: Float64Array;
  readonly prefixB: Float64Array;
}

/** A file prepared for searching: per-tier keys, line ids and rolling hashes, built on first use. */
export class KeyedFile {
  private readonly ids = new Map<string, number>();
  private readonly sequences = new Map<MatchTier, Sequence>();
  private powers: { a: number[]; b: number[] } = { a: [1], b: [1] };
  constructor(readonly file: FileText) {}

  /** The stable id of a key (ids are shared by every tier; keys of different tiers never meet). */
  idOf(key: string, create: boolean): number | undefined {
    let id = this.ids.get(key);
    if (id === undefined && create) {
      id = this.ids.size + 1;
      this.ids.set(key, id);
    }
    return id;
  }

  sequence(tier: MatchTier): Sequence {
    let seq = this.sequences.get(tier);
    if (seq) return seq;
    const keys: string[] = [];
    const lines: number[] = [];
    this.file.lines.forEach((line, i) => {
      const key = fileLineKey(line, tier);
      if (tier === 'blank-lines' && key === '') return;
      keys.push(key);
      lines.push(i);
    });
    const prefixA = new Float64Array(keys.length + 1);
    const prefixB = new Float64Array(keys.length + 1);
    keys.forEach((key, i) => {
      const id = this.idOf(key, true)!;
      prefixA[i + 1] = (prefixA[i]! * BASE_A + id) % MOD_A;
      prefixB[i + 1] = (prefixB[i]! * BASE_B + id) % MOD_B;
    });
    seq = { keys, lines, prefixA, prefixB };
    this.sequences.set(tier, seq);
    return seq;
  }

  /** BASE^length modulo each modulus. */
  power(length: number): { a: number; b: number } {
    const { a, b } = this.powers;
    while (a.length <= length) {
      a.push((a[a.length - 1]! * BASE_A) % MOD_A);
      b.push((b[b.length - 1]! * BASE_B) % MOD_B);
    }
    return { a: a[length]!, b: b[length]! };
  }
}

/** At most this many places are collected: beyond it an edit is ambiguous whatever the filters say. */
const MAX_PLACEMENTS = 64;

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
  const oldIndex: number[] = [];
  const oldKeys: string[] = [];
  old.forEach((text, i) => {
    const key = lineKey(text, tier);
    if (tier === 'blank-lines' && key === '') return;
    oldIndex.push(i);
    oldKeys.push(key);
  });
  const m = oldKeys.length;
  if (m === 0) return [];
  const seq = keyed.sequence(tier); // registers the file's keys of this tier first
  let hashA = 0;
  let hashB = 0;
  for (const key of oldKeys) {
    const id = keyed.idOf(key, false);
    if (id === undefined) return []; // a line the file does not have in this tier
    hashA = (hashA * BASE_A + id) % MOD_A;
    hashB = (hashB * BASE_B + id) % MOD_B;
  }
  const n = seq.keys.length;
  if (m > n) return [];
  const power = keyed.power(m);
  const from = options.from ?? 0;
  const found: Placement[] = [];
  for (let s = options.atEnd === true ? n - m : 0; s + m <= n && found.length < MAX_PLACEMENTS; s += 1) {
    if (seq.lines[s]! < from) continue;
    const a = (((seq.prefixA[s + m]! - ((seq.prefixA[s]! * power.a) % MOD_A)) % MOD_A) + MOD_A) % MOD_A;
    if (a !== hashA) continue;
    const b = (((seq.prefixB[s + m]! - ((seq.prefixB[s]! * power.b) % MOD_B)) % MOD_B) + MOD_B) % MOD_B;
    if (b !== hashB) continue;
    let same = true;
    for (let j = 0; j < m && same; j += 1) same = seq.keys[s + j] === oldKeys[j];
    if (!same) continue;
    const pairs = oldIndex.map((o, j) => [o, seq.lines[s + j]!] as const);
    if ((tier === 'indent' || tier === 'blank-lines') && !indentStructureAgrees(old, keyed.file.lines, pairs)) continue;
    const start = tier === 'blank-lines' ? pairs[0]![1] : seq.lines[s]!;
    const end = tier === 'blank-lines' ? pairs[pairs.length - 1]![1] + 1 : seq.lines[s + m - 1]! + 1;
    found.push({ tier, start, end, pairs });
    if (options.first === true) break;
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
