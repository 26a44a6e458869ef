/**
 * The OpenAI / Codex `apply_patch` envelope ("V4A"), read the way OpenAI's reference
 * apply_patch.py and codex-rs/apply-patch read it (our own code):
 *
 *   *** Begin Patch
 *   *** Add File: path        then the file's lines, each prefixed with "+"
 *   *** Delete File: path
 *   *** Update File: path     optionally "*** Move to: new/path", then sections:
 *   @@ anchor line            zero or more anchors per section, then " ", "-", "+" lines,
 *   *** End of File           optionally pinning the section to the end of the file
 *   *** End Patch
 *
 * The envelope may sit in any fence, straight in the prose, or inside a shell heredoc; the
 * caller hands over the lines from Begin to End. Markers may carry stray whitespace.
 */
import type { FileOperation, OperationOrigin, ParseFailureCode } from '../types.js';
import { fail, ok, type Result } from '../../result.js';

const ADD = /^\s*\*\*\* Add File:\s*(.+?)\s*$/;
const DELETE = /^\s*\*\*\* Delete File:\s*(.+?)\s*$/;
const UPDATE = /^\s*\*\*\* Update File:\s*(.+?)\s*$/;
const MOVE = /^\s*\*\*\* Move to:\s*(.+?)\s*$/;
const END_OF_FILE = /^\s*\*\*\* End of File\s*$/;
const FILE_MARKER = /^\s*\*\*\* (Add|Delete|Update) File:/;

/** Whether a line can be part of an Update File section. */
function isUpdateLine(line: string): boolean {
  return line === '' || /^[ +\-\t]/.test(line) || /^@@/.test(line) || END_OF_FILE.test(line);
}

/**
 * Reads one envelope: `lines` run from the `*** Begin Patch` line to the `*** End Patch` line
 * (both included); `firstLine` is the answer's 1-based line number of the Begin line.
 */
export function parseEnvelope(lines: readonly string[], firstLine: number): Result<FileOperation[], ParseFailureCode> {
  const ops: FileOperation[] = [];
  const end = lines.length - 1;
  let i = 1;
  const malformed = (at: number, why: string): Result<never, ParseFailureCode> =>
    fail('PATCH_MALFORMED', `The apply_patch envelope starting on line ${firstLine} is malformed at line ${firstLine + at}: ${why} Nothing was applied; ask the assistant to resend the patch.`);
  while (i < end) {
    const line = lines[i]!;
    const origin: OperationOrigin = { format: 'v4a', line: firstLine + i };
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const add = ADD.exec(line);
    if (add) {
      const content: Array<{ text: string; plus: boolean }> = [];
      i += 1;
      while (i < end && !FILE_MARKER.test(lines[i]!)) {
        const current = lines[i]!;
        if (current.startsWith('+')) content.push({ text: current.slice(1), plus: true });
        else if (current.trim() === '') content.push({ text: '', plus: false });
        else return malformed(i, `a line of "*** Add File: ${add[1]}" does not start with "+" (${JSON.stringify(current.slice(0, 60))}).`);
        i += 1;
      }
      // Unprefixed blank lines before the next marker separate entries; inside the file they are blank lines.
      while (content.length > 0 && !content[content.length - 1]!.plus) content.pop();
      ops.push({ kind: 'write', path: add[1]!, strategy: 'replace', body: content.map((c) => c.text).join('\n'), origin });
      continue;
    }
    const del = DELETE.exec(line);
    if (del) {
      ops.push({ kind: 'delete', path: del[1]!, origin });
      i += 1;
      continue;
    }
    const update = UPDATE.exec(line);
    if (update) {
      let path = update[1]!;
      i += 1;
      const move = i < end ? MOVE.exec(lines[i]!) : null;
      if (move) {
        ops.push({ kind: 'rename', from: path, to: move[1]!, origin });
        path = move[1]!;
        i += 1;
      }
      const body: string[] = [];
      const sectionStart = i;
      while (i < end && !FILE_MARKER.test(lines[i]!)) {
        if (!isUpdateLine(lines[i]!)) return malformed(i, `${JSON.stringify(lines[i]!.slice(0, 60))} is not a context (" "), removed ("-"), added ("+") or "@@" line.`);
        body.push(lines[i]!);
        i += 1;
      }
      while (body.length > 0 && body[body.length - 1]!.trim() === '') body.pop();
      if (!body.some((l) => /^[+-]/.test(l))) {
        if (move) continue; // a pure move
        return malformed(sectionStart - 1, `"*** Update File: ${update[1]}" changes no line.`);
      }
      ops.push({ kind: 'write', path, strategy: 'v4a', body: body.join('\n'), origin: { format: 'v4a', line: firstLine + sectionStart } });
      continue;
    }
    return malformed(i, `${JSON.stringify(line.slice(0, 60))} is not "*** Add File:", "*** Update File:" or "*** Delete File:".`);
  }
  return ok(ops);
}
