import { createTwoFilesPatch, diffLines } from 'diff';
import type { FileStat } from '../records/transaction-schema.js';

/** Lines added and removed between two versions of a file. */
export function countChanges(before: string | null, after: string | null): { added: number; removed: number } {
  if (before === after) return { added: 0, removed: 0 };
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before ?? '', after ?? '')) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { added, removed };
}

/** The +/- line of one file change. */
export function fileStat(path: string, before: string | null, after: string | null): FileStat {
  const change = before === null ? 'create' : after === null ? 'delete' : 'modify';
  return { path, change, ...countChanges(before, after) };
}

/** A unified diff of one file, as `git diff` would show it. */
export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  return createTwoFilesPatch(before === null ? '/dev/null' : `a/${path}`, after === null ? '/dev/null' : `b/${path}`, before ?? '', after ?? '', '', '', { context: 3 });
}

// Kept in its own module so that listing records (`relay log`) does not load the diff library.
export { describeStats } from './stats.js';
