import type { FileStat } from '../records/transaction-schema.js';

/** "3 files, +12/-4" */
export function describeStats(files: readonly FileStat[]): string {
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  return `${files.length} file${files.length === 1 ? '' : 's'}, +${added}/-${removed}`;
}
