// Crash recovery of a project: what every `relay` command (and the app, at start) does first.
// It finishes what a dead process left: transactions pending without a living owner are undone
// (or, when they reached their commit point, cleaned up), an interrupted `relay git commit` is
// finished, and temp files, backups and lock leftovers of dead processes are removed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describeErrno, FileWriteError, sweepTempFiles } from '../fs/atomic.js';
import { ownerIsGone } from '../fs/process.js';
import { nodeIo, type WriteIo } from '../fs/write-io.js';
import { finishInterruptedCommit } from '../git/durable-commit.js';
import { GitCommandError } from '../git/core.js';
import { isTracked } from '../git/ls-files.js';
import type { Failure } from '../result.js';
import { closeJournal, isCommitted, orphanBackups, undoTransaction } from './journal.js';
import { isVouched, sweepVouchers } from './voucher.js';
import { stopLeftoverCommands, transactionMark } from './leftover-commands.js';
import { acquireProjectLock, projectBusy } from './lock.js';
import { captureInterruptedWrite, recordRollback, rolledBackRecordOf } from './rolled-back.js';
import { listPending, loadRecord } from '../records/transactions.js';
import { checkStateFolder, needsRecovery, pendingPath, stateDir } from './state.js';

/** One transaction recovery rolled back, or a pending record it would not act on. */
export interface Recovery {
  readonly uuid: string;
  readonly restored: readonly string[];
  /**
   * Set when the pending record was not acted on: it is damaged, names a path an answer could
   * never write, or came with the repository (git tracks it). The record stays in place and
   * the tree is as it was.
   */
  readonly refused?: Failure;
}

/** What recovery did, and what it could not do yet (those stay pending for the next command). */
export interface RecoveryReport {
  readonly recovered: readonly Recovery[];
  readonly problems: readonly Failure[];
  /** One line when an interrupted `relay git commit` was finished or found not done. */
  readonly gitCommit: string | null;
}

export interface RecoveryHooks {
  readonly io?: WriteIo;
  readonly onRecovered?: (recovery: Recovery) => void;
  /** The clock of the rolled-back record's `recovered.at`. */
  readonly now?: () => Date;
}

/** The line of a message that says what went wrong (git's "fatal:"/"error:" line when there is one), capped. */
export function oneLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const line = lines.find((l) => /\b(fatal|error):/.test(l)) ?? lines[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** The git verb of an argument list (options and `-c name=value` skipped). */
function subcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '-c') i += 1;
    else if (!args[i]!.startsWith('-')) return args[i]!;
  }
  return '';
}

/** One line naming the file and the cause of a failure, relative to the project. */
export function describeFailure(root: string, error: unknown): string {
  if (error instanceof FileWriteError) return `${path.relative(root, error.file) || error.file}: ${describeErrno(error.cause)}`;
  // git writes its own files (.git/objects, the index); which one is in its message.
  if (error instanceof GitCommandError) return `git ${subcommand(error.args)} failed writing in .git: ${oneLine(error.stderr)}`;
  return oneLine(describeErrno(error));
}

/**
 * Recovers a project; call it holding the project lock. Transactions whose owner still runs
 * are left alone. Never throws for a write that fails: the problem is reported and the pending
 * record stays, so the next command tries again.
 */
export async function recoverUnlocked(root: string, hooks: RecoveryHooks = {}): Promise<RecoveryReport> {
  const io = hooks.io ?? nodeIo;
  const recovered: Recovery[] = [];
  const problems: Failure[] = [];
  const refuse = (uuid: string, refused: Failure): void => {
    const recovery = { uuid, restored: [], refused };
    recovered.push(recovery);
    hooks.onRecovered?.(recovery);
  };
  for (const uuid of listPending(root)) {
    // A record is input like an answer (state.ts loadRecord): one that is damaged or names a path
    // an answer could never write is reported, left where it is, and never acted on.
    const loaded = loadRecord(pendingPath(root, uuid));
    if (!loaded.ok) {
      refuse(uuid, loaded.error);
      continue;
    }
    const record = loaded.value;
    if (record.owner && !ownerIsGone(record.owner)) continue;
    // A record this repository's .git does not vouch for was not written here (it came with a
    // clone, a copied folder, or stayed after `git rm --cached`): undoing it would overwrite this
    // work tree with what a stranger wrote. Never run it.
    if (isVouched(root, uuid) === false) {
      const shown = path.relative(root, pendingPath(root, uuid));
      refuse(uuid, { code: 'RECORD_FOREIGN', message: `${shown} was not written by Relay Desk in this repository (it came with the files: a clone or a copy), so it was not run and nothing was changed. Delete it${(await isTracked(root, shown.split(path.sep).join('/'))) ? ' (it is tracked by git: `git rm` it)' : ''}.` });
      continue;
    }
    try {
      if (isCommitted(root, uuid)) {
        closeJournal(root, record, io); // the commit point was reached; only the clean-up was interrupted
        continue;
      }
      if (record.owner) await stopLeftoverCommands(transactionMark(root, uuid, record.owner));
      const written = captureInterruptedWrite(root, record);
      const restored = await undoTransaction(root, record, io);
      // Before the journal closes: a crash in between leaves the pending record, and the next
      // recovery (whose undo changes nothing more) keeps this record rather than writing another.
      recordRollback(root, rolledBackRecordOf(record, written, restored, hooks.now?.() ?? new Date()), io);
      closeJournal(root, record, io);
      const recovery = { uuid, restored };
      recovered.push(recovery);
      hooks.onRecovered?.(recovery);
    } catch (error) {
      problems.push({ code: 'RECOVERY_FAILED', message: `Interrupted transaction ${uuid} could not be rolled back yet: ${describeFailure(root, error)}. It stays pending; fix that and run any relay command again.` });
    }
  }
  let gitCommit: string | null = null;
  try {
    const finished = await finishInterruptedCommit(root, { dir: stateDir(root) }, ownerIsGone);
    if (finished.state === 'committed') gitCommit = `An interrupted \`relay git commit\` had committed ${finished.head?.slice(0, 10) ?? ''}; the index was brought in line.`;
    else if (finished.state === 'not-committed') gitCommit = 'An interrupted `relay git commit` had not committed anything; nothing was changed.';
    else if (finished.state === 'head-moved') gitCommit = 'An interrupted `relay git commit` was found, but HEAD has moved since; it was left as it is.';
    else if (finished.state === 'index-busy') gitCommit = 'An interrupted `relay git commit` had committed, but another git process holds the index now; the next relay command brings the index in line.';
  } catch (error) {
    problems.push({ code: 'RECOVERY_FAILED', message: `An interrupted \`relay git commit\` could not be finished: ${describeFailure(root, error)}.` });
  }
  try {
    for (const dir of orphanBackups(root)) io.remove(dir);
    sweepVouchers(root, listPending(root), io);
    sweepTempFiles(stateDir(root), { io });
  } catch (error) {
    // Said only when nothing else was: one line is enough when the disk refuses everything.
    if (problems.length === 0) problems.push({ code: 'RECOVERY_FAILED', message: `Leftover files in ${path.relative(root, stateDir(root))} could not be removed: ${describeFailure(root, error)}.` });
  }
  return { recovered, problems, gitCommit };
}

/** Recovers a project under its lock (what every `relay` command does first). */
export async function recoverPending(root: string, hooks: RecoveryHooks = {}): Promise<RecoveryReport | { readonly busy: Failure }> {
  // A `.relaycode` that is a link or not a folder is not ours: nothing in it is read or touched.
  const folder = checkStateFolder(root);
  if (!folder.ok) return { recovered: [], problems: [folder.error], gitCommit: null };
  if (!existsSync(stateDir(root)) || !needsRecovery(root)) return { recovered: [], problems: [], gitCommit: null };
  const lock = acquireProjectLock(root, hooks.now?.() ?? new Date());
  if ('failed' in lock) return { recovered: [], problems: [lock.failed], gitCommit: null };
  if ('heldBy' in lock) return { busy: projectBusy(lock) };
  try {
    return await recoverUnlocked(root, hooks);
  } finally {
    lock.release();
  }
}
