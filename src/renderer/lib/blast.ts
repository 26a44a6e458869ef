// Blast radius: how much a run changed, as +/- lines and files. History rows carry it as the
// summary text the store writes ("3 files, +40/-2, 1 new" for ticks and patches); run details
// carry it structured. Both end up as one shape here.

export interface Blast {
  readonly files: number;
  readonly added: number;
  readonly removed: number;
  /** Files that did not exist before (ticks report it; patches count created files). */
  readonly created: number;
}

const SUMMARY = /^(\d+) files?, \+(\d+)\/-(\d+)(?:, (\d+) new)?$/;

/** Reads a history summary written by the store (describeStats / a tick's blast radius); null for any other text. */
export function parseBlastSummary(summary: string): Blast | null {
  const m = SUMMARY.exec(summary.trim());
  if (!m) return null;
  return { files: Number(m[1]), added: Number(m[2]), removed: Number(m[3]), created: m[4] ? Number(m[4]) : 0 };
}

/** The blast of a list of file changes (a patch's files). */
export function blastOfFiles(files: ReadonlyArray<{ readonly added: number; readonly removed: number; readonly change?: string }>): Blast {
  return {
    files: files.length,
    added: files.reduce((n, f) => n + f.added, 0),
    removed: files.reduce((n, f) => n + f.removed, 0),
    created: files.filter((f) => f.change === 'create').length,
  };
}

/** A tick report's blast_radius (read tolerantly: it is JSON from disk). */
export function blastOfReport(value: unknown): Blast | null {
  if (value === null || typeof value !== 'object') return null;
  const b = value as Record<string, unknown>;
  const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : 0);
  if (!('files_touched' in b)) return null;
  return { files: num(b.files_touched), added: num(b.lines_added), removed: num(b.lines_deleted), created: num(b.new_files) };
}

/** "1,234": numbers in the user's locale-independent grouping, so screenshots and tests agree. */
export function groupDigits(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "3 files" / "1 file". */
export function filesLabel(n: number): string {
  return `${groupDigits(n)} file${n === 1 ? '' : 's'}`;
}

/** "+40 −2 · 3 files · 1 new": the blast as one line for badges and screen readers. */
export function formatBlast(blast: Blast): string {
  const parts = [`+${groupDigits(blast.added)} −${groupDigits(blast.removed)}`, filesLabel(blast.files)];
  if (blast.created > 0) parts.push(`${groupDigits(blast.created)} new`);
  return parts.join(' · ');
}

/**
 * Up to five blocks for a GitHub-style change bar: green for added, red for removed, grey for
 * the rest, in proportion, with at least one block for a side that changed at all.
 */
export function changeBlocks(added: number, removed: number, blocks = 5): Array<'add' | 'del' | 'none'> {
  const total = added + removed;
  if (total === 0) return Array.from({ length: blocks }, () => 'none' as const);
  const filled = Math.min(blocks, total);
  let adds = Math.round((added / total) * filled);
  if (added > 0 && adds === 0) adds = 1;
  if (removed > 0 && adds === filled) adds = filled - 1;
  const dels = filled - adds;
  return [...Array.from({ length: adds }, () => 'add' as const), ...Array.from({ length: dels }, () => 'del' as const), ...Array.from({ length: blocks - filled }, () => 'none' as const)];
}
