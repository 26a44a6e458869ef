// The run detail of a patch: from its transaction record (reasoning, message, linter output,
// state and a diff of every file it changed, a pending one against what is on disk now), or,
// for a patch that left no record (rejected, refused, rolled back in the app), from what the
// person was shown.
import type { PatchDetail } from '../../shared/contract.js';
import type { FailureData, PatchResult, PatchReview } from '../../shared/schemas.js';
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
    // A committed record keeps no answer text: a rolled-back one is retried by pasting it again.
    answer: null,
  };
}

/**
 * The detail of a patch the app ran that left no committed record: the review the person saw
 * (when it got that far), the engine's outcome and why it ended so. A person's "no" rolls the
 * files back too; history calls that rejected, not rolled back.
 */
export function unrecordedPatchDetail(patch: PatchResult, review: PatchReview | null, failure: FailureData | null): PatchDetail {
  const problem = patch.error ?? failure;
  const state = patch.status === 'applied' ? 'approved' : patch.status === 'rolled-back' && patch.error?.code === 'REJECTED' ? 'rejected' : patch.status;
  return {
    kind: 'patch',
    state,
    uuid: patch.uuid ?? '',
    source: null,
    reasoning: review ? [...review.reasoning] : [],
    files: review ? review.files.map((f) => ({ ...f })) : patch.files.map((f) => ({ ...f, diff: '' })),
    gitCommitMsg: review?.gitCommitMsg ?? null,
    promptSummary: review?.promptSummary ?? null,
    linter: review?.linter ? { errorsBefore: review.linter.errorsBefore, errorsAfter: review.linter.errorsAfter, output: review.linter.output } : null,
    revertOf: null,
    revertedBy: null,
    warnings: [...patch.warnings, ...(review?.warnings ?? [])],
    // The refusal with what fixes it (reply, closest lines, block): the run detail offers them.
    error: problem ? { ...problem } : null,
    // Nothing was kept, so the answer is: "Retry" applies it again once the file is fixed.
    answer: patch.status === 'applied' ? null : (patch.answer ?? null),
  };
}
