/**
 * Relay Desk's own answer format (taught by `relay prompt`): file blocks whose fence line names
 * the file and a strategy (```ts // src/app.ts new-unified), rename and delete blocks, and a final
 * YAML control block with projectId and uuid. Read exactly as before native formats were added,
 * plus V4A envelopes, which are unambiguous wherever they appear.
 */
import { mentionsProjectId } from './control.js';
import { ENVELOPE_BEGIN, ENVELOPE_END, type Block, type Segment } from './fences.js';
import { parseBarePathLine, parseFirstLineHeader, type BlockHeader, type PathExists } from './header.js';
import { isShellFence, labelAbove } from './labels.js';
import { parseEnvelope } from './native/v4a.js';
import { isSearchReplaceBody } from './strategies/search-replace.js';
import { isUnifiedDiffBody, splitDiffSections, type DiffSection } from './strategies/unified.js';
import type { FileOperation, OperationOrigin, ParseFailureCode, PatchStrategy } from './types.js';
import { fail, ok, type Result } from '../result.js';

const DELETE_MARKER = /^(\/\/|#|--|::|;|%|REM\s|\/\*|<!--)\s*TODO\s*:?\s*delete this file\b[^\n]*$/i;


/** What reading an answer's segments gives: operations, prose, notes, and the control block's text. */
export interface SegmentReading {
  readonly operations: FileOperation[];
  readonly reasoning: string[];
  readonly warnings: string[];
}

/** A control block is a few lines; a larger text naming a projectId is something else (and YAML-parsing it would be slow). */
const MAX_CONTROL_CHARS = 8192;

/** Whether a block body or prose holds the control block (names a projectId): the mark of Relay's own format. */
export function controlCandidates(segments: readonly Segment[], exists?: PathExists): string[] {
  const out: string[] = [];
  const push = (text: string): void => {
    if (text.length <= MAX_CONTROL_CHARS) out.push(text);
  };
  for (const segment of segments) {
    if (segment.type === 'prose') {
      const region = unfencedControlRegion(segment.lines);
      if (region) push(segment.lines.slice(region.start, region.end).join('\n'));
    } else if (segment.block.header === null && segment.block.body.length > 0 && parseFirstLineHeader(segment.block.body[0]!, exists) === null) {
      const body = segment.block.body.join('\n');
      if (body.length <= MAX_CONTROL_CHARS && mentionsProjectId(body)) push(body);
    }
  }
  return out;
}

/** Whether any block uses Relay's header syntax with a strategy word or a rename block. */
export function usesRelayHeaders(segments: readonly Segment[], exists?: PathExists): boolean {
  return segments.some((s) => {
    if (s.type !== 'block') return false;
    const header = s.block.header ?? (s.block.body.length > 0 ? parseFirstLineHeader(s.block.body[0]!, exists) : null);
    return header !== null && (header.kind === 'rename' || header.declaredStrategy !== undefined);
  });
}

const YAML_LINE = /^\s*(#.*|-\s.*|["']?[A-Za-z_][\w-]*["']?\s*:.*|\s+\S.*)$/;

/**
 * Whether a candidate marks the answer as Relay's own format: it has a uuid, or it is a small
 * YAML block. A code block that merely sets a `projectId:` key (a Firebase config, say) does not.
 */
export function looksLikeControlBlock(text: string): boolean {
  if (/^[ \t]*["']?uuid["']?[ \t]*:/im.test(text)) return true;
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !/^(-{3}|\.{3})$/.test(l.trim()));
  return lines.length <= 15 && lines.every((l) => YAML_LINE.test(l) && !/[{};]\s*$/.test(l));
}

/** The control block among the candidates: the last that has a uuid, else the last. */
export function pickControl(candidates: readonly string[]): string | null {
  return [...candidates].reverse().find((c) => /^[ \t]*["']?uuid["']?[ \t]*:/im.test(c)) ?? candidates[candidates.length - 1] ?? null;
}

/** V4A envelopes in a run of lines (a block body or prose), as operations; lines outside them are returned as the rest. */
export function readEnvelopes(lines: readonly string[], firstLine: number): Result<{ ops: FileOperation[]; rest: string[] }, ParseFailureCode> {
  const ops: FileOperation[] = [];
  const rest: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!ENVELOPE_BEGIN.test(lines[i]!)) {
      rest.push(lines[i]!);
      i += 1;
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !ENVELOPE_END.test(lines[end]!)) end += 1;
    if (end >= lines.length) {
      return fail('TRUNCATED_RESPONSE', `The apply_patch envelope starting on line ${firstLine + i} never reaches "*** End Patch": the answer looks cut off. Nothing was applied; ask the assistant to resend the whole patch.`);
    }
    const parsed = parseEnvelope(lines.slice(i, end + 1), firstLine + i);
    if (!parsed.ok) return parsed;
    ops.push(...parsed.value);
    i = end + 1;
  }
  return ok({ ops, rest });
}

/** More file operations than any real answer holds: reading stops there (an answer blown up to megabytes costs no more). */
export const MAX_OPERATIONS = 400;

/** The refusal for an answer with more than MAX_OPERATIONS file operations. */
export function tooManyChanges(): Result<never, ParseFailureCode> {
  return fail('TOO_MANY_CHANGES', `The answer holds more than ${MAX_OPERATIONS} file changes; Relay Desk applies at most ${MAX_OPERATIONS} in one answer, so that each can be checked. Nothing was applied; ask for the change in parts.`);
}

/** Reads the segments of an answer in Relay's own format (the control block is found by the caller). */
export function readRelaySegments(segments: readonly Segment[], exists?: PathExists): Result<SegmentReading, ParseFailureCode> {
  const warnings: string[] = [];
  const operations: FileOperation[] = [];
  const reasoning: string[] = [];
  for (const [position, segment] of segments.entries()) {
    if (operations.length > MAX_OPERATIONS) return tooManyChanges();
    if (segment.type === 'prose') {
      const envelopes = readEnvelopes(segment.lines, segment.startLine + 1);
      if (!envelopes.ok) return envelopes;
      operations.push(...envelopes.value.ops);
      const region = unfencedControlRegion(envelopes.value.rest);
      const rest = envelopes.value.rest;
      pushProse(reasoning, region ? [...rest.slice(0, region.start), ...rest.slice(region.end)] : rest);
      continue;
    }
    const block = segment.block;
    const origin: OperationOrigin = { format: 'relay', line: block.startLine + 1 };
    let header = block.header;
    let body = block.body;
    if (header === null && body.some((l) => ENVELOPE_BEGIN.test(l))) {
      const envelopes = readEnvelopes(body, block.startLine + 2);
      if (!envelopes.ok) return envelopes;
      operations.push(...envelopes.value.ops);
      continue;
    }
    if (header === null && body.length > 0) {
      header = parseFirstLineHeader(body[0]!, exists);
      if (header !== null) body = body.slice(1);
      else {
        const bare = parseBarePathLine(body[0]!, exists);
        const rest = body.slice(1).join('\n');
        if (bare && (isSearchReplaceBody(rest) || isUnifiedDiffBody(rest))) {
          header = bare;
          body = body.slice(1);
        }
      }
    }
    if (header === null && mentionsProjectId(body.join('\n'))) continue; // the control block (or an old one)
    if (header === null) header = pathLineBefore(segments[position - 1], body, exists);
    if (header === null && splitDiffSections(body.join('\n')) === null && !isShellFence(block.fence.info)) {
      // A block that a path line, heading, bold or File: line above evidently means for a file,
      // but that carries no header: taking the other blocks alone would be a silent partial apply.
      const previous = segments[position - 1];
      const named = previous?.type === 'prose' ? labelAbove(previous.lines, exists) : null;
      if (named && named.kind !== 'sentence') {
        return fail(
          'UNHEADED_FILE_BLOCK',
          `The code block after the line "${named.line}" has no path header, so it is not clear whether it is meant as ${named.path}'s new content. Nothing was applied; ask for the block with a header like \`\`\`ts // ${named.path}.`,
          named.path,
        );
      }
    }
    if (header === null) {
      // A plain ```diff block that names its files in ---/+++ lines is an edit of those files.
      const sections = splitDiffSections(body.join('\n'));
      if (sections) {
        operations.push(...sectionsToOperations(sections, origin));
        continue;
      }
      reasoning.push(fencedText(block));
      continue;
    }
    const op = toOperation(header, body, warnings, origin);
    if (!op.ok) return op;
    operations.push(...op.value);
  }
  return operations.length > MAX_OPERATIONS ? tooManyChanges() : ok({ operations, reasoning, warnings });
}

/**
 * Some assistants (aider's style) put the path alone on the line right before the fence. That
 * line is taken as the header only when the block's body is a patch (SEARCH/REPLACE or a diff),
 * which only makes sense for a named file; a plain snippet after a filename stays prose.
 */
function pathLineBefore(previous: Segment | undefined, body: readonly string[], exists?: PathExists): BlockHeader | null {
  if (previous?.type !== 'prose') return null;
  const header = parseBarePathLine(previous.lines[previous.lines.length - 1] ?? '', exists);
  if (header?.kind !== 'file') return null;
  const bodyText = body.join('\n');
  return isSearchReplaceBody(bodyText) || isUnifiedDiffBody(bodyText) ? header : null;
}

/** Adds prose lines to the reasoning, as one paragraph run. */
export function pushProse(reasoning: string[], lines: readonly string[]): void {
  const text = lines.join('\n').trim();
  if (text.length > 0) reasoning.push(text);
}

/** A block as it was written, for the reasoning. */
export function fencedText(block: Block): string {
  const fence = block.fence.char.repeat(block.fence.length);
  return `${fence}${block.fence.info}\n${block.body.join('\n')}\n${fence}`;
}

/** The operations of a multi-file diff: renames first where git says so, then each file's edit. */
function sectionsToOperations(sections: readonly DiffSection[], origin: OperationOrigin): FileOperation[] {
  return sections.flatMap((section): FileOperation[] => [
    ...(section.renamedFrom ? [{ kind: 'rename' as const, from: section.renamedFrom, to: section.path, origin }] : []),
    ...(section.body.trim() !== '' ? [{ kind: 'write' as const, path: section.path, strategy: 'unified' as const, body: section.body, origin }] : []),
  ]);
}

function toOperation(header: BlockHeader, rawBody: readonly string[], warnings: string[], origin: OperationOrigin): Result<FileOperation[], ParseFailureCode> {
  if (header.kind === 'rename') return parseRename(rawBody.join('\n'), origin);
  // No-break spaces in indentation are a copy-paste artefact of chat UIs: they mean spaces.
  const body = rawBody.map((line) => line.replace(/^([+-]?)([ \t\u00A0]+)/, (_all, marker: string, ws: string) => marker + ws.replace(/\u00A0/g, ' ')));
  let bodyText = body.join('\n');
  const withoutRepeatedPath = body.length > 1 && parseFirstLineHeader(body[0]!)?.kind === 'file' ? body.slice(1).join('\n') : bodyText;
  if (DELETE_MARKER.test(bodyText.trim()) || DELETE_MARKER.test(withoutRepeatedPath.trim())) return ok([{ kind: 'delete', path: header.path, origin }]);
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
      return ok(sectionsToOperations(sections, origin));
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
    origin,
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

function parseRename(body: string, origin: OperationOrigin): Result<FileOperation[], ParseFailureCode> {
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
    ops.push({ kind: 'rename', from: from.trim(), to: to.trim(), origin });
  }
  return ok(ops);
}

const YAML_KEY_LINE = /^\s*["']?[A-Za-z_][\w-]*["']?\s*:/;
const YAML_ITEM_LINE = /^\s+(-\s|\S)|^-\s/;

/** Finds an unfenced `projectId:` YAML region in prose (some answers forget the fence). */
export function unfencedControlRegion(lines: readonly string[]): { start: number; end: number } | null {
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
