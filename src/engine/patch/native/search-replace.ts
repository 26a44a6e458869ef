/**
 * aider-style SEARCH/REPLACE blocks as assistants write them on their own:
 *
 *   path/to/file.py            (or **path**, ### path, `path`, or the fence's first line)
 *   ```python
 *   <<<<<<< SEARCH
 *   old lines
 *   =======
 *   new lines
 *   >>>>>>> REPLACE
 *   ```
 *
 * Several blocks may share a fence, and a path line between blocks switches the file; a block
 * without a path of its own belongs to the previous block's file (as aider reads them). A block
 * that never reaches its `>>>>>>> REPLACE` means the answer was cut off. The blocks themselves
 * are applied by strategies/search-replace.ts.
 */
import { labelAbove } from '../labels.js';
import type { PathExists } from '../header.js';
import type { FileOperation, ParseFailureCode } from '../types.js';
import { fail, ok, type Result } from '../../result.js';

const SEARCH = /^\s*(<{5,9}|-{5,9})\s*SEARCH\s*$/;
const REPLACE = /^\s*(>{5,9}|\+{5,9})\s*REPLACE\s*$/;
const DIVIDER = /^\s*={5,9}\s*$/;

/** Whether a block body is SEARCH/REPLACE blocks: its first line that is not blank or a path is a SEARCH marker. */
export function startsWithSearchBlock(lines: readonly string[], exists?: PathExists): boolean {
  for (const line of lines) {
    if (line.trim() === '') continue;
    if (SEARCH.test(line)) return true;
    if (labelAbove([line], exists)?.kind !== 'label') return false;
  }
  return false;
}

/** Whether a line is a SEARCH marker. */
export function isSearchMarker(line: string): boolean {
  return SEARCH.test(line);
}

/**
 * Splits lines holding SEARCH/REPLACE blocks into one write operation per run of blocks for the
 * same file. `path` is the file named before the first block (fence's first line, the label
 * above); `firstLine` is the answer's 1-based line of lines[0]. Returns the operations and the
 * last file named, which later blocks without a path inherit.
 */
export function splitSearchReplace(
  lines: readonly string[],
  firstLine: number,
  path: string | null,
  exists?: PathExists,
): Result<{ ops: FileOperation[]; lastPath: string | null }, ParseFailureCode> {
  const ops: FileOperation[] = [];
  let current = path;
  let run: { path: string; lines: string[]; line: number } | null = null;
  const flush = (): void => {
    if (run) ops.push({ kind: 'write', path: run.path, strategy: 'search-replace', body: run.lines.join('\n'), origin: { format: 'search-replace', line: run.line } });
    run = null;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!SEARCH.test(line)) {
      const label = line.trim() === '' ? null : labelAbove([line], exists);
      if (label?.kind === 'label' && label.path !== current) {
        flush();
        current = label.path;
      }
      i += 1;
      continue;
    }
    const start = i;
    let divider = -1;
    let end = -1;
    for (let j = i + 1; j < lines.length; j += 1) {
      if (REPLACE.test(lines[j]!)) {
        end = j;
        break;
      }
      if (SEARCH.test(lines[j]!)) break;
      if (divider === -1 && DIVIDER.test(lines[j]!)) divider = j;
    }
    if (end === -1) {
      return fail(
        'TRUNCATED_RESPONSE',
        `The SEARCH/REPLACE block starting on line ${firstLine + start}${current ? ` (for ${current})` : ''} never reaches its ">>>>>>> REPLACE" line${divider === -1 ? ' (nor its "=======" divider)' : ''}: the answer looks cut off. Nothing was applied, not even the complete blocks; ask the assistant to resend the rest.`,
      );
    }
    if (current === null) {
      return fail('UNHEADED_FILE_BLOCK', `The SEARCH/REPLACE block on line ${firstLine + start} does not say which file it edits (put the path on the line above the fence). Nothing was applied.`);
    }
    if (run === null || (run as { path: string }).path !== current) {
      flush();
      run = { path: current, lines: [], line: firstLine + start };
    }
    (run as { lines: string[] }).lines.push(...lines.slice(start, end + 1));
    i = end + 1;
  }
  flush();
  return ok({ ops, lastPath: current });
}
