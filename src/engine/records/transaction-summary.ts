// What a transaction record becomes for each reader: a history row, and the summary a brief or
// `relay log` lists (the run detail, with its diffs, is transaction-detail.ts: `relay log` does
// not load the diff library). Built here once from a read record.
import { STATE_DIR } from '../patch/names.js';
import { describeStats } from '../patch/stats.js';
import { assertNever } from '../result.js';
import { runId, type IndexedRun } from './rows.js';
import type { FileStat, TransactionRecord } from './transaction-schema.js';
import { isRolledBack, type ReadTransaction } from './transactions.js';

/** The code of a transaction crash recovery rolled back. */
export const APPLY_INTERRUPTED = 'APPLY_INTERRUPTED';

/** How a transaction stands, as its files say. */
export type TransactionState = 'pending' | 'approved' | 'reverted' | 'rolled-back';

/** The state of a read transaction. */
export function transactionState({ record, pending }: ReadTransaction): TransactionState {
  if (pending) return 'pending';
  if (isRolledBack(record)) return 'rolled-back';
  return record.revertedBy ? 'reverted' : 'approved';
}

/** The title a transaction is listed under. */
export function transactionTitle(record: TransactionRecord): string {
  return record.gitCommitMsg ?? record.promptSummary ?? (record.revertOf ? `Revert ${record.revertOf}` : `Patch ${record.uuid.slice(0, 8)}`);
}

/** "Rolled back after an interrupted apply: 2 files restored." */
export function describeRollback(record: TransactionRecord): string {
  const restored = record.recovered?.restored ?? Object.keys(record.snapshot);
  return `Rolled back after an interrupted apply: ${restored.length} file${restored.length === 1 ? '' : 's'} restored.`;
}

/** The history row of one transaction. */
export function transactionRun(projectId: string, read: ReadTransaction): IndexedRun {
  const { record } = read;
  const state = transactionState(read);
  const file = `${STATE_DIR}/${record.uuid}${read.pending ? '.pending' : ''}.yml`;
  const common = { id: runId(projectId, 'patch', record.uuid), projectId, kind: 'patch' as const, title: transactionTitle(record), startedAt: record.createdAt, file, origin: 'file' as const, taskId: null, detail: null };
  switch (state) {
    case 'pending':
      return { ...common, status: 'waiting', verdict: 'pending', code: null, summary: `${Object.keys(record.snapshot).length} file(s) pending approval`, endedAt: null };
    case 'rolled-back':
      return { ...common, status: 'failed', verdict: 'rolled-back', code: APPLY_INTERRUPTED, summary: describeRollback(record), endedAt: record.recovered?.at ?? record.createdAt };
    case 'approved':
    case 'reverted':
      return { ...common, status: 'done', verdict: state, code: null, summary: describeStats(record.files), endedAt: record.createdAt };
    default:
      return assertNever(state);
  }
}

/** A patch transaction without the file contents its record keeps for rollback. */
export interface TransactionSummary {
  readonly uuid: string;
  readonly createdAt: string;
  readonly source: TransactionRecord['source'];
  readonly gitCommitMsg: string | null;
  readonly promptSummary: string | null;
  readonly reasoning: readonly string[];
  readonly files: readonly FileStat[];
  readonly decision: { readonly by: 'auto' | 'user'; readonly kept: readonly string[]; readonly rolledBack: readonly string[] } | null;
  readonly revertOf: string | null;
  readonly revertedBy: string | null;
  readonly warnings: readonly string[];
}

/** Strips a transaction record down to what a brief or a log needs. */
export function summariseTransaction(record: TransactionRecord): TransactionSummary {
  return {
    uuid: record.uuid,
    createdAt: record.createdAt,
    source: record.source,
    gitCommitMsg: record.gitCommitMsg ?? null,
    promptSummary: record.promptSummary ?? null,
    reasoning: record.reasoning,
    files: record.files,
    decision: record.decision ?? null,
    revertOf: record.revertOf ?? null,
    revertedBy: record.revertedBy ?? null,
    warnings: record.warnings,
  };
}
