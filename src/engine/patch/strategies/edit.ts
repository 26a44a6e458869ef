import { failPatch, type ApplyFailureCode, type PatchFailure } from '../types.js';
import { KeyedFile, locate, MATCH_TIERS, type EditLine, type LocateOptions, type MatchTier } from '../match.js';
import { renderPlacement } from '../render.js';
import { findLazyPlaceholders } from '../lazy.js';
import { fromFileText, spliceLines, type FileText } from '../text.js';
import { ok } from '../../result.js';

/** What to call an edit in messages ("SEARCH block 2", "hunk 3"). */
export interface EditLabel {
  readonly name: string;
  readonly notFound: Extract<ApplyFailureCode, 'SEARCH_NOT_FOUND' | 'HUNK_NOT_FOUND'>;
  readonly ambiguous: Extract<ApplyFailureCode, 'SEARCH_AMBIGUOUS' | 'HUNK_AMBIGUOUS'>;
}

/** Trims blank context/removal lines from both ends of an edit (models often add or drop them). */
export function trimBlankEdges(edit: readonly EditLine[]): EditLine[] {
  let start = 0;
  let end = edit.length;
  while (start < end && edit[start]!.op !== 'add' && edit[start]!.text.trim() === '') start += 1;
  while (end > start && edit[end - 1]!.op !== 'add' && edit[end - 1]!.text.trim() === '') end -= 1;
  return edit.slice(start, end);
}

/**
 * Places one edit in the file and applies it. Variants are tried in order (e.g. with and
 * without blank edge lines); the first variant that is found or ambiguous decides.
 */
export function applyEdit(
  file: FileText,
  variants: readonly (readonly EditLine[])[],
  path: string,
  label: EditLabel,
  options: LocateOptions = {},
): { ok: true; value: { file: FileText; tier: MatchTier; end: number } } | { ok: false; error: PatchFailure<ApplyFailureCode> } {
  const added = (variants[0] ?? []).filter((e) => e.op === 'add').map((e) => e.text);
  const removesCode = (variants[0] ?? []).some((e) => e.op === 'del' && e.text.trim() !== '');
  if (added.length > 0 && removesCode) {
    // "// ... existing code ..." standing in for removed lines would delete them for real.
    const lazy = findLazyPlaceholders(added.join('\n'), () => fromFileText(file), path);
    if (lazy.length > 0) {
      return failPatch('LAZY_PLACEHOLDER', `${path}: ${label.name} replaces code with a placeholder (${JSON.stringify(lazy[0]!.text)}); applying it would delete that code. Ask for the full replacement text.`, { path, edit: label.name });
    }
  }
  const keyed = KeyedFile.of(file);
  const located: LocateOptions = { ...options, keys: new Map() };
  // Tiers outside, variants inside: an exact match of a later variant beats a looser match of
  // an earlier one (context pasted without its prefix matches exactly once read whole).
  for (const tier of MATCH_TIERS) {
    for (const edit of variants) {
      if (!edit.some((e) => e.op !== 'add')) continue;
      // Building a tier's index reads every line; searching a built one scans an array of numbers.
      if (options.budget && !options.budget.charge((keyed.has(tier) ? file.lines.length / 32 : file.lines.length) + edit.length)) {
        return failPatch('PLAN_TOO_LARGE', `${path}: the answer asks for more matching work than Relay Desk allows (thousands of edits of large files); nothing was applied. Ask for fewer, larger edits or whole files.`, { path, edit: label.name });
      }
      const found = locate(keyed, edit, [tier], located);
      if (found.kind === 'missing') continue;
      if (found.kind === 'ambiguous') {
        return failPatch(
          label.ambiguous,
          `${path}: ${label.name} matches ${found.lines.length} places (lines ${found.lines.slice(0, 5).join(', ')}${found.lines.length > 5 ? ', …' : ''}); refusing to guess. Ask for more context lines.`,
          { path, edit: label.name, lines: found.lines },
        );
      }
      const lines = renderPlacement(file, edit, found.placement);
      const { start, end } = found.placement;
      // Every applied edit copies the file's lines and indexes once more.
      if (options.budget && !options.budget.charge(file.lines.length / 2)) {
        return failPatch('PLAN_TOO_LARGE', `${path}: the answer asks for more matching work than Relay Desk allows (thousands of edits of large files); nothing was applied. Ask for fewer, larger edits or whole files.`, { path, edit: label.name });
      }
      const next = spliceLines(file, start, end - start, lines);
      keyed.spliced(next, start, end - start, lines.length);
      return ok({ file: next, tier: found.placement.tier, end: start + lines.length });
    }
  }
  const expected = (variants[0] ?? []).filter((e) => e.op !== 'add').map((e) => e.text);
  const first = expected.find((t) => t.trim() !== '')?.trim() ?? '';
  return failPatch(label.notFound, `${path}: ${label.name} was not found in the file${first ? ` (it starts with ${JSON.stringify(first.slice(0, 80))})` : ''}. A context or removed line differs from the file in more than whitespace; the file may have changed since the assistant saw it.`, { path, expected, edit: label.name });
}
