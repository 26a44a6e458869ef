import { diffArrays } from 'diff';
import type { ApplyFailureCode } from '../types.js';
import { parseBarePathLine, parseFirstLineHeader } from '../header.js';
import type { EditLine, MatchTier, WorkBudget } from '../match.js';
import { newLine, type FileText } from '../text.js';
import { applyEdit, trimBlankEdges } from './edit.js';
import { fail, ok, type Result } from '../../result.js';

export interface SearchReplaceBlock {
  readonly search: readonly string[];
  readonly replace: readonly string[];
  /** Other readings when the text itself holds ======= lines (the most likely one is above). */
  readonly alternatives?: ReadonlyArray<{ readonly search: readonly string[]; readonly replace: readonly string[] }>;
}

const SEARCH = /^\s*(<{5,9}|-{5,9})\s*SEARCH\s*$/;
const DIVIDER = /^\s*={5,9}\s*$/;
const STANDARD_DIVIDER = /^\s*={7}\s*$/;
const REPLACE = /^\s*(>{5,9}|\+{5,9})\s*REPLACE\s*$/;

/**
 * The lines between `from` and `to` that may divide SEARCH from REPLACE, most likely first. The
 * standard 7-character divider wins over other runs of "=" (a heading underline). When the text
 * itself holds 7-character lines, every one is a candidate (the middle of an odd number first,
 * for symmetric halves); applying picks the one whose SEARCH is in the file.
 */
function dividerCandidates(lines: readonly string[], from: number, to: number): number[] {
  const standard: number[] = [];
  let loose: number | null = null;
  for (let k = from; k < to; k += 1) {
    if (STANDARD_DIVIDER.test(lines[k]!)) standard.push(k);
    else if (loose === null && DIVIDER.test(lines[k]!)) loose = k;
  }
  if (standard.length === 0) return loose === null ? [] : [loose];
  const middle = standard.length % 2 === 1 ? [standard[(standard.length - 1) / 2]!] : [];
  // Each candidate is a reading tried against the file: a few make sense, hundreds are noise.
  return [...middle, ...standard.filter((k) => !middle.includes(k))].slice(0, MAX_READINGS);
}

/** At most this many ways of reading a block with several ======= lines are tried. */
const MAX_READINGS = 8;

/** Splits a body into SEARCH/REPLACE pairs; text between pairs is reported in `stray`. */
export function parseSearchReplace(body: string): Result<{ blocks: SearchReplaceBlock[]; stray: number; unterminated: boolean }, ApplyFailureCode> {
  const lines = body.split('\n');
  const blocks: SearchReplaceBlock[] = [];
  let stray = 0;
  let unterminated = false;
  let i = 0;
  while (i < lines.length) {
    if (!SEARCH.test(lines[i]!)) {
      // A path line above a pair (aider's style) names the file; it is not stray text.
      if (lines[i]!.trim() !== '' && parseBarePathLine(lines[i]!) === null && parseFirstLineHeader(lines[i]!) === null) stray += 1;
      i += 1;
      continue;
    }
    const startLine = i + 1;
    i += 1;
    const search: string[] = [];
    let blockEnd = i;
    while (blockEnd < lines.length && !REPLACE.test(lines[blockEnd]!) && !(blockEnd > i && SEARCH.test(lines[blockEnd]!))) blockEnd += 1;
    const candidates = dividerCandidates(lines, i, blockEnd);
    if (candidates.length === 0) return fail('SEARCH_MALFORMED', `The SEARCH block starting on line ${startLine} has no ======= divider.`);
    const blockStart = i;
    const at = candidates[0]!;
    while (i < at) {
      search.push(lines[i]!);
      i += 1;
    }
    i += 1;
    const others = candidates.slice(1).map((k) => ({ search: lines.slice(blockStart, k), replace: lines.slice(k + 1, blockEnd) }));
    const replace: string[] = [];
    while (i < lines.length && !REPLACE.test(lines[i]!)) {
      if (SEARCH.test(lines[i]!)) return fail('SEARCH_MALFORMED', `The SEARCH block starting on line ${startLine} is not closed with >>>>>>> REPLACE.`);
      replace.push(lines[i]!);
      i += 1;
    }
    if (i >= lines.length) {
      // The code block closed without the final marker: the replacement runs to its end.
      while (replace.length > 0 && replace[replace.length - 1]!.trim() === '') replace.pop();
      unterminated = true;
    }
    i += 1;
    blocks.push(others.length > 0 ? { search, replace, alternatives: others } : { search, replace });
  }
  return ok({ blocks, stray, unterminated });
}

/** True when the body is SEARCH/REPLACE blocks and nothing else. */
export function isSearchReplaceBody(body: string): boolean {
  const first = body.split('\n').find((l) => l.trim() !== '' && parseBarePathLine(l) === null && parseFirstLineHeader(l) === null);
  if (first === undefined || !SEARCH.test(first)) return false;
  const parsed = parseSearchReplace(body);
  return parsed.ok && parsed.value.blocks.length > 0 && parsed.value.stray === 0;
}

/** Beyond this many differing lines, SEARCH and REPLACE are not diffed line by line. */
const MAX_EDIT_LENGTH = 400;

/** Turns a SEARCH/REPLACE pair into an edit: shared lines are context kept from the file. */
export function searchReplaceToEdit(block: SearchReplaceBlock): EditLine[] {
  const edit: EditLine[] = [];
  // The diff is bounded: two long, very different halves are a removal and an addition.
  const parts = diffArrays([...block.search], [...block.replace], { maxEditLength: MAX_EDIT_LENGTH }) ?? [
    { value: [...block.search], removed: true, added: false, count: block.search.length },
    { value: [...block.replace], added: true, removed: false, count: block.replace.length },
  ];
  for (const part of parts) {
    const op: EditLine['op'] = part.added ? 'add' : part.removed ? 'del' : 'ctx';
    for (const text of part.value) edit.push({ op, text });
  }
  return edit;
}

/**
 * A one-line SEARCH that is a fragment of a line rather than whole lines: replaced inside that
 * line when the fragment occurs exactly once in the whole file. Null when it does not occur.
 */
function replaceWithinLine(file: FileText, block: SearchReplaceBlock): FileText | 'ambiguous' | null {
  const search = block.search.filter((l) => l.trim() !== '');
  const replace = block.replace.filter((l) => l.trim() !== '');
  if (search.length !== 1 || replace.length > 1 || block.replace.length > 1) return null;
  const needle = search[0]!.trim();
  if (needle.replace(/\s/g, '').length < 8) return null;
  let at = -1;
  for (const [i, line] of file.lines.entries()) {
    const first = line.text.indexOf(needle);
    if (first === -1) continue;
    // Text after a comment marker is not code: a statement found only there is not found.
    if (/(\/\/|#|\/\*|<!--|--\s)/.test(line.text.slice(0, first))) continue;
    if (at !== -1 || line.text.indexOf(needle, first + 1) !== -1) return 'ambiguous';
    at = i;
  }
  if (at === -1) return null;
  const line = file.lines[at]!;
  const lines = [...file.lines];
  lines[at] = { text: line.text.replace(needle, () => (replace[0] ?? '').trim()), eol: line.eol };
  return { ...file, lines };
}

/** Applies every SEARCH/REPLACE pair in order. A missing file is only allowed with an empty SEARCH. */
export function applySearchReplace(file: FileText | null, body: string, path: string, budget?: WorkBudget): Result<{ file: FileText; tiers: MatchTier[] }, ApplyFailureCode> {
  const parsed = parseSearchReplace(body);
  if (!parsed.ok) return fail(parsed.error.code, `${path}: ${parsed.error.message}`, path);
  if (parsed.value.blocks.length === 0) {
    // Labelled search-replace but written as a whole file: only safe for a file that does not exist yet.
    if (file === null && body.trim() !== '') return ok({ file: { lines: body.split('\n').map(newLine), bom: false, eol: '\n', finalNewline: true }, tiers: [] });
    return fail('SEARCH_MALFORMED', `${path}: no <<<<<<< SEARCH blocks found in a search-replace block.`, path);
  }
  let current = file;
  const tiers: MatchTier[] = [];
  for (const [index, block] of parsed.value.blocks.entries()) {
    const name = parsed.value.blocks.length > 1 ? `SEARCH block ${index + 1}` : 'the SEARCH block';
    if (block.search.every((l) => l.trim() === '')) {
      if (current !== null && current.lines.some((l) => l.text.trim() !== '')) {
        return fail('SEARCH_MALFORMED', `${path}: ${name} is empty, which only makes sense for a new or empty file.`, path);
      }
      current = { lines: block.replace.map(newLine), bom: current?.bom ?? false, eol: current?.eol ?? '\n', finalNewline: true };
      tiers.push('exact');
      continue;
    }
    if (current === null) {
      const expected = block.search.find((l) => l.trim() !== '')!.trim();
      return fail('FILE_NOT_FOUND', `${path} does not exist; the edit expects it to contain ${JSON.stringify(expected.slice(0, 120))}. Only an empty SEARCH creates a file. Nothing was applied.`, path);
    }
    const label = { name, notFound: 'SEARCH_NOT_FOUND', ambiguous: 'SEARCH_AMBIGUOUS' } as const;
    const readings = [block, ...(block.alternatives ?? [])].map((reading) => {
      const edit = searchReplaceToEdit(reading);
      return applyEdit(current!, [edit, trimBlankEdges(edit)], path, label, budget ? { budget } : {});
    });
    // The most likely reading wins when it fits; otherwise exactly one other reading must fit.
    const fits = readings[0]!.ok ? [readings[0]!] : readings.filter((r) => r.ok);
    if (fits.length > 1) {
      return fail('SEARCH_MALFORMED', `${path}: ${name} has several ======= lines and more than one way of reading it fits the file; refusing to guess. Nothing was applied.`, path);
    }
    let applied = fits[0] ?? readings[0]!;
    if (!applied.ok && applied.error.code === 'SEARCH_NOT_FOUND') {
      const within = replaceWithinLine(current, block);
      if (within === 'ambiguous') return fail('SEARCH_AMBIGUOUS', `${path}: ${name} is part of a line and occurs more than once in the file; refusing to guess.`, path);
      if (within) applied = ok({ file: within, tier: 'loose' as MatchTier, end: 0 });
    }
    if (!applied.ok) return applied;
    current = applied.value.file;
    tiers.push(applied.value.tier);
  }
  return ok({ file: current!, tiers });
}
