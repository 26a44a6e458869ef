import { randomUUID } from 'node:crypto';
import { readInsideRoot } from '../fs/project-write.js';
import { merge } from 'node-diff3';
import { loadRelayConfig, type RelayConfig } from './config.js';
import type { PlannedChange } from './plan.js';
import { isRolledBack, listCommitted, loadRecord, withDerivedRevert, type RecordProblemCode } from '../records/transactions.js';
import type { TransactionRecord } from '../records/transaction-schema.js';
import { committedPath } from './state.js';
import { lockAndRecover, runTransaction, type Decision, type PatchHooks, type PatchOutcome, type PendingReview } from './transaction.js';
import { toFileText } from './text.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isTracked } from '../git/ls-files.js';
import { fail, ok, type Failure, type Result } from '../result.js';

export interface RevertRequest {
  readonly root: string;
  /** A transaction uuid, or its 1-based position in the log (1 = newest). Defaults to 1. */
  readonly target?: string;
  readonly decide: (review: PendingReview) => Promise<Decision>;
  readonly config?: RelayConfig;
}

/** Finds a committed transaction by uuid (or unique prefix) or by log index. */
export function findTransaction(root: string, target = '1'): Result<TransactionRecord, 'TRANSACTION_NOT_FOUND' | 'TRANSACTION_NOT_APPLIED' | RecordProblemCode> {
  if (/^\d+$/.test(target) && target.length < 6) {
    const records = listCommitted(root);
    const record = records[Number(target) - 1];
    if (!record) return fail('TRANSACTION_NOT_FOUND', `There is no transaction number ${target}; \`relay log\` lists ${records.length}.`);
    return ok(record);
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(target)) return fail('TRANSACTION_NOT_FOUND', `Not a transaction id: ${JSON.stringify(target)}`);
  // A record is input like an answer: one naming a path an answer could never write is refused here.
  if (existsSync(committedPath(root, target))) {
    const loaded = loadRecord(committedPath(root, target));
    if (!loaded.ok) return loaded;
    // Crash recovery's record of a transaction it rolled back: there is nothing of it in the tree to undo.
    if (isRolledBack(loaded.value)) {
      return fail('TRANSACTION_NOT_APPLIED', `Transaction ${target} was never applied: it was rolled back after an interrupted apply${loaded.value.recovered ? ` (${loaded.value.recovered.at})` : ''}, so there is nothing to revert. \`relay log\` lists the applied ones.`);
    }
    return ok(withDerivedRevert(root, loaded.value));
  }
  const matches = listCommitted(root).filter((r) => r.uuid.startsWith(target));
  if (matches.length === 1) return ok(matches[0]!);
  if (matches.length > 1) return fail('TRANSACTION_NOT_FOUND', `${target} matches ${matches.length} transactions; give more of the uuid.`);
  return fail('TRANSACTION_NOT_FOUND', `No transaction ${target} in this project (see \`relay log\`).`);
}


function lines(text: string): string[] {
  return toFileText(text).lines.map((l) => l.text + l.eol);
}

/**
 * Works out what each file should become to undo a transaction. A file changed since the
 * transaction is merged three ways (base: the transaction's result, ours: now, theirs: before);
 * a conflict refuses the revert and names the file.
 */
export function planRevert(root: string, record: TransactionRecord): Result<PlannedChange[], 'REVERT_CONFLICT' | 'NOTHING_TO_REVERT'> {
  const changes: PlannedChange[] = [];
  for (const [file, after] of Object.entries(record.result)) {
    const before = record.snapshot[file] ?? null;
    const current = readInsideRoot(root, file);
    if (current === before) continue;
    if (current === after) {
      changes.push({ path: file, before: current, after: before });
      continue;
    }
    if (current === null || after === null || before === null) {
      return fail(
        'REVERT_CONFLICT',
        `${file} changed after transaction ${record.uuid} (it was ${before === null ? 'created' : after === null ? 'deleted' : 'edited'} by it and ${current === null ? 'deleted' : 'changed'} since). Refusing to overwrite it; revert that file by hand.`,
        file,
      );
    }
    const merged = merge(lines(current), lines(after), lines(before), { excludeFalseConflicts: true });
    if (merged.conflict) {
      return fail('REVERT_CONFLICT', `${file} changed after transaction ${record.uuid} and the changes overlap the ones to undo. Nothing was reverted; resolve ${file} by hand or revert later changes first.`, file);
    }
    changes.push({ path: file, before: current, after: merged.result.join('') });
  }
  if (changes.length === 0) return fail('NOTHING_TO_REVERT', `Every file of transaction ${record.uuid} is already back to its earlier content.`);
  return ok(changes);
}

/**
 * Undoes a committed transaction as a new transaction. The revert's own record (with
 * `revertOf`) is its only write: readers derive "reverted" from it, so an interrupted revert
 * leaves the log agreeing with the tree.
 */
export async function revertTransaction(request: RevertRequest, hooks: PatchHooks = {}): Promise<PatchOutcome> {
  const { root } = request;
  const configResult = request.config ? { ok: true as const, value: request.config } : loadRelayConfig(root);
  if (!configResult.ok) return { status: 'rejected', error: configResult.error, recovered: [] };
  const locked = await lockAndRecover(root, hooks);
  if ('refused' in locked) return { status: 'rejected', error: locked.refused, recovered: locked.recovered };
  const { recovered } = locked;
  try {
    const found = findTransaction(root, request.target);
    if (!found.ok) return { status: 'rejected', error: found.error, recovered };
    const record = found.value;
    if (record.revertedBy) {
      const error: Failure = { code: 'ALREADY_REVERTED', message: `Transaction ${record.uuid} was already reverted by ${record.revertedBy}.` };
      return { status: 'rejected', uuid: record.uuid, error, recovered };
    }
    // A record git tracks came with the repository (a clone): reverting it would write what a
    // stranger chose into this work tree. Only records written here are reverted.
    const recordFile = path.relative(root, committedPath(root, record.uuid)).split(path.sep).join('/');
    if (await isTracked(root, recordFile)) {
      const error: Failure = { code: 'RECORD_FOREIGN', message: `${recordFile} is tracked by git, so it came with the repository and was not written by Relay Desk here; it is not reverted and nothing was changed. Delete it (\`git rm ${recordFile}\`).` };
      return { status: 'rejected', uuid: record.uuid, error, recovered };
    }
    const plan = planRevert(root, record);
    if (!plan.ok) return { status: 'rejected', uuid: record.uuid, error: plan.error, recovered };
    const uuid = randomUUID();
    const outcome = await runTransaction(
      {
        root,
        config: configResult.value,
        uuid,
        changes: plan.value,
        decide: request.decide,
        meta: {
          projectId: configResult.value.projectId,
          source: 'revert',
          contentHash: '',
          reasoning: [`Revert of ${record.uuid}${record.gitCommitMsg ? ` (${record.gitCommitMsg})` : ''}`],
          operations: [],
          warnings: [],
          gitCommitMsg: `Revert "${record.gitCommitMsg ?? record.uuid}"`,
          revertOf: record.uuid,
        },
      },
      hooks,
    );
    return { ...outcome, recovered } as PatchOutcome;
  } finally {
    locked.release();
  }
}
