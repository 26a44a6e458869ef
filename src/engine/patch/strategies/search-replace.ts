import { diffArrays } from 'diff';
import type { ApplyFailureCode } from '../types.js';
import type { EditLine, MatchTier } from '../match.js';
import { newLine, type FileText } from '../text.js';
import { applyEdit, trimBlankEdges } from './edit.js';
import { fail, ok, type Result } from '../../result.js';

export interface SearchReplaceBlock {
  readonly search: readonly string[];
  readonly replace: readonly string[];
}

const SEARCH = /^\s*(<{5,9}|-{5,9})\s*SEARCH\s*$/;
const DIVIDER = /^\s*={5,9}\s*$/;
const STANDARD_DIVIDER = /^\s*={7}\s*$/;
const REPLACE = /^\s*(>{5,9}|\+{5,9})\s*REPLACE\s*$/;

/** Splits a body into SEARCH/REPLACE pairs; text between pairs is reported in `stray`. */
export function parseSearchReplace(body: string): Result<{ blocks: SearchReplaceBlock[]; stray: number; unterminated: boolean }, ApplyFailureCode> {
  const lines = body.split('\n');
  const blocks: SearchReplaceBlock[] = [];
  let stray = 0;
  let unterminated = false;
  let i = 0;
  while (i < lines.length) {
    if (!SEARCH.test(lines[i]!)) {
      if (lines[i]!.trim() !== '') stray += 1;
      i += 1;
      continue;
    }
    const startLine = i + 1;
    i += 1;
    const search: string[] = [];
    // A standard 7-character divider wins over shorter or longer runs of "=" (a Markdown
    // heading underline inside the SEARCH text, say).
    let blockEnd = i;
    while (blockEnd < lines.length && !REPLACE.test(lines[blockEnd]!) && !(blockEnd > i && SEARCH.test(lines[blockEnd]!))) blockEnd += 1;
    const divider = lines.slice(i, blockEnd).some((l) => STANDARD_DIVIDER.test(l)) ? STANDARD_DIVIDER : DIVIDER;
    while (i < lines.length && !divider.test(lines[i]!)) {
      if (SEARCH.test(lines[i]!) || REPLACE.test(lines[i]!)) return fail('SEARCH_MALFORMED', `The SEARCH block starting on line ${startLine} has no ======= divider.`);
      search.push(lines[i]!);
      i += 1;
    }
    if (i >= lines.length) return fail('SEARCH_MALFORMED', `The SEARCH block starting on line ${startLine} has no ======= divider.`);
    i += 1;
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
    blocks.push({ search, replace });
  }
  return ok({ blocks, stray, unterminated });
}

/** True when the body is SEARCH/REPLACE blocks and nothing else. */
export function isSearchReplaceBody(body: string): boolean {
  const first = body.split('\n').find((l) => l.trim() !== '');
  if (first === undefined || !SEARCH.test(first)) return false;
  const parsed = parseSearchReplace(body);
  return parsed.ok && parsed.value.blocks.length > 0 && parsed.value.stray === 0;
}

/** Turns a SEARCH/REPLACE pair into an edit: shared lines are context kept from the file. */
export function searchReplaceToEdit(block: SearchReplaceBlock): EditLine[] {
  const edit: EditLine[] = [];
  for (const part of diffArrays([...block.search], [...block.replace])) {
    const op: EditLine['op'] = part.added ? 'add' : part.removed ? 'del' : 'ctx';
    for (const text of part.value) edit.push({ op, text });
  }
  return edit;
}

/** Applies every SEARCH/REPLACE pair in order. A missing file is only allowed with an empty SEARCH. */
export function applySearchReplace(file: FileText | null, body: string, path: string): Result<{ file: FileText; tiers: MatchTier[] }, ApplyFailureCode> {
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
    if (current === null) return fail('FILE_NOT_FOUND', `${path}: the file does not exist, so its SEARCH block cannot match.`, path);
    const edit = searchReplaceToEdit(block);
    const applied = applyEdit(current, [edit, trimBlankEdges(edit)], path, { name, notFound: 'SEARCH_NOT_FOUND', ambiguous: 'SEARCH_AMBIGUOUS' });
    if (!applied.ok) return applied;
    current = applied.value.file;
    tiers.push(applied.value.tier);
  }
  return ok({ file: current!, tiers });
}
