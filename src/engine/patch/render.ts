import type { FileText, Line } from './text.js';
import { newLine } from './text.js';
import { indentWidth, leadingWhitespace, type EditLine, type Placement } from './match.js';

/**
 * For each indentation width of the old lines, the indentation the file uses there: the old
 * indentation itself when the file has it verbatim for that width, else the file's most common.
 */
export function indentMapping(old: readonly string[], fileLines: readonly Line[], pairs: ReadonlyArray<readonly [number, number]>): Map<number, string> {
  const seen = new Map<number, Map<string, number>>();
  const verbatim = new Map<number, string>();
  for (const [o, f] of pairs) {
    const oldText = old[o]!;
    if (oldText.trim() === '') continue;
    const oldIndent = leadingWhitespace(oldText);
    const fileIndent = leadingWhitespace(fileLines[f]!.text);
    const width = indentWidth(oldText);
    const counts = seen.get(width) ?? new Map<string, number>();
    counts.set(fileIndent, (counts.get(fileIndent) ?? 0) + 1);
    seen.set(width, counts);
    if (oldIndent === fileIndent) verbatim.set(width, fileIndent);
  }
  const mapping = new Map<number, string>();
  for (const [width, counts] of seen) {
    mapping.set(width, verbatim.get(width) ?? [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
  }
  return mapping;
}

/** The indentation step of a file: a tab, or the most common increase in leading spaces. */
export function detectIndentUnit(lines: readonly string[]): string {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const text of lines) {
    if (text.trim() === '') continue;
    if (text.startsWith('\t')) tabs += 1;
    else if (text.startsWith(' ')) spaces += 1;
    const width = indentWidth(text);
    const step = width - previous;
    if (step > 0 && !text.startsWith('\t')) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = width;
  }
  if (tabs > spaces) return '\t';
  let unit = 0;
  let seen = 0;
  for (const [step, count] of steps) {
    if (step <= 8 && (count > seen || (count === seen && step < unit))) {
      unit = step;
      seen = count;
    }
  }
  return ' '.repeat(unit || 2);
}

/**
 * Builds the lines that replace the placed region: context lines come from the file verbatim,
 * removed lines go, added lines are written with the file's indentation when the match was
 * made by relative indentation.
 */
export function renderPlacement(file: FileText, edit: readonly EditLine[], placement: Placement): Line[] {
  const oldLines = edit.filter((e) => e.op !== 'add').map((e) => e.text);
  const fileOf = new Map(placement.pairs.map(([o, f]) => [o, f]));
  const reindent = makeReindenter(file, edit, oldLines, placement);
  const out: Line[] = [];
  let cursor = placement.start;
  let oldIndex = 0;
  let previousOp: EditLine['op'] | null = null;
  const nextAlignedOp = (fromOld: number): EditLine['op'] | null => {
    let o = 0;
    for (const e of edit) {
      if (e.op === 'add') continue;
      if (o >= fromOld && fileOf.has(o)) return e.op;
      o += 1;
    }
    return null;
  };
  for (const e of edit) {
    if (e.op === 'add') {
      out.push(newLine(reindent(e.text)));
      continue;
    }
    const target = fileOf.get(oldIndex);
    if (target === undefined && e.text.trim() === '') {
      // A blank line of the answer the blank-lines tier did not pair: it stands for the file's blank
      // line at this point, if there is one, so what follows lands after it.
      const line = file.lines[cursor];
      if (line && line.text.trim() === '' && cursor < placement.end) {
        if (e.op === 'ctx') out.push(line);
        cursor += 1;
      }
    }
    if (target !== undefined) {
      // File lines the blank-lines tier skipped stay; blank ones inside a removal go with it.
      const dropBlankGap = previousOp === 'del' && nextAlignedOp(oldIndex) === 'del';
      for (let k = cursor; k < target; k += 1) if (!dropBlankGap || file.lines[k]!.text.trim() !== '') out.push(file.lines[k]!);
      if (e.op === 'ctx') out.push(file.lines[target]!);
      cursor = target + 1;
      previousOp = e.op;
    }
    oldIndex += 1;
  }
  return out;
}

function makeReindenter(file: FileText, edit: readonly EditLine[], oldLines: readonly string[], placement: Placement): (text: string) => string {
  if (placement.tier === 'exact' || placement.tier === 'loose') return (text) => text;
  const verbatim = placement.pairs.every(([o, f]) => oldLines[o]!.trim() === '' || leadingWhitespace(oldLines[o]!) === leadingWhitespace(file.lines[f]!.text));
  if (verbatim) return (text) => text;
  const mapping = indentMapping(oldLines, file.lines, placement.pairs);
  if (mapping.size === 0) return (text) => text;
  const fileUnit = detectIndentUnit(file.lines.map((l) => l.text));
  const oldUnitWidth = indentWidth(detectIndentUnit(edit.map((e) => e.text))) || 2;
  const known = [...mapping.entries()].sort((a, b) => a[0] - b[0]);
  const fileUsesTabs = [...mapping.values()].some((indent) => indent.includes('\t'));
  return (text) => {
    if (text.trim() === '') return '';
    // A tab-indented line for a tab-indented file is already in the file's style.
    if (fileUsesTabs && /^\t+\S/.test(text)) return text;
    const width = indentWidth(text);
    const body = text.slice(leadingWhitespace(text).length);
    const exact = mapping.get(width);
    if (exact !== undefined) return exact + body;
    const below = [...known].reverse().find(([w]) => w < width);
    if (below) {
      const levels = Math.max(0, Math.round((width - below[0]) / oldUnitWidth));
      return below[1] + fileUnit.repeat(levels) + body;
    }
    const above = known[0]!;
    const levels = Math.round((above[0] - width) / oldUnitWidth);
    let indent = above[1];
    for (let i = 0; i < levels; i += 1) indent = indent.endsWith(fileUnit) ? indent.slice(0, indent.length - fileUnit.length) : indent.replace(/[ \t]$/, '');
    return indent + body;
  };
}
