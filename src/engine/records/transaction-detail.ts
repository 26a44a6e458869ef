// The run detail of a transaction: its reasoning, message, linter output, state and a diff of
// every file it changed (a pending one against what is on disk now).
import type { PatchDetail } from '../../shared/contract.js';
import { readTextOrNull } from '../fs/read.js';
import { fileStat, unifiedDiff } from '../patch/summary.js';
import { APPLY_INTERRUPTED, describeRollback, transactionState } from './transaction-summary.js';
import type { ReadTransaction } from './transactions.js';

/** What the run detail shows for a transaction: reasoning, diffs, message, linter output, state. */
export function transactionDetail(root: string, read: ReadTransaction): PatchDetail {
  const { record, pending } = read;
  const state = transactionState(read);
  const files = pending
    ? // A pending transaction's "after" is what is on disk now.
      Object.entries(record.snapshot).map(([file, before]) => {
        const now = readTextOrNull(root, file); // through the chokepoint: never a link out of the project
        return { ...fileStat(file, before, now), diff: unifiedDiff(file, before, now) };
      })
    : record.files.map((f) => ({ ...f, diff: unifiedDiff(f.path, record.snapshot[f.path] ?? null, record.result[f.path] ?? null) }));
  const restored = record.recovered?.restored ?? [];
  return {
    kind: 'patch',
    state,
    uuid: record.uuid,
    source: record.source,
    reasoning: [...record.reasoning],
    files,
    gitCommitMsg: record.gitCommitMsg ?? null,
    promptSummary: record.promptSummary ?? null,
    linter: record.linter ?? null,
    revertOf: record.revertOf ?? null,
    revertedBy: record.revertedBy ?? null,
    warnings: [...record.warnings],
    error:
      state === 'rolled-back'
        ? {
            code: APPLY_INTERRUPTED,
            message: `${describeRollback(record)} The process applying it stopped before it finished (a crash, a kill or a power cut), so crash recovery put back ${restored.length > 0 ? restored.join(', ') : 'every file it had changed'}${record.recovered ? ` at ${record.recovered.at}` : ''}. The diff shows what the interrupted apply had written; apply the answer again to get it.`,
          }
        : null,
  };
}
