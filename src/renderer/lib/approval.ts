// The decision a person builds in the approval dialog, as the `approve` channel takes it.
// Pure: which files are kept, and what the buttons say.

/** What Approve sends: `keep` only for a partial approval; null when nothing is checked (nothing to approve). */
export function approvalKeep(allPaths: readonly string[], checked: ReadonlySet<string>): { readonly keep?: string[] } | null {
  const kept = allPaths.filter((p) => checked.has(p));
  if (kept.length === 0) return null;
  // Every file checked is a plain approval; the engine then needs no list to compare.
  if (kept.length === allPaths.length) return {};
  return { keep: kept };
}

/** "Approve", "Approve 1 of 2 files". */
export function approveLabel(total: number, checked: number): string {
  if (checked === total) return total === 1 ? 'Approve' : `Approve all ${total} files`;
  return `Approve ${checked} of ${total} files`;
}

/** True for the platform's "command" modifier: ⌘ on macOS, Ctrl elsewhere. */
export function isMacPlatform(platform: string): boolean {
  return /mac|iphone|ipad/i.test(platform);
}

/** The shortcut labels shown on the dialog's buttons. */
export function shortcutLabels(platform: string): { readonly approve: string; readonly reject: string } {
  return { approve: isMacPlatform(platform) ? '⌘↵' : 'Ctrl+Enter', reject: 'Esc' };
}
