/**
 * Splits an answer into prose and fenced code blocks, the way a Markdown reader would, with the
 * repairs real answers need: Markdown files wrapped in a fence as long as their own inner
 * fences, indented fences in list items, a whole answer wrapped in one outer fence, and V4A
 * patch envelopes (`*** Begin Patch` … `*** End Patch`) whose lines are never fences.
 */
import { parseFenceInfo, type BlockHeader, type PathExists } from './header.js';
import { labelAbove } from './labels.js';

/** An opening fence: its character, length, indentation and info string. */
export interface Fence {
  readonly char: '`' | '~';
  readonly length: number;
  readonly indent: number;
  readonly info: string;
}

/** A fenced block of the answer. */
export interface Block {
  readonly fence: Fence;
  /** A Markdown document that reached the end of the answer without its closing fence. */
  cutOff?: boolean;
  readonly header: BlockHeader | null;
  readonly body: string[];
  readonly startLine: number;
  closed: boolean;
}

/** A run of prose lines or one fenced block, in answer order; line numbers are 0-based. */
export type Segment = { readonly type: 'prose'; readonly lines: string[]; readonly startLine: number } | { readonly type: 'block'; readonly block: Block };

const FENCE_LINE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
/** How far a Markdown file block is searched for its real end (see markdownClose). */
const MARKDOWN_SCAN_LINES = 5_000;
/** Longest info string of a fence; longer lines (minified code, noise) are content. */
const MAX_INFO_CHARS = 1000;

/** The fence a line opens, or null. */
export function openingFence(line: string): Fence | null {
  const m = FENCE_LINE.exec(line);
  if (!m) return null;
  const marks = m[2]!;
  const info = m[3]!;
  const char = marks[0] as '`' | '~';
  // A line like ```code``` is an inline code span, not a fence; a path in backticks after the
  // comment marker (```ts // `src/a.ts`) is fine.
  if (info.length > MAX_INFO_CHARS) return null; // no real fence has a longer info string
  if (char === '`' && /`{3}[ \t]*$/.test(info)) return null;
  return { char, length: marks.length, indent: m[1]!.replace(/\t/g, '    ').length, info: info.trim() };
}

/**
 * A closing fence: same character, at least as long, and (as CommonMark has it) indented at most
 * three columns more than the opening fence, so a docstring or YAML block quoting an indented
 * ``` line stays content.
 */
export function closesFence(line: string, fence: Fence): boolean {
  const m = /^([ \t]*)(`{3,}|~{3,})[ \t]*$/.exec(line);
  if (m === null || m[2]![0] !== fence.char || m[2]!.length < fence.length) return false;
  return m[1]!.replace(/\t/g, '    ').length <= fence.indent + 3;
}

const MARKDOWN_PATH = /\.(md|mdx|markdown)$/i;
const MARKDOWN_LANG = /^(md|mdx|markdown)$/i;

/** Whether nested same-length fences inside this block should be paired up (Markdown documents). */
function pairsInnerFences(fence: Fence, header: BlockHeader | null, proseAbove: readonly string[]): boolean {
  const lang = fence.info.split(/\s+/)[0] ?? '';
  if (MARKDOWN_LANG.test(lang)) return true;
  if (header?.kind === 'file') return MARKDOWN_PATH.test(header.path);
  // A Markdown file named by the line above (**README.md**): its own fences are content too.
  if (fence.info !== '' && !/^(text|txt|plain)$/i.test(lang)) return false;
  const label = labelAbove(proseAbove);
  return label?.kind === 'label' && MARKDOWN_PATH.test(label.path);
}

/** The first and last line of a V4A patch envelope; nothing between them is a fence. */
export const ENVELOPE_BEGIN = /^\s*\*\*\* Begin Patch\s*$/;
export const ENVELOPE_END = /^\s*\*\*\* End Patch\s*$/;

/**
 * Splits the response into prose and fenced blocks, line by line. A block closes only on a fence
 * of its own character and at least its length. With `pairInner`, a Markdown file wrapped in a
 * fence of the same length as its own inner fences still survives (see markdownClose). The lines
 * of a V4A envelope (` ```` ` as a context line, say) never open or close a fence.
 */
export function scan(lines: readonly string[], pairInner: boolean, exists?: PathExists): Segment[] {
  const segments: Segment[] = [];
  let prose: string[] = [];
  let proseStart = 0;
  let i = 0;
  // Which lines open a fence, worked out once: Markdown blocks look ahead over the same lines.
  const fences = new Map<number, Fence | null>();
  const fenceAt = (j: number): Fence | null => {
    if (j >= lines.length) return null;
    let fence = fences.get(j);
    if (fence === undefined) {
      fence = openingFence(lines[j]!);
      fences.set(j, fence);
    }
    return fence;
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = ENVELOPE_BEGIN.test(line) ? null : openingFence(line);
    if (fence === null) {
      if (prose.length === 0) proseStart = i;
      prose.push(line);
      i += 1;
      if (ENVELOPE_BEGIN.test(line)) {
        while (i < lines.length && !ENVELOPE_END.test(lines[i - 1]!)) prose.push(lines[i++]!);
      }
      continue;
    }
    const proseBefore = prose;
    if (prose.length > 0) segments.push({ type: 'prose', lines: prose, startLine: proseStart });
    prose = [];
    const block: Block = { fence, header: parseFenceInfo(fence.info, exists), body: [], startLine: i, closed: false };
    segments.push({ type: 'block', block });
    const pairedClose = pairInner && pairsInnerFences(fence, block.header, proseBefore) ? markdownClose(lines, i, fence, fenceAt) : null;
    let inEnvelope = false;
    let j = i + 1;
    for (; j < lines.length; j += 1) {
      if (pairedClose === 'unclosed') {
        block.cutOff = true; // cut off inside the document: the block stays open
        continue;
      }
      const current = lines[j]!;
      if (inEnvelope) inEnvelope = !ENVELOPE_END.test(current);
      else if (ENVELOPE_BEGIN.test(current) && pairedClose === null) inEnvelope = true;
      else if (pairedClose !== null ? j === pairedClose : closesFence(current, fence)) {
        block.closed = true;
        break;
      }
      block.body.push(dedent(current, fence.indent));
    }
    i = j + 1;
  }
  if (prose.length > 0) segments.push({ type: 'prose', lines: prose, startLine: proseStart });
  return segments;
}

/**
 * Finds where a Markdown file block that uses the same fence as its inner code blocks really
 * ends. Inner blocks that open with a language tag claim the next bare fence. A bare fence
 * followed by content opens an inner block; one followed by a blank line, another fence or the
 * end closes one — and when no inner block is open, it closes the file. 'unclosed' when the
 * answer ends first (it was cut off); null when it cannot be decided (the plain rules apply).
 */
function markdownClose(lines: readonly string[], start: number, fence: Fence, fenceAt: (j: number) => Fence | null): number | 'unclosed' | null {
  let tagged = 0;
  let bareOpen = 0;
  const unclaimed: number[] = [];
  let bounded = false;
  const end = Math.min(lines.length, start + MARKDOWN_SCAN_LINES);
  for (let j = start + 1; j < end; j += 1) {
    const inner = fenceAt(j);
    if (inner === null || inner.char !== fence.char) continue;
    const line = lines[j]!;
    if (!closesFence(line, fence)) {
      if (inner.length < fence.length) continue;
      if (parseFenceInfo(inner.info) !== null) {
        bounded = true; // the next file block: this one must have ended before it
        break;
      }
      tagged += 1;
      continue;
    }
    if (tagged > 0) {
      tagged -= 1;
      continue;
    }
    unclaimed.push(j);
    const next = lines[j + 1];
    const closesSomething = next === undefined || next.trim() === '' || fenceAt(j + 1) !== null;
    if (!closesSomething) bareOpen += 1;
    else if (bareOpen > 0) bareOpen -= 1;
    else return j;
  }
  // A document longer than the scan is read with the plain fence rules.
  if (end < lines.length) return null;
  if (!bounded && unclaimed.length === 0) return 'unclosed';
  // Fall back to parity: bare fences pair up among themselves, an odd one out closes the file.
  return unclaimed.length % 2 === 1 ? unclaimed[unclaimed.length - 1]! : null;
}

function dedent(line: string, indent: number): string {
  if (indent === 0) return line;
  let i = 0;
  while (i < indent && i < line.length && line[i] === ' ') i += 1;
  return line.slice(i);
}

/**
 * Some chat UIs hand over the whole answer inside one outer fence (````markdown … ````). When
 * the first and last lines are such a fence and the inside holds file blocks, parse the inside.
 */
export function unwrapWholeAnswer(lines: string[]): string[] {
  const first = lines.findIndex((l) => l.trim() !== '');
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === '') last -= 1;
  if (first === -1 || last <= first) return lines;
  const fence = openingFence(lines[first]!);
  if (!fence || parseFenceInfo(fence.info) !== null || !closesFence(lines[last]!, fence)) return lines;
  const inner = lines.slice(first + 1, last);
  const innerHasFileBlock = inner.some((l) => {
    const f = openingFence(l);
    return f !== null && parseFenceInfo(f.info) !== null;
  });
  const innerCloses = inner.some((l) => closesFence(l, fence));
  return innerHasFileBlock && !innerCloses ? inner : lines;
}

