import { mentionsProjectId, parseControlBlock } from './control.js';
import { parseBarePathLine, parseFenceInfo, parseFirstLineHeader, type BlockHeader } from './header.js';
import { isSearchReplaceBody } from './strategies/search-replace.js';
import { isShellFence, labelAbove } from './labels.js';
import { isUnifiedDiffBody, splitDiffSections, type DiffSection } from './strategies/unified.js';
import type { ControlBlock, FileOperation, ParsedResponse, ParseFailureCode, PatchStrategy } from './types.js';
import { fail, ok, type Result } from '../result.js';

interface Fence {
  readonly char: '`' | '~';
  readonly length: number;
  readonly indent: number;
  readonly info: string;
}

interface Block {
  readonly fence: Fence;
  /** A Markdown document that reached the end of the answer without its closing fence. */
  cutOff?: boolean;
  readonly header: BlockHeader | null;
  readonly body: string[];
  readonly startLine: number;
  closed: boolean;
}

type Segment = { readonly type: 'prose'; readonly lines: string[]; readonly startLine: number } | { readonly type: 'block'; readonly block: Block };

const FENCE_LINE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

function openingFence(line: string): Fence | null {
  const m = FENCE_LINE.exec(line);
  if (!m) return null;
  const marks = m[2]!;
  const info = m[3]!;
  const char = marks[0] as '`' | '~';
  // A line like ```code``` is an inline code span, not a fence; a path in backticks after the
  // comment marker (```ts // `src/a.ts`) is fine.
  if (char === '`' && /`{3,}\s*$/.test(info)) return null;
  return { char, length: marks.length, indent: m[1]!.replace(/\t/g, '    ').length, info: info.trim() };
}

/**
 * A closing fence: same character, at least as long, and (as CommonMark has it) indented at most
 * three columns more than the opening fence, so a docstring or YAML block quoting an indented
 * ``` line stays content.
 */
function closesFence(line: string, fence: Fence): boolean {
  const m = /^([ \t]*)(`{3,}|~{3,})[ \t]*$/.exec(line);
  if (m === null || m[2]![0] !== fence.char || m[2]!.length < fence.length) return false;
  return m[1]!.replace(/\t/g, '    ').length <= fence.indent + 3;
}

const MARKDOWN_PATH = /\.(md|mdx|markdown)$/i;
const MARKDOWN_LANG = /^(md|mdx|markdown)$/i;

/** Whether nested same-length fences inside this block should be paired up (Markdown documents). */
function pairsInnerFences(fence: Fence, header: BlockHeader | null): boolean {
  const lang = fence.info.split(/\s+/)[0] ?? '';
  if (MARKDOWN_LANG.test(lang)) return true;
  return header?.kind === 'file' && MARKDOWN_PATH.test(header.path);
}

/**
 * Splits the response into prose and fenced blocks, line by line. A block closes only on a fence
 * of its own character and at least its length. With `pairInner`, a Markdown file wrapped in a
 * fence of the same length as its own inner fences still survives (see markdownClose).
 */
function scan(lines: readonly string[], pairInner: boolean): Segment[] {
  const segments: Segment[] = [];
  let prose: string[] = [];
  let proseStart = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = openingFence(line);
    if (fence === null) {
      if (prose.length === 0) proseStart = i;
      prose.push(line);
      i += 1;
      continue;
    }
    if (prose.length > 0) segments.push({ type: 'prose', lines: prose, startLine: proseStart });
    prose = [];
    const block: Block = { fence, header: parseFenceInfo(fence.info), body: [], startLine: i, closed: false };
    segments.push({ type: 'block', block });
    const pairedClose = pairInner && pairsInnerFences(fence, block.header) ? markdownClose(lines, i, fence) : null;
    let j = i + 1;
    for (; j < lines.length; j += 1) {
      if (pairedClose === 'unclosed') {
        block.cutOff = true; // cut off inside the document: the block stays open
        continue;
      }
      if (pairedClose !== null ? j === pairedClose : closesFence(lines[j]!, fence)) {
        block.closed = true;
        break;
      }
      block.body.push(dedent(lines[j]!, fence.indent));
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
function markdownClose(lines: readonly string[], start: number, fence: Fence): number | 'unclosed' | null {
  let tagged = 0;
  let bareOpen = 0;
  const unclaimed: number[] = [];
  let bounded = false;
  for (let j = start + 1; j < lines.length; j += 1) {
    const line = lines[j]!;
    const inner = openingFence(line);
    if (inner === null || inner.char !== fence.char) continue;
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
    const closesSomething = next === undefined || next.trim() === '' || openingFence(next) !== null;
    if (!closesSomething) bareOpen += 1;
    else if (bareOpen > 0) bareOpen -= 1;
    else return j;
  }
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

const DELETE_MARKER = /^(\/\/|#|--|::|;|%|REM\s|\/\*|<!--)\s*TODO\s*:?\s*delete this file\b[^\n]*$/i;

/** Cheap test used before parsing clipboard text: could this be a patch at all? */
export function looksLikePatch(text: string): boolean {
  return text.length > 0 && /project_?id/i.test(text) && /(```|~~~)/.test(text);
}

/** Parses an assistant's answer into file operations and the control block, or says why it is not a patch. */
export function parseResponse(raw: string): Result<ParsedResponse, ParseFailureCode> {
  const text = raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (text.trim().length === 0) return fail('EMPTY_RESPONSE', 'The response is empty.');
  const lines = unwrapWholeAnswer(text.split('\n'));
  let segments = scan(lines, true);
  const cutOff = segments.some((s) => s.type === 'block' && s.block.cutOff === true);
  if (!cutOff && segments.some((s) => s.type === 'block' && !s.block.closed)) {
    const strict = scan(lines, false);
    if (!strict.some((s) => s.type === 'block' && !s.block.closed)) segments = strict;
  }
  const open = segments.find((s): s is Extract<Segment, { type: 'block' }> => s.type === 'block' && !s.block.closed);
  if (open) {
    return fail(
      'TRUNCATED_RESPONSE',
      `The response is cut off: the code block opened on line ${open.block.startLine + 1} is never closed. Nothing was applied; ask the assistant to finish its answer.`,
    );
  }

  const warnings: string[] = [];
  const operations: FileOperation[] = [];
  const reasoning: string[] = [];
  // Every block or region that names a projectId; the control block is the last one that also
  // has a uuid (a P.S. with an example config may name a project_id too).
  const controls: Array<{ position: number; text: string }> = [];

  for (const [position, segment] of segments.entries()) {
    if (segment.type === 'prose') {
      const region = unfencedControlRegion(segment.lines);
      if (region) {
        controls.push({ position, text: segment.lines.slice(region.start, region.end).join('\n') });
        pushProse(reasoning, [...segment.lines.slice(0, region.start), ...segment.lines.slice(region.end)]);
      } else {
        pushProse(reasoning, segment.lines);
      }
      continue;
    }
    const block = segment.block;
    let header = block.header;
    let body = block.body;
    if (header === null && body.length > 0) {
      header = parseFirstLineHeader(body[0]!);
      if (header !== null) body = body.slice(1);
      else {
        const bare = parseBarePathLine(body[0]!);
        const rest = body.slice(1).join('\n');
        if (bare && (isSearchReplaceBody(rest) || isUnifiedDiffBody(rest))) {
          header = bare;
          body = body.slice(1);
        }
      }
    }
    if (header === null && mentionsProjectId(body.join('\n'))) {
      controls.push({ position, text: body.join('\n') });
      continue;
    }
    if (header === null) header = pathLineBefore(segments[position - 1], body);
    if (header === null && splitDiffSections(body.join('\n')) === null && !isShellFence(block.fence.info)) {
      // A block that a path line, heading, bold or File: line above evidently means for a file,
      // but that carries no header: taking the other blocks alone would be a silent partial apply.
      const previous = segments[position - 1];
      const named = previous?.type === 'prose' ? labelAbove(previous.lines) : null;
      if (named && named.kind !== 'sentence') {
        return fail(
          'UNHEADED_FILE_BLOCK',
          `The code block after the line "${named.line}" has no path header, so it is not clear whether it is meant as ${named.path}'s new content. Nothing was applied; ask for the block with a header like \`\`\`ts // ${named.path}.`,
        );
      }
    }
    if (header === null) {
      // A plain ```diff block that names its files in ---/+++ lines is an edit of those files.
      const sections = splitDiffSections(body.join('\n'));
      if (sections) {
        operations.push(...sectionsToOperations(sections));
        continue;
      }
      reasoning.push(fencedText(block));
      continue;
    }
    const op = toOperation(header, body, warnings);
    if (!op.ok) return op;
    operations.push(...op.value);
  }

  const control = [...controls].reverse().find((c) => /^\s*["']?uuid["']?\s*:/im.test(c.text)) ?? controls[controls.length - 1] ?? null;
  if (control === null) {
    return fail('NO_CONTROL_BLOCK', 'No control block found: a patch ends with a YAML block giving projectId and uuid. Nothing was applied.');
  }
  const parsedControl = parseControlBlock(control.text);
  if (!parsedControl.ok) return fail('INVALID_CONTROL_BLOCK', `${parsedControl.message} Nothing was applied.`);
  warnings.push(...parsedControl.warnings);
  if (operations.length === 0) return fail('NO_OPERATIONS', 'The response has a control block but no file blocks (a file block starts with a header like ```ts // src/file.ts).');
  const response: ParsedResponse = { control: parsedControl.control satisfies ControlBlock, operations, reasoning, warnings };
  return ok(response);
}

/**
 * Some chat UIs hand over the whole answer inside one outer fence (````markdown … ````). When
 * the first and last lines are such a fence and the inside holds file blocks, parse the inside.
 */
function unwrapWholeAnswer(lines: string[]): string[] {
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

/**
 * Some assistants (aider's style) put the path alone on the line right before the fence. That
 * line is taken as the header only when the block's body is a patch (SEARCH/REPLACE or a diff),
 * which only makes sense for a named file; a plain snippet after a filename stays prose.
 */
function pathLineBefore(previous: Segment | undefined, body: readonly string[]): BlockHeader | null {
  if (previous?.type !== 'prose') return null;
  const header = parseBarePathLine(previous.lines[previous.lines.length - 1] ?? '');
  if (header?.kind !== 'file') return null;
  const bodyText = body.join('\n');
  return isSearchReplaceBody(bodyText) || isUnifiedDiffBody(bodyText) ? header : null;
}

function pushProse(reasoning: string[], lines: readonly string[]): void {
  const text = lines.join('\n').trim();
  if (text.length > 0) reasoning.push(text);
}

function fencedText(block: Block): string {
  const fence = block.fence.char.repeat(block.fence.length);
  return `${fence}${block.fence.info}\n${block.body.join('\n')}\n${fence}`;
}

/** The operations of a multi-file diff: renames first where git says so, then each file's edit. */
function sectionsToOperations(sections: readonly DiffSection[]): FileOperation[] {
  return sections.flatMap((section): FileOperation[] => [
    ...(section.renamedFrom ? [{ kind: 'rename' as const, from: section.renamedFrom, to: section.path }] : []),
    ...(section.body.trim() !== '' ? [{ kind: 'write' as const, path: section.path, strategy: 'unified' as const, body: section.body }] : []),
  ]);
}

function toOperation(header: BlockHeader, rawBody: readonly string[], warnings: string[]): Result<FileOperation[], ParseFailureCode> {
  if (header.kind === 'rename') return parseRename(rawBody.join('\n'));
  // No-break spaces in indentation are a copy-paste artefact of chat UIs: they mean spaces.
  const body = rawBody.map((line) => line.replace(/^([+-]?)([ \t\u00A0]+)/, (_all, marker: string, ws: string) => marker + ws.replace(/\u00A0/g, ' ')));
  let bodyText = body.join('\n');
  const withoutRepeatedPath = body.length > 1 && parseFirstLineHeader(body[0]!)?.kind === 'file' ? body.slice(1).join('\n') : bodyText;
  if (DELETE_MARKER.test(bodyText.trim()) || DELETE_MARKER.test(withoutRepeatedPath.trim())) return ok([{ kind: 'delete', path: header.path }]);
  // A first line that repeats the header's path is not part of a patch body.
  if (body.length > 1) {
    const repeated = parseFirstLineHeader(body[0]!);
    const rest = body.slice(1).join('\n');
    if (repeated?.kind === 'file' && repeated.path === header.path && (isSearchReplaceBody(rest) || isUnifiedDiffBody(rest))) bodyText = rest;
  }
  const strategy = chooseStrategy(header.strategy, bodyText, header.path, warnings);
  if (strategy === 'unified') {
    // A whole `git diff` of several files (or with a rename) under one header: each part goes to its own file.
    const sections = splitDiffSections(bodyText);
    if (sections && (sections.length > 1 || sections[0]!.renamedFrom) && sections.some((s) => s.path === header.path || s.renamedFrom === header.path)) {
      return ok(sectionsToOperations(sections));
    }
  }
  const op: FileOperation = {
    kind: 'write',
    path: header.path,
    strategy,
    body: bodyText,
    ...(header.declaredStrategy ? { declaredStrategy: header.declaredStrategy } : {}),
    // Inferred from the body: for a file that does not exist yet, such a body is its content.
    ...(header.strategy === undefined && strategy !== 'replace' ? { inferred: true } : {}),
  };
  return ok([op]);
}

/**
 * The header's strategy wins, except when the body is plainly the other patch format (models
 * mix up the two names). Without a strategy word the body decides, but only when it is a patch
 * through and through: a document that merely shows such lines is a full replacement.
 */
function chooseStrategy(declared: PatchStrategy | undefined, body: string, path: string, warnings: string[]): PatchStrategy {
  const isSearchReplace = isSearchReplaceBody(body);
  const isDiff = !isSearchReplace && isUnifiedDiffBody(body);
  if (declared === 'unified' && isSearchReplace) {
    warnings.push(`${path}: the header says diff but the body is SEARCH/REPLACE blocks; applied as search-replace.`);
    return 'search-replace';
  }
  if (declared === 'search-replace' && isDiff) {
    warnings.push(`${path}: the header says search-replace but the body is a unified diff; applied as a diff.`);
    return 'unified';
  }
  if (declared) return declared;
  if (isSearchReplace) return 'search-replace';
  if (isDiff) return 'unified';
  return 'replace';
}

function parseRename(body: string): Result<FileOperation[], ParseFailureCode> {
  let data: unknown;
  try {
    // Trailing commas are a common slip in hand-written JSON.
    data = JSON.parse(body.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return fail('INVALID_RENAME_BLOCK', 'A rename-file block is not valid JSON (expected {"from": "...", "to": "..."}). Nothing was applied.');
  }
  const items = Array.isArray(data) ? data : [data];
  const ops: FileOperation[] = [];
  for (const item of items) {
    const from = (item as { from?: unknown } | null)?.from;
    const to = (item as { to?: unknown } | null)?.to;
    if (typeof from !== 'string' || typeof to !== 'string' || from.trim() === '' || to.trim() === '') {
      return fail('INVALID_RENAME_BLOCK', 'A rename-file block needs string "from" and "to" fields. Nothing was applied.');
    }
    ops.push({ kind: 'rename', from: from.trim(), to: to.trim() });
  }
  return ok(ops);
}

const YAML_KEY_LINE = /^\s*["']?[A-Za-z_][\w-]*["']?\s*:/;
const YAML_ITEM_LINE = /^\s+(-\s|\S)|^-\s/;

/** Finds an unfenced `projectId:` YAML region in prose (some answers forget the fence). */
function unfencedControlRegion(lines: readonly string[]): { start: number; end: number } | null {
  let at = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (mentionsProjectId(lines[i]!)) {
      at = i;
      break;
    }
  }
  if (at === -1) return null;
  let start = at;
  while (start > 0 && (YAML_KEY_LINE.test(lines[start - 1]!) || (YAML_ITEM_LINE.test(lines[start - 1]!) && lines[start - 1]!.trim() !== ''))) start -= 1;
  let end = at + 1;
  while (end < lines.length && lines[end]!.trim() !== '' && (YAML_KEY_LINE.test(lines[end]!) || YAML_ITEM_LINE.test(lines[end]!))) end += 1;
  return { start, end };
}
