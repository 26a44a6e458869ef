/**
 * Reads an answer written in the assistants' own formats (no control block): git diffs, V4A
 * envelopes, SEARCH/REPLACE blocks and whole files labelled by a path, in any mix, fenced or
 * not. What is a file change follows the native corpus's expectation rules:
 *
 * - a fence tagged diff/patch, or whose body starts like a diff, is a diff;
 * - `*** Begin Patch` … `*** End Patch` is a V4A patch wherever it is (a fence, the prose, a heredoc);
 * - a body whose first line (after an optional path line) is `<<<<<<< SEARCH` is SEARCH/REPLACE,
 *   for the file named by that path line, the label above the fence, or the previous block;
 * - any other fence is a whole file when its path comes from the info string, a first-line
 *   comment, the line right above (bold, heading, `File:`, backticks, bare path) or a sentence
 *   right above that ends in a colon and names exactly one path in backticks;
 * - everything else (commands, examples, output, snippets without a path) is prose. A shell
 *   fence is a file only when a path line names it.
 *
 * A block that a heading, bold or `File:` line above names a file for, but that cannot be read
 * as that file (the line says more than the path), refuses the answer rather than being dropped.
 */
import type { Block, Segment } from '../fences.js';
import { ENVELOPE_BEGIN } from '../fences.js';
import { looksLikeProjectPath, parseBarePathLine, parseFirstLineHeader, type PathExists } from '../header.js';
import { isShellFence, labelAbove, type LabelAbove } from '../labels.js';
import { fencedText, MAX_OPERATIONS, pushProse, readEnvelopes, tooManyChanges, type SegmentReading } from '../relay-dialect.js';
import type { FileOperation, ParseFailureCode } from '../types.js';
import { parseGitDiff, unfencedDiffEnd, unfencedDiffStartsAt } from './git-diff.js';
import { isSearchMarker, splitSearchReplace, startsWithSearchBlock } from './search-replace.js';
import { fail, ok, type Result } from '../../result.js';

const DIFF_FENCE = /^(diff|patch|udiff|git-diff|gitdiff)\b/i;
/** Files a shell fence may hold whole: scripts. */
const SCRIPT_FILE = /(\.(sh|bash|zsh|fish|ksh|ps1|psm1|bat|cmd)|(^|\/)[^./]+)$/i;

/**
 * Sentences that introduce an example or a fragment rather than a whole file ("For example, in
 * `src/app.ts`:", "In `src/app.ts`, add:", "Inside `render()` in `src/app.ts`:").
 */
const EXAMPLE_SENTENCE = /\b(for example|e\.g\.|for instance|such as|like this|like so|usage|you can|you could|you might|call it|use it|run|running|output|prints?|looks? like|something like|inside|within|somewhere|near|at the (top|bottom|end|start|beginning))\b/i;
const FRAGMENT_VERB = /\b(add|append|insert|paste|put|place)\b/i;
/**
 * For a file that exists, a sentence must say the block is all of it ("Here's the updated
 * `src/a.ts`:"); "Here's the relevant part of `src/a.ts`:" or "And in `src/a.ts` we need:" is a
 * part, and writing it whole would delete the rest.
 */
const WHOLE_FILE_WORDS = /\b(updated|complete|completed|full|entire|whole|final|new version|revised|rewritten|fixed|corrected|modified|new contents?|all of)\b/i;

/** Whether a sentence above a block introduces the whole file (not an example or a fragment to insert). */
function introducesWholeFile(sentence: string): boolean {
  if (EXAMPLE_SENTENCE.test(sentence)) return false;
  return !FRAGMENT_VERB.test(sentence) || /\bfile\b/i.test(sentence);
}

/** Whether a body starts like a diff: `diff --git`, a `---`/`+++` pair, or a hunk header. */
function startsLikeDiff(lines: readonly string[]): boolean {
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) return false;
  const line = lines[first]!;
  return /^(diff --git |Index: |@@)/.test(line) || (line.startsWith('--- ') && (lines[first + 1] ?? '').startsWith('+++ '));
}

/** A path outside the project (absolute, home, parent): a shell snippet's comment naming it is an instruction, not a file label. */
function outsideProject(path: string): boolean {
  return /^(\/|~|[A-Za-z]:[\\/]|\.\.[\\/])/.test(path);
}

/** The path a label above gives a patch block (any kind names the file a patch edits). */
function patchPath(label: LabelAbove | null): string | null {
  return label?.path ?? null;
}

interface Reading {
  operations: FileOperation[];
  reasoning: string[];
  warnings: string[];
  /** The file the last SEARCH/REPLACE block edited (aider's blocks without a path inherit it). */
  lastSearchPath: string | null;
}

/** Reads prose: unfenced V4A envelopes, SEARCH/REPLACE blocks and diffs become operations. */
function readProse(lines: readonly string[], startLine: number, state: Reading, exists?: PathExists): Result<void, ParseFailureCode> {
  const envelopes = readEnvelopes(lines, startLine + 1);
  if (!envelopes.ok) return envelopes;
  state.operations.push(...envelopes.value.ops);
  const rest = envelopes.value.ops.length > 0 ? envelopes.value.rest : [...lines];
  const prose: string[] = [];
  let i = 0;
  while (i < rest.length) {
    if (isSearchMarker(rest[i]!)) {
      // Blocks straight in the prose: the path is on the line above, as in a fence.
      const label = labelAbove(prose, exists);
      const split = splitSearchReplace(rest.slice(i), startLine + 1 + i, patchPath(label) ?? state.lastSearchPath, exists);
      if (!split.ok) return split;
      state.operations.push(...split.value.ops);
      state.lastSearchPath = split.value.lastPath;
      break;
    }
    if (unfencedDiffStartsAt(rest, i)) {
      const end = unfencedDiffEnd(rest, i);
      const parsed = parseGitDiff(rest.slice(i, end), startLine + 1 + i);
      if (parsed !== null) {
        if (!parsed.ok) return parsed;
        state.operations.push(...parsed.value);
        i = end;
        continue;
      }
    }
    prose.push(rest[i]!);
    i += 1;
  }
  pushProse(state.reasoning, prose);
  return ok(undefined);
}

/** Reads one fenced block. */
function readBlock(block: Block, above: LabelAbove | null, state: Reading, exists?: PathExists): Result<void, ParseFailureCode> {
  const info = block.fence.info;
  const shell = isShellFence(info);
  const bodyLine = block.startLine + 2; // 1-based answer line of body[0]
  const body = block.body;

  // A V4A envelope, in any fence (also a shell heredoc around it): the envelope names its files.
  if (block.header === null && body.some((l) => ENVELOPE_BEGIN.test(l))) {
    const envelopes = readEnvelopes(body, bodyLine);
    if (!envelopes.ok) return envelopes;
    state.operations.push(...envelopes.value.ops);
    return ok(undefined);
  }

  // The path the block names itself: the info string, else a first-line comment or bare path
  // line. A patch starts after such a line; a whole file keeps a comment label for now (the
  // replace strategy drops it unless the file itself starts with that line).
  let path: string | null = block.header?.kind === 'file' ? block.header.path : null;
  let patchStart = 0;
  if (path === null && body.length > 0) {
    const comment = parseFirstLineHeader(body[0]!, exists);
    // In a shell or output fence a first-line `# path` names the file only for a script (a
    // `# package.json` above `npm pkg set …` is a note about the commands, not that file's content).
    if (comment?.kind === 'file' && !(shell && (outsideProject(comment.path) || !SCRIPT_FILE.test(comment.path)))) {
      path = comment.path;
      patchStart = 1;
    } else {
      const bare = parseBarePathLine(body[0]!, exists);
      if (bare?.kind === 'file' && (startsWithSearchBlock(body.slice(1), exists) || startsLikeDiff(body.slice(1)))) {
        path = bare.path;
        patchStart = 1;
      }
    }
  }
  const patch = body.slice(patchStart);
  const patchLine = bodyLine + patchStart;

  if (startsWithSearchBlock(patch, exists)) {
    const split = splitSearchReplace(patch, patchLine, path ?? patchPath(above) ?? state.lastSearchPath, exists);
    if (!split.ok) return split;
    state.operations.push(...split.value.ops);
    state.lastSearchPath = split.value.lastPath;
    return ok(undefined);
  }

  if (DIFF_FENCE.test(info) || startsLikeDiff(patch)) {
    const fallback = path ?? patchPath(above) ?? undefined;
    const parsed = parseGitDiff(patch, patchLine, fallback);
    if (parsed !== null) {
      if (!parsed.ok) return parsed;
      state.operations.push(...parsed.value);
      return ok(undefined);
    }
    if (DIFF_FENCE.test(info) && patch.some((l) => /^[+-]/.test(l))) {
      if (fallback === undefined) {
        return fail('UNHEADED_FILE_BLOCK', `The diff on line ${block.startLine + 1} does not say which file it changes (no "--- a/path" / "+++ b/path" lines and no path above it). Nothing was applied; ask for the diff with its file headers.`);
      }
      // +/- lines without any header: one hunk for the file named above.
      state.operations.push({ kind: 'write', path: fallback, strategy: 'unified', body: patch.join('\n'), origin: { format: 'git-diff', line: block.startLine + 1 } });
      return ok(undefined);
    }
  }
  // A whole file.
  if (path === null && above !== null) {
    if (above.kind === 'label') path = above.path;
    else if (above.kind === 'sentence' && !shell && introducesWholeFile(above.line) && (exists?.(above.path) !== true || WHOLE_FILE_WORDS.test(above.line))) path = above.path;
    else if (above.kind === 'sentence' && !shell && !EXAMPLE_SENTENCE.test(above.line)) {
      // "In `src/c.ts` add this:": the whole of a new file, but for a file that exists, a part to
      // put somewhere in it: writing it whole would delete the rest, so it is refused.
      if (exists?.(above.path) !== true) path = above.path;
      else {
        return fail(
          'UNHEADED_FILE_BLOCK',
          `The code block on line ${block.startLine + 1}, after "${above.line}", is a part to add to ${above.path}, not the whole file, and it does not say where it goes. Nothing was applied; ask for the change as a SEARCH/REPLACE block or a diff.`,
          above.path,
        );
      }
    }
    else if (above.kind === 'mention' && !shell) {
      return fail(
        'UNHEADED_FILE_BLOCK',
        `The code block on line ${block.startLine + 1}, after "${above.line}", seems meant for ${above.path}, but the line says more than the path, so it is not clear whether the block is the whole file or a part of it. Nothing was applied; ask for the complete file with its path alone on the line above the block (or for a diff).`,
        above.path,
      );
    }
  }
  if (path === null) {
    // A block that evidently names a file (in its info string, or a first-line comment that
    // starts with a path) but is not understood would be a silent partial apply: refused.
    const named = shell ? null : namedButNotTaken(info, body[0] ?? '', exists);
    if (named !== null) {
      return fail(
        'UNHEADED_FILE_BLOCK',
        `The code block on line ${block.startLine + 1} names ${named} (${JSON.stringify((info || body[0] || '').trim().slice(0, 80))}), but not in a way that says it is the whole file. Nothing was applied; ask for the complete file with its path alone on the line above the block (or for a diff).`,
        named,
      );
    }
    state.reasoning.push(fencedText(block));
    return ok(undefined);
  }
  // No file starts indented: a block that does is a piece of one, and writing it whole would delete the rest.
  const firstCode = body.slice(patchStart).find((l) => l.trim() !== '');
  if (firstCode !== undefined && /^[ \t]/.test(firstCode)) {
    return fail(
      'FRAGMENT_NOT_FILE',
      `The code block on line ${block.startLine + 1} for ${path} starts indented (${JSON.stringify(firstCode.trim().slice(0, 60))}), so it is a part of the file, not the whole of it; writing it as the file would delete the rest. Nothing was applied; ask for the complete file, or for the change as a SEARCH/REPLACE block or a diff.`,
      path,
    );
  }
  state.operations.push({ kind: 'write', path, strategy: 'replace', body: body.join('\n'), origin: { format: 'whole-file', line: block.startLine + 1 } });
  return ok(undefined);
}

/**
 * The label of the block at `position`: the prose right above it, or (a Deepseek habit aider
 * also reads) a fence right above that holds nothing but the path.
 */
function labelFor(segments: readonly Segment[], position: number, exists?: PathExists): LabelAbove | null {
  const previous = segments[position - 1];
  if (previous?.type === 'prose') return labelAbove(previous.lines, exists);
  if (previous?.type === 'block' && previous.block.header === null) {
    const lines = previous.block.body.filter((l) => l.trim() !== '');
    if (lines.length === 1) {
      const label = labelAbove(lines, exists);
      if (label?.kind === 'label') return label;
    }
  }
  return null;
}

/** Reads the segments of a native answer into operations, prose and notes. */
export function readNativeSegments(segments: readonly Segment[], exists?: PathExists): Result<SegmentReading, ParseFailureCode> {
  const state: Reading = { operations: [], reasoning: [], warnings: [], lastSearchPath: null };
  for (const [position, segment] of segments.entries()) {
    if (state.operations.length > MAX_OPERATIONS) return tooManyChanges();
    if (segment.type === 'prose') {
      const read = readProse(segment.lines, segment.startLine, state, exists);
      if (!read.ok) return read;
      continue;
    }
    const read = readBlock(segment.block, labelFor(segments, position, exists), state, exists);
    if (!read.ok) return read;
  }
  if (state.operations.length > MAX_OPERATIONS) return tooManyChanges();
  return ok({ operations: state.operations, reasoning: state.reasoning, warnings: state.warnings });
}

/** Path-like tokens (a folder and an extension, or a common file name) in some text. */
function pathTokensIn(text: string, exists?: PathExists): string[] {
  return (text.match(/[\w./@-]+/g) ?? []).map((t) => t.replace(/^[./]+(?=\w)/, (m) => (m === './' ? '' : m)).replace(/[.,:;]+$/, '')).filter((t) => /\//.test(t) && /\.[A-Za-z][\w-]*$/.test(t) && looksLikeProjectPath(t, exists));
}

/**
 * The file a block names without being taken as it: a path in its info string
 * (```ts {title="src/a.ts"}, ```ts [src/a.ts]), or a first-line comment whose first words hold a
 * path (`// src/a.ts (excerpt)`, `// In src/a.ts:`, `// ---- src/a.ts ----`). Null otherwise.
 */
function namedButNotTaken(info: string, firstLine: string, exists?: PathExists): string | null {
  const inInfo = pathTokensIn(info.split(/\s+/).slice(0, 6).join(' '), exists);
  if (inInfo.length > 0) return inInfo[0]!;
  const comment = /^\s*(?:\/\/+|#+|--|;+|\/\*+|<!--)\s*(.*)$/.exec(firstLine)?.[1] ?? null;
  if (comment === null || firstLine.trim().startsWith('#!')) return null;
  const firstWords = comment.replace(/^[-=*~_\s]+/, '').split(/\s+/).slice(0, 4).join(' ');
  const inComment = pathTokensIn(firstWords, exists);
  return inComment.length > 0 ? inComment[0]! : null;
}
