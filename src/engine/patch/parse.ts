/**
 * Reads an assistant's answer into file operations. Two dialects share one plan and one
 * transaction: Relay Desk's own format (file blocks with headers and a YAML control block,
 * taught by `relay prompt`; see relay-dialect.ts) and the formats assistants write on their own
 * (git diffs, V4A envelopes, SEARCH/REPLACE, labelled whole files; see native/read.ts). An answer
 * with a control block, or with Relay's strategy words, is read as Relay's format, exactly as
 * before; anything else as native.
 */
import { parseControlBlock } from './control.js';
import { scan, unwrapWholeAnswer, type Segment } from './fences.js';
import type { PathExists } from './header.js';
import { readNativeSegments } from './native/read.js';
import { controlCandidates, looksLikeControlBlock, pickControl, readRelaySegments, usesRelayHeaders } from './relay-dialect.js';
import type { ParsedAnswer, ParsedResponse, ParseFailureCode } from './types.js';
import { fail, ok, type Result } from '../result.js';

/** What the parser may know about the project the answer is for. */
export interface ParseOptions {
  /** Whether a project-relative path exists (lets an extension-less path such as `bin/serve` be recognised). */
  readonly pathExists?: PathExists;
  /** Read the answer as Relay's own format even without a control block (it is then refused for lacking one). */
  readonly requireControl?: boolean;
}

/** Splits the answer into prose and blocks, refusing one cut off inside a block. */
function segmentsOf(text: string, exists?: PathExists): Result<Segment[], ParseFailureCode> {
  const lines = unwrapWholeAnswer(text.split('\n'));
  let segments = scan(lines, true, exists);
  const cutOff = segments.some((s) => s.type === 'block' && s.block.cutOff === true);
  if (!cutOff && segments.some((s) => s.type === 'block' && !s.block.closed)) {
    const strict = scan(lines, false, exists);
    if (!strict.some((s) => s.type === 'block' && !s.block.closed)) segments = strict;
  }
  const open = segments.find((s): s is Extract<Segment, { type: 'block' }> => s.type === 'block' && !s.block.closed);
  if (open) {
    return fail(
      'TRUNCATED_RESPONSE',
      `The response is cut off: the code block opened on line ${open.block.startLine + 1} is never closed. Nothing was applied; ask the assistant to finish its answer.`,
    );
  }
  return ok(segments);
}

/**
 * Parses an answer in any accepted format into operations. The control block is optional: an
 * answer without one is for the project it is applied in.
 */
export function parseAnswer(raw: string, options: ParseOptions = {}): Result<ParsedAnswer, ParseFailureCode> {
  const text = raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (text.trim().length === 0) return fail('EMPTY_RESPONSE', 'The response is empty.');
  const segmented = segmentsOf(text, options.pathExists);
  if (!segmented.ok) return segmented;
  const segments = segmented.value;
  const candidates = controlCandidates(segments, options.pathExists);
  const relay = options.requireControl === true || candidates.some(looksLikeControlBlock) || usesRelayHeaders(segments, options.pathExists);

  if (!relay) {
    const read = readNativeSegments(segments, options.pathExists);
    if (!read.ok) return read;
    if (read.value.operations.length === 0) {
      return fail(
        'NOTHING_TO_APPLY',
        'The answer holds no file changes: no diff, no apply_patch envelope, no SEARCH/REPLACE block and no code block labelled with a file path (commands, examples and output are never applied). Nothing was written.',
      );
    }
    return ok({ control: null, dialect: 'native', ...read.value });
  }

  const read = readRelaySegments(segments, options.pathExists);
  if (!read.ok) return read;
  const controlText = pickControl(candidates);
  if (controlText === null) {
    return fail(
      'NO_CONTROL_BLOCK',
      'No control block found: the answer uses Relay Desk\'s format (file blocks with a strategy word such as new-unified), which ends with a YAML block giving projectId and uuid. It may be cut off. Nothing was applied.',
    );
  }
  const control = parseControlBlock(controlText);
  if (!control.ok) return fail('INVALID_CONTROL_BLOCK', `${control.message} Nothing was applied.`);
  const { operations, reasoning } = read.value;
  const warnings = [...read.value.warnings, ...control.warnings];
  if (operations.length === 0) return fail('NO_OPERATIONS', 'The response has a control block but no file blocks (a file block starts with a header like ```ts // src/file.ts).');
  return ok({ control: control.control, dialect: 'relay', operations, reasoning, warnings });
}

/** Parses an answer in Relay Desk's own format, which must carry a control block (routing by projectId needs it). */
export function parseResponse(raw: string, options: ParseOptions = {}): Result<ParsedResponse, ParseFailureCode> {
  const parsed = parseAnswer(raw, { ...options, requireControl: true });
  if (!parsed.ok) return parsed;
  return ok({ ...parsed.value, control: parsed.value.control! });
}
