/**
 * Every refusal carries a ready-to-paste reply for the assistant, in the words of the format it
 * wrote ("The SEARCH block for src/x.ts did not match. The file currently has these lines: …
 * Please resend that block against the current file."), so the loop copy → apply → fix → copy
 * does not break at the first mismatch.
 */
import type { IntakeFailureCode } from './intake.js';
import type { AnswerFormat, ApplyFailureCode, FileOperation, ParseFailureCode, PatchFailure } from './types.js';
import { assertNever } from '../result.js';

/** The codes a reply can be written for: everything about the answer's content. */
export type ReplyableCode = ParseFailureCode | ApplyFailureCode | IntakeFailureCode;

const REPLYABLE = new Set<string>([
  'EMPTY_RESPONSE', 'NO_CONTROL_BLOCK', 'INVALID_CONTROL_BLOCK', 'TRUNCATED_RESPONSE', 'NO_OPERATIONS', 'UNHEADED_FILE_BLOCK', 'INVALID_RENAME_BLOCK',
  'NOTHING_TO_APPLY', 'PATCH_MALFORMED', 'TOO_MANY_CHANGES', 'FRAGMENT_NOT_FILE', 'UNSAFE_PATH', 'FILE_NOT_FOUND', 'FILE_EXISTS', 'BINARY_FILE', 'ENCODING_UNSUPPORTED', 'PATH_CASE_CLASH',
  'SEARCH_NOT_FOUND', 'SEARCH_AMBIGUOUS', 'SEARCH_MALFORMED', 'HUNK_NOT_FOUND', 'HUNK_AMBIGUOUS', 'DIFF_MALFORMED', 'LAZY_PLACEHOLDER', 'EMPTY_REPLACEMENT',
  'RENAME_SOURCE_MISSING', 'RENAME_TARGET_EXISTS', 'DELETE_MISSING', 'PLAN_TOO_LARGE', 'ANSWER_TOO_LARGE', 'ANSWER_NOT_UTF8', 'ANSWER_HAS_NUL', 'ANSWER_LINE_TOO_LONG',
] satisfies ReplyableCode[]);

/** Whether a failure code is about the answer's content (and so has a reply). */
export function isReplyable(code: string): code is ReplyableCode {
  return REPLYABLE.has(code);
}

/** How the assistant's format names one edit and the whole change, for the reply's wording. */
function vocabulary(format: AnswerFormat, op: FileOperation | undefined): { edit: string; resend: string } {
  const strategy = op?.kind === 'write' ? op.strategy : undefined;
  switch (format) {
    case 'search-replace':
      return { edit: 'SEARCH block', resend: 'Please resend that SEARCH/REPLACE block against the current file.' };
    case 'git-diff':
      return { edit: 'diff hunk', resend: 'Please resend the diff for that file against the current file.' };
    case 'v4a':
      return { edit: '*** Update File section', resend: 'Please resend the patch (*** Begin Patch … *** End Patch) against the current file.' };
    case 'whole-file':
      return { edit: 'file', resend: 'Please resend the complete file.' };
    case 'relay':
      if (strategy === 'search-replace') return { edit: 'SEARCH block', resend: 'Please resend that block (multi-search-replace) against the current file.' };
      if (strategy === 'unified') return { edit: 'diff hunk', resend: 'Please resend that block (new-unified) against the current file.' };
      return { edit: 'block', resend: 'Please resend that block.' };
    default:
      return assertNever(format);
  }
}

function fenced(lines: readonly string[]): string {
  const longest = Math.max(2, ...lines.map((l) => /^`+/.exec(l.trim())?.[0].length ?? 0));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${lines.join('\n')}\n${fence}`;
}

function where(op: FileOperation | undefined): string {
  return op?.origin ? ` (the block on line ${op.origin.line} of your answer)` : '';
}

function pathOf(error: PatchFailure, op: FileOperation | undefined): string {
  if (error.path) return error.path;
  if (op?.kind === 'rename') return op.from;
  return op?.path ?? 'the file';
}

/**
 * The reply for a refusal, or undefined when the refusal is not about the answer's content
 * (a busy project, a wrong project, a broken config: nothing the assistant could fix).
 */
export function replyFor(error: PatchFailure, op?: FileOperation): string | undefined {
  if (!isReplyable(error.code)) return undefined;
  const code: ReplyableCode = error.code;
  const format: AnswerFormat = op?.origin?.format ?? (op?.kind === 'write' && op.strategy === 'search-replace' ? 'search-replace' : op?.kind === 'write' && op.strategy === 'unified' ? 'git-diff' : 'relay');
  const words = vocabulary(format, op);
  const path = pathOf(error, op);
  const editName = error.edit && /\d/.test(error.edit) ? ` (${error.edit})` : '';
  switch (code) {
    case 'SEARCH_NOT_FOUND':
    case 'HUNK_NOT_FOUND': {
      const head = `The ${words.edit} for ${path}${editName}${where(op)} did not match the file: one of its unchanged or removed lines is not in the file as written.`;
      if (error.closest) {
        return `${head} The file currently has these lines (from line ${error.closest.startLine}, ${Math.round(error.closest.similarity * 100)}% alike):\n\n${fenced(error.closest.lines)}\n\n${words.resend}`;
      }
      const anchor = /the anchor "([^"]+)"/.exec(error.message)?.[1];
      return `${head}${anchor ? ` The line "${anchor}" is not in the file.` : ''} ${words.resend}`;
    }
    case 'SEARCH_AMBIGUOUS':
    case 'HUNK_AMBIGUOUS': {
      const lines = error.lines && error.lines.length > 0 ? ` (lines ${error.lines.slice(0, 5).join(', ')})` : '';
      return `The ${words.edit} for ${path}${editName}${where(op)} matches more than one place in the file${lines}, so I cannot tell which one you mean. Please resend it with a few more unchanged lines around the change, so that it matches only one place.`;
    }
    case 'FILE_NOT_FOUND':
      return `${path} does not exist in the project, so the change to it${where(op)} cannot be applied. If it is a new file, please send its complete content (with an empty SEARCH section, a diff from /dev/null, or *** Add File); otherwise please check the path.`;
    case 'LAZY_PLACEHOLDER':
      return `The ${format === 'whole-file' || words.edit === 'block' ? 'file' : words.edit} for ${path}${where(op)} is not complete: it has a placeholder (such as "// ... existing code ...") where code should be, and applying it would delete that code. Please send the complete file, or only the changed part as a SEARCH/REPLACE block or a diff.`;
    case 'EMPTY_REPLACEMENT':
      return `The code block for ${path}${where(op)} is empty, so applying it as the whole file would delete all of ${path}'s content. Please send the complete file, or only the change as a SEARCH/REPLACE block or a diff (to delete the file, a diff with "deleted file mode" or *** Delete File).`;
    case 'UNSAFE_PATH':
      return `The path ${path} is outside the project (or inside .git/ or Relay Desk's own files), so I applied nothing. Please resend the answer with only files inside the project, with paths relative to its root.`;
    case 'TRUNCATED_RESPONSE':
      return 'Your answer was cut off before its end (a code block, SEARCH/REPLACE block or patch envelope is not closed), so I applied nothing. Please resend the complete answer.';
    case 'NOTHING_TO_APPLY':
    case 'NO_OPERATIONS':
    case 'EMPTY_RESPONSE':
      return 'I could not find any file change in your answer. Please send each change as a unified diff, as a SEARCH/REPLACE block with the file path on the line above, or as the complete file with its path alone on the line above the code block.';
    case 'FRAGMENT_NOT_FILE':
      return `The code block for ${path}${where(op)} is a part of the file, not the whole of it, so I did not write it (that would delete the rest of the file). Please send the complete file, or the change as a SEARCH/REPLACE block or a diff.`;
    case 'UNHEADED_FILE_BLOCK':
      return error.path
        ? `A code block in your answer seems meant for ${error.path}, but I cannot tell whether it is the whole file or a part of it, so I applied nothing. Please resend it as the complete file with ${error.path} alone on the line above the code block, or as a SEARCH/REPLACE block or a diff for the part that changes.`
        : 'A code block in your answer seems meant for a file, but it does not say which one, so I applied nothing. Please resend it with the file\'s path alone on the line above the code block, and the complete file (or a diff).';
    case 'NO_CONTROL_BLOCK':
    case 'INVALID_CONTROL_BLOCK':
      return 'Your answer is missing its final YAML control block (projectId and uuid), or it is not readable. Please end the answer with that block.';
    case 'FILE_EXISTS':
      return `${path} already exists, but your answer creates it as a new file${where(op)}. Please send the change as an edit of the existing file (an update, a SEARCH/REPLACE block or a diff).`;
    case 'DELETE_MISSING':
      return `Your answer deletes ${path}, which does not exist in the project. Please check the path.`;
    case 'RENAME_SOURCE_MISSING':
      return `Your answer moves ${path}, which does not exist in the project. Please check the path.`;
    case 'RENAME_TARGET_EXISTS':
      return `Your answer moves a file to ${path}, which already exists. Please choose another name or edit that file instead.`;
    case 'PATH_CASE_CLASH':
      return `Your answer creates ${path}, but a file whose name differs only in letter case already exists (the same file on macOS and Windows). Please use the existing file's exact name.`;
    case 'BINARY_FILE':
    case 'ENCODING_UNSUPPORTED':
      return `${path} is not a UTF-8 text file, so I cannot patch it. Please leave it out of the answer.`;
    case 'SEARCH_MALFORMED':
    case 'DIFF_MALFORMED':
    case 'PATCH_MALFORMED':
    case 'INVALID_RENAME_BLOCK':
      return `The change for ${path}${where(op)} is malformed: ${error.message.replace(/ ?Nothing was applied[^.]*\./g, '').trim()} Please resend it in a well-formed way.`;
    case 'PLAN_TOO_LARGE':
    case 'TOO_MANY_CHANGES':
      return 'Your answer has too many separate edits for me to check safely. Please send fewer, larger edits (or complete files) instead.';
    case 'ANSWER_TOO_LARGE':
    case 'ANSWER_NOT_UTF8':
    case 'ANSWER_HAS_NUL':
    case 'ANSWER_LINE_TOO_LONG':
      return 'Your answer could not be read as ordinary text (it is too large, holds binary data or has an extremely long line). Please resend it as plain text, in smaller parts if needed.';
    default:
      return assertNever(code);
  }
}
