/**
 * Applies the body of a V4A `*** Update File:` section, following OpenAI's reference
 * apply_patch.py: sections are placed in order, each searched for from where the previous one
 * ended. A section's `@@` anchors are looked for first, one after the other (an anchor already
 * passed counts as found); after an anchor the first place where the section's context and
 * removed lines occur is taken, without one they must occur exactly once. `*** End of File`
 * pins a section to the end of the file. Matching tolerates whitespace as every edit does.
 */
import type { ApplyFailureCode, PatchFailure } from '../types.js';
import { failPatch } from '../types.js';
import { lineKey, type EditLine, type LocateOptions, type MatchTier, type WorkBudget } from '../match.js';
import { newLine, spliceLines, type FileText } from '../text.js';
import { applyEdit, trimBlankEdges } from './edit.js';
import { ok } from '../../result.js';

interface Section {
  readonly anchors: readonly string[];
  readonly lines: readonly EditLine[];
  readonly eof: boolean;
}

type Applied = { ok: true; value: { file: FileText; tiers: MatchTier[] } } | { ok: false; error: PatchFailure<ApplyFailureCode> };

/** Splits an Update File body into sections at `@@` lines (consecutive `@@` lines are nested anchors). */
export function parseV4ASections(body: string): Section[] {
  const sections: Array<{ anchors: string[]; lines: EditLine[]; eof: boolean }> = [];
  let current: { anchors: string[]; lines: EditLine[]; eof: boolean } | null = null;
  const open = (): { anchors: string[]; lines: EditLine[]; eof: boolean } => {
    current = { anchors: [], lines: [], eof: false };
    sections.push(current);
    return current;
  };
  for (const line of body.split('\n')) {
    if (/^@@/.test(line)) {
      const section = current !== null && (current as { lines: EditLine[] }).lines.length === 0 ? current : open();
      const anchor = line.replace(/^@@ ?/, '');
      if (anchor.trim() !== '') section.anchors.push(anchor);
      continue;
    }
    const section = current ?? open();
    if (/^\s*\*\*\* End of File\s*$/.test(line)) section.eof = true;
    else if (line.startsWith('+')) section.lines.push({ op: 'add', text: line.slice(1) });
    else if (line.startsWith('-')) section.lines.push({ op: 'del', text: line.slice(1) });
    else if (line.startsWith(' ')) section.lines.push({ op: 'ctx', text: line.slice(1) });
    else section.lines.push({ op: 'ctx', text: line }); // an empty line, or one that lost its space
  }
  return sections.filter((s) => s.lines.length > 0 || s.anchors.length > 0);
}

/** The line index right after `anchor` at or after `from`: exact first, then ignoring whitespace; -1 when absent. */
function findAnchor(file: FileText, anchor: string, from: number): number {
  const texts = file.lines.map((l) => l.text);
  const exact = texts.indexOf(anchor, from);
  if (exact !== -1) return exact + 1;
  const key = lineKey(anchor, 'indent');
  for (let i = from; i < texts.length; i += 1) if (lineKey(texts[i]!, 'indent') === key) return i + 1;
  return -1;
}

/** Whether the anchor already occurred before `position` (it then counts as found, as in apply_patch.py). */
function passedAnchor(file: FileText, anchor: string, position: number): boolean {
  const key = lineKey(anchor, 'indent');
  for (let i = 0; i < position; i += 1) if (lineKey(file.lines[i]!.text, 'indent') === key) return true;
  return false;
}

/** Applies an Update File body to the file, section by section. */
export function applyV4AUpdate(file: FileText | null, body: string, path: string, budget?: WorkBudget): Applied {
  const sections = parseV4ASections(body);
  if (file === null) {
    const expected = sections.flatMap((s) => [...s.anchors, ...s.lines.filter((l) => l.op !== 'add').map((l) => l.text)]);
    const first = expected.find((t) => t.trim() !== '')?.trim();
    return failPatch('FILE_NOT_FOUND', `${path} does not exist; the patch updates it${first ? ` and expects it to contain ${JSON.stringify(first.slice(0, 120))}` : ''}. Only "*** Add File:" creates a file. Nothing was applied.`, { path });
  }
  let current = file;
  let position = 0;
  const tiers: MatchTier[] = [];
  for (const [index, section] of sections.entries()) {
    const name = sections.length > 1 ? `section ${index + 1}` : 'the section';
    for (const anchor of section.anchors) {
      if (passedAnchor(current, anchor, position)) continue;
      const after = findAnchor(current, anchor, position);
      if (after === -1) {
        return failPatch('HUNK_NOT_FOUND', `${path}: the anchor "@@ ${anchor.trim()}" of ${name} is not in the file${position > 0 ? ` after line ${position}` : ''}. The file may have changed since the assistant saw it.`, { path, expected: [anchor], edit: name });
      }
      position = after;
    }
    const old = section.lines.filter((l) => l.op !== 'add');
    if (old.length === 0) {
      const added = section.lines.map((l) => newLine(l.text));
      let at: number;
      if (section.eof) at = current.lines.length;
      else if (section.anchors.length > 0) at = position;
      else return failPatch('HUNK_NOT_FOUND', `${path}: ${name} only adds lines and has no anchor or context, so there is no way to tell where they go.`, { path, edit: name });
      current = spliceLines(current, at, 0, added);
      position = at + added.length;
      tiers.push('exact');
      continue;
    }
    const placement: LocateOptions = section.eof ? { from: position, atEnd: true } : section.anchors.length > 0 ? { from: position, first: true } : { from: position };
    const options: LocateOptions = budget ? { ...placement, budget } : placement;
    const label = { name, notFound: 'HUNK_NOT_FOUND', ambiguous: 'HUNK_AMBIGUOUS' } as const;
    const applied = applyEdit(current, [section.lines, trimBlankEdges(section.lines)], path, label, options);
    if (!applied.ok) {
      if (applied.error.code === 'HUNK_NOT_FOUND' && section.eof) return { ok: false, error: { ...applied.error, message: `${applied.error.message} (The section is marked "*** End of File": it must match the file's last lines.)` } };
      return applied;
    }
    current = applied.value.file;
    position = applied.value.end;
    tiers.push(applied.value.tier);
  }
  return ok({ file: current, tiers });
}
