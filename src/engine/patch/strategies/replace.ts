import type { ApplyFailureCode } from '../types.js';
import { parseFirstLineHeader } from '../header.js';
import { findLazyPlaceholders } from '../lazy.js';
import { fromFileText, newLine, type FileText } from '../text.js';
import { fail, ok, type Result } from '../../result.js';

/**
 * A full-file replacement. The new text keeps the old file's line endings, BOM and
 * final-newline state; a placeholder standing for omitted code refuses the replacement.
 * `original` is what the path held before the whole answer (a delete earlier in the same answer
 * does not make a placeholder harmless).
 */
export function applyReplace(
  file: FileText | null,
  body: string,
  path: string,
  original: string | null = file === null ? null : fromFileText(file),
  endsWithNewline?: boolean,
): Result<FileText, ApplyFailureCode> {
  if (original !== null) {
    const lazy = findLazyPlaceholders(body, original, path);
    if (lazy.length > 0) {
      const first = lazy[0]!;
      return fail(
        'LAZY_PLACEHOLDER',
        `${path}: the full-file replacement contains a placeholder for omitted code (line ${first.line}: ${JSON.stringify(first.text)}). Writing it would delete that code; ask for the complete file or a diff.`,
        path,
      );
    }
  }
  const lines = body === '' ? [] : dropRepeatedHeader(body.split('\n'), path, file).map(newLine);
  // An empty block (or one holding only its label) is no file: as a whole-file write it would
  // wipe the file. Deleting a file takes a delete (diff or envelope), never an empty block.
  if (original !== null && original.trim() !== '' && lines.every((line) => line.text.trim() === '')) {
    return fail('EMPTY_REPLACEMENT', `${path}: the code block meant as its whole content is empty; writing it would delete all of ${path}. Nothing was applied; ask for the complete file or a diff.`, path);
  }
  return ok({ lines, bom: file?.bom ?? false, eol: file?.eol ?? '\n', finalNewline: endsWithNewline ?? file?.finalNewline ?? true });
}

/**
 * Models often repeat the block's header as the file's first line (`// src/a.ts`), or give the
 * path only there (`// filepath: src/a.ts`, `<!-- docs/x.md -->`). That line is a label, not
 * content, unless the file already starts with it.
 */
function dropRepeatedHeader(lines: string[], path: string, file: FileText | null): string[] {
  const first = lines[0]?.trim() ?? '';
  const header = parseFirstLineHeader(first);
  if (header?.kind !== 'file' || header.path.replace(/^\.\//, '') !== path.replace(/^\.\//, '')) return lines;
  if (file !== null && file.lines[0]?.text.trim() === first) return lines;
  return lines.slice(1);
}
