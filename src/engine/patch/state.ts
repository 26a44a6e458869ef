// Writing transaction records: where they go in `.relaycode/`, and the atomic, durable writes
// the journal relies on. Reading them back (validated, as the input they are) is
// engine/records/transactions.ts.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { STATE_DIR } from './names.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { ownFile, ownFolder, type OwnFolderCode } from '../fs/safe-path.js';
import type { Result } from '../result.js';
import type { TransactionRecord } from '../records/transaction-schema.js';
import { nodeIo, type WriteIo } from '../fs/write-io.js';

/** The absolute path of the project's `.relaycode/` folder. */
export function stateDir(root: string): string {
  return path.join(root, STATE_DIR);
}

/**
 * The absolute path of one of Relay Desk's files in `.relaycode/`, checked right before it is
 * written or removed: `.relaycode` must be a real folder inside the project, not a link (a cloned
 * repository's `.relaycode -> /elsewhere` would otherwise receive the records). Throws: callers
 * checked `checkStateFolder` first, so a failure here means the folder changed mid-transaction.
 */
function ownRecordFile(root: string, name: string): string {
  const file = ownFile(root, STATE_DIR, name, { create: true });
  if (!file.ok) throw new Error(file.error.message);
  return file.value;
}

/** Checks `.relaycode` before Relay Desk uses it (see `ownFolder`); fine when it does not exist yet. */
export function checkStateFolder(root: string): Result<string, OwnFolderCode> {
  return ownFolder(root, STATE_DIR);
}

/**
 * Whether a command must run recovery before it acts: something a dead process left is in
 * `.relaycode`, or the state folder is not one Relay Desk may use (recovery says so, once). Cheap on purpose: the
 * CLI asks before it loads the transaction engine.
 */
export function needsRecovery(root: string): boolean {
  if (!checkStateFolder(root).ok) return true;
  let names: string[];
  try {
    names = readdirSync(stateDir(root));
  } catch {
    return false;
  }
  // What a dead process can leave: a pending record, backups, temp files, the lock (taken over
  // and released, so a crash leaves none behind), a lock break file, an interrupted git commit.
  return names.some((n) => n === 'lock.json' || n.endsWith('.pending.yml') || n.endsWith('.pending.json') || n.endsWith('.backup') || n.endsWith('.tmp') || n.startsWith('.git-commit-') || n.includes('.break-'));
}

/** Where transaction `uuid`'s pending record (its journal) is written. */
export function pendingPath(root: string, uuid: string): string {
  return path.join(stateDir(root), `${uuid}.pending.yml`);
}

/** Where transaction `uuid`'s committed record is written. */
export function committedPath(root: string, uuid: string): string {
  return path.join(stateDir(root), `${uuid}.yml`);
}

function serialise(record: TransactionRecord): string {
  // Block scalars keep file contents readable; no line folding so content round-trips exactly.
  return stringifyYaml(record, { lineWidth: 0, blockQuote: 'literal' });
}

/** Writes the pending record atomically and durably (it is what a crash recovery reads). */
export function writePending(root: string, record: TransactionRecord, io: WriteIo = nodeIo): void {
  writeFileAtomic(ownRecordFile(root, `${record.uuid}.pending.yml`), serialise(record), { io });
}

/**
 * Writes the committed record atomically and durably: the commit point of a transaction. The
 * pending record stays until the caller has cleaned up (see journal.ts).
 */
export function writeCommitted(root: string, record: TransactionRecord, io: WriteIo = nodeIo): void {
  writeFileAtomic(ownRecordFile(root, `${record.uuid}.yml`), serialise(record), { io });
}

/** Removes transaction `uuid`'s pending record (the last step of closing its journal). */
export function removePending(root: string, uuid: string, io: WriteIo = nodeIo): void {
  io.remove(ownRecordFile(root, `${uuid}.pending.yml`));
}
