// The record crash recovery leaves for a transaction it rolls back, so the interrupted apply is
// a run like any other (in the app's history, with its diff) whichever process recovered it: a
// committed record, `.relaycode/<uuid>.yml`, with `approved: false` and a `recovered` marker.
// engine/records reads it as a rolled-back run; it is never in `relay log`'s list, never
// reverted, and the same answer can be applied again.
import { readTextOrNull } from '../fs/read.js';
import { nodeIo, type WriteIo } from '../fs/write-io.js';
import type { TransactionRecord } from '../records/transaction-schema.js';
import { hasCommitted } from '../records/transactions.js';
import { writeCommitted } from './state.js';
import { fileStat } from './summary.js';

/** What the interrupted apply had written, taken before recovery puts the files back. */
export interface InterruptedWrite {
  /** Each file of the answer as the interrupted apply left it (null: absent). */
  readonly after: Readonly<Record<string, string | null>>;
}

/** Reads what the interrupted apply left in each of its files (through the path chokepoint). */
export function captureInterruptedWrite(root: string, record: TransactionRecord): InterruptedWrite {
  const after: Record<string, string | null> = {};
  for (const file of Object.keys(record.snapshot)) after[file] = readTextOrNull(root, file);
  return { after };
}

/** The rolled-back record of a pending transaction recovery has undone. */
export function rolledBackRecordOf(record: TransactionRecord, written: InterruptedWrite, restored: readonly string[], at: Date): TransactionRecord {
  const changed = Object.keys(record.snapshot).filter((file) => (written.after[file] ?? null) !== record.snapshot[file]);
  const { owner: _owner, worktree: _worktree, branchFrom: _branchFrom, ...kept } = record;
  return {
    ...kept,
    approved: false,
    result: Object.fromEntries(changed.map((file) => [file, written.after[file] ?? null])),
    files: changed.map((file) => fileStat(file, record.snapshot[file] ?? null, written.after[file] ?? null)),
    recovered: { at: at.toISOString(), restored: [...restored] },
  };
}

/**
 * Writes the rolled-back record unless the transaction already has a committed one (an earlier
 * recovery wrote it and was interrupted before it finished). Best effort: a disk too full for it
 * must not keep the tree from being put back, so a failed write is only reported as false.
 */
export function recordRollback(root: string, rolledBack: TransactionRecord, io: WriteIo = nodeIo): boolean {
  if (hasCommitted(root, rolledBack.uuid)) return true;
  try {
    writeCommitted(root, rolledBack, io);
    return true;
  } catch {
    return false;
  }
}
