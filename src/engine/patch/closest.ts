/**
 * When an edit matches nowhere, the person (and the assistant) need to see what the file has
 * instead: the run of lines most like the ones the edit looked for, with how alike they are.
 * Only computed for a refusal, and bounded so that a huge file or a huge edit stays cheap.
 */
import type { FileText } from './text.js';

/** The lines of the current file closest to what an edit expected. */
export interface ClosestLines {
  /** 1-based line number of the first line shown. */
  readonly startLine: number;
  readonly lines: readonly string[];
  /** How alike the expected lines and these lines are, from 0 to 1 (character bigrams). */
  readonly similarity: number;
}

/** Lines longer than this are compared by their beginning only. */
const MAX_COMPARED_CHARS = 300;
/** At most this many expected lines are aligned (the beginning of a long edit places it). */
const MAX_EXPECTED_LINES = 60;
/** A word in more lines than this says nothing about where an edit goes (`return`, `}`). */
const MAX_WORD_POSITIONS = 40;
/** Candidate windows scored in full. */
const CANDIDATES = 8;

function compared(text: string): string {
  return text.trim().replace(/\s+/g, ' ').slice(0, MAX_COMPARED_CHARS);
}

function words(text: string): string[] {
  return (text.match(/[A-Za-z_$][\w$]*|\d+/g) ?? []).slice(0, 50);
}

function bigrams(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < text.length; i += 1) {
    const gram = text.slice(i, i + 2);
    out.set(gram, (out.get(gram) ?? 0) + 1);
  }
  return out;
}

/** Dice similarity of two lines' character bigrams, in [0, 1]. */
export function lineSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const left = bigrams(a);
  const right = bigrams(b);
  let shared = 0;
  for (const [gram, count] of left) shared += Math.min(count, right.get(gram) ?? 0);
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

/**
 * The window of the file most like `expected` (blank lines ignored on both sides), or null for
 * an empty file or an edit without a non-blank line. Windows are proposed by shared words and
 * equal lines, then scored line by line.
 */
export function closestLines(file: FileText, expected: readonly string[]): ClosestLines | null {
  const wanted: string[] = [];
  for (const line of expected) {
    if (wanted.length >= MAX_EXPECTED_LINES) break;
    const key = compared(line);
    if (key !== '') wanted.push(key);
  }
  const positions: number[] = [];
  const keys: string[] = [];
  file.lines.forEach((line, i) => {
    const key = compared(line.text);
    if (key === '') return;
    positions.push(i);
    keys.push(key);
  });
  if (wanted.length === 0 || keys.length === 0) return null;

  const byWord = new Map<string, number[]>();
  keys.forEach((key, p) => {
    for (const word of new Set(words(key))) {
      const list = byWord.get(word);
      if (!list) byWord.set(word, [p]);
      else if (list.length <= MAX_WORD_POSITIONS) list.push(p);
    }
  });
  const votes = new Map<number, number>();
  const lastStart = Math.max(0, keys.length - wanted.length);
  wanted.forEach((line, j) => {
    for (const word of new Set(words(line))) {
      const list = byWord.get(word);
      if (!list || list.length > MAX_WORD_POSITIONS) continue;
      for (const p of list) {
        const start = Math.min(lastStart, Math.max(0, p - j));
        votes.set(start, (votes.get(start) ?? 0) + 1);
      }
    }
  });
  const starts = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, CANDIDATES).map(([s]) => s);
  if (starts.length === 0) starts.push(0);

  let best = { start: starts[0]!, score: -1 };
  for (const start of starts) {
    const span = Math.min(wanted.length, keys.length - start);
    let total = 0;
    for (let j = 0; j < span; j += 1) total += lineSimilarity(wanted[j]!, keys[start + j]!);
    const score = total / wanted.length;
    if (score > best.score) best = { start, score };
  }
  const span = Math.min(wanted.length, keys.length - best.start);
  const first = positions[best.start]!;
  const last = positions[best.start + span - 1]!;
  return {
    startLine: first + 1,
    lines: file.lines.slice(first, last + 1).map((l) => l.text),
    similarity: Math.round(best.score * 100) / 100,
  };
}

/** The closest lines as a person reads them: numbered, with the similarity figure. */
export function describeClosest(closest: ClosestLines): string {
  const width = String(closest.startLine + closest.lines.length - 1).length;
  const numbered = closest.lines.map((text, i) => `  ${String(closest.startLine + i).padStart(width)} | ${text}`).join('\n');
  return `The closest lines in the file (${Math.round(closest.similarity * 100)}% alike) are:\n${numbered}`;
}
