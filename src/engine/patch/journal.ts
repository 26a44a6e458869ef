// A transaction's journal on disk, after SQLite's rollback journal: the pending record is
// written (durably) before the first change and holds everything needed to undo it; every file
// the transaction replaces is first hard-linked into `.relaycode/<uuid>.backup/`, so undoing it
// is a rename that needs no free space (a full disk can always be rolled back); the committed
// record is the commit point; cleaning up (backups, temp files, then the pending record) comes
// last and is idempotent. Rollback in the process and recovery after a crash run the same code.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { tickOwnedPaths } from '../fs/protected.js';
import { readTextOrNull } from '../fs/read.js';
import { resolveInsideRoot } from '../fs/safe-path.js';
import { describeErrno, FileWriteError, sweepTempFiles, writeFileAtomic } from '../fs/atomic.js';
import { nodeIo, type WriteIo } from '../fs/write-io.js';
import { captureExists, changesSinceCapture, restoreCapturedPaths } from '../git/capture.js';
import { deleteBranch, pointHeadAt } from '../git/branch.js';
import { headPosition } from '../git/head.js';
import { STATE_DIR } from './config.js';
import { reachedCommitPoint } from '../records/transactions.js';
import type { TransactionRecord } from '../records/transaction-schema.js';
import { pendingPath, removePending, stateDir, writeCommitted } from './state.js';
import { dropVoucher } from './voucher.js';

/** Folders a work-tree capture leaves out: the tool's own state. */
export const CAPTURE_EXCLUDE: readonly string[] = [STATE_DIR];

/** Where the hard-linked backups of transaction `uuid` are kept. */
export function backupDir(root: string, uuid: string): string {
  return path.join(stateDir(root), `${uuid}.backup`);
}

function backupPath(root: string, uuid: string, file: string): string {
  return path.join(backupDir(root, uuid), createHash('sha256').update(file).digest('hex').slice(0, 24));
}

function lexists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(file: string): boolean {
  try {
    return lstatSync(file).isDirectory();
  } catch {
    return false;
  }
}

// Hard links are refused on some file systems (FAT, some network shares, across devices): then
// undoing falls back to writing the content kept in the pending record.
const NO_LINKS = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

function fsFailure(file: string, error: unknown): FileWriteError {
  return error instanceof FileWriteError ? error : new FileWriteError(file, (error as NodeJS.ErrnoException).code ?? '', error);
}

/**
 * Where a project file named by outside input (an answer, a record read back) really is: through
 * the path chokepoint, checked again right before each write, so a link planted since the plan
 * is never written through. A refusal throws: the transaction rolls back (or recovery reports it).
 */
function projectPath(root: string, file: string): string {
  const where = resolveInsideRoot(root, file, { tickOwned: tickOwnedPaths(root) });
  if (!where.ok) throw new Error(`${where.error.code}: ${where.error.message}`);
  return where.value.absolute;
}

function textOrNull(absolute: string): string | null {
  try {
    return readFileSync(absolute, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Writes (or deletes, for null) one project file for transaction `uuid`. With `backup`, the
 * file it replaces is first hard-linked into the transaction's backup folder (once).
 */
export function writeProjectFile(root: string, uuid: string, file: string, content: string | null, io: WriteIo, backup: boolean): void {
  const absolute = projectPath(root, file);
  const exists = lexists(absolute);
  if (content !== null && exists && textOrNull(absolute) === content) return;
  if (backup && exists && !isDirectory(absolute)) {
    const kept = backupPath(root, uuid, file);
    if (!lexists(kept)) {
      try {
        io.mkdir(path.dirname(kept));
        io.link(absolute, kept);
      } catch (error) {
        if (!NO_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw fsFailure(kept, error);
      }
    }
  }
  if (content === null) {
    try {
      io.remove(absolute);
    } catch (error) {
      throw fsFailure(absolute, error);
    }
    removeEmptyParents(root, path.dirname(file));
    return;
  }
  const mode = exists && !isDirectory(absolute) ? statModeOrUndefined(absolute) : undefined;
  if (exists && isDirectory(absolute)) {
    try {
      io.remove(absolute); // a folder where the file goes (made by a command): the file wins, as it was
    } catch (error) {
      throw fsFailure(absolute, error);
    }
  }
  // The folder as resolved now: a folder swapped for a link before the rename gets nothing.
  const dir = path.dirname(absolute);
  writeFileAtomic(absolute, content, { io, ...(mode === undefined ? {} : { mode }), ...(existsSync(dir) ? { expectedDir: realpathSync(dir) } : {}) });
}

function statModeOrUndefined(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}

/**
 * Puts one file back to `before`: by renaming its backup back when the backup holds exactly
 * that (no space needed, mode and inode kept), else by writing the content. True when it changed.
 */
export function restoreProjectFile(root: string, uuid: string, file: string, before: string | null, io: WriteIo): boolean {
  const absolute = projectPath(root, file);
  // A folder is never removed to restore "no file here": it was not made by writing this file.
  if (before === null && (!lexists(absolute) || isDirectory(absolute))) return false;
  if (before !== null && textOrNull(absolute) === before) return false;
  const kept = backupPath(root, uuid, file);
  if (before !== null && lexists(kept) && readTextOrNull(path.dirname(kept), path.basename(kept)) === before) {
    try {
      io.mkdir(path.dirname(absolute));
      if (isDirectory(absolute)) io.remove(absolute);
      io.rename(kept, absolute);
      return true;
    } catch (error) {
      throw fsFailure(absolute, error);
    }
  }
  writeProjectFile(root, uuid, file, before, io, false);
  return true;
}

/** Removes one folder if it is empty; only a real folder inside the project (never through a link). */
function removeIfEmpty(root: string, dir: string): boolean {
  const where = resolveInsideRoot(root, dir, { purpose: 'cleanup' });
  if (!where.ok) return false;
  try {
    if (readdirSync(where.value.absolute).length > 0) return false;
    rmdirSync(where.value.absolute); // fails on a link: rmdir never follows one
    return true;
  } catch {
    return false;
  }
}

function removeEmptyParents(root: string, dir: string): void {
  for (let current = dir.split(path.sep).join('/'); current !== '.' && current !== ''; current = path.posix.dirname(current)) {
    if (!removeIfEmpty(root, current)) return;
  }
}

/** Removes these folders (deepest first) when they are empty. */
export function removeEmptyFolders(root: string, folders: readonly string[]): void {
  for (const dir of [...folders].sort((a, b) => b.length - a.length)) removeIfEmpty(root, dir);
}

/**
 * Undoes on disk what the transaction of `record` changed: its files (from backups or the
 * content kept in the record), and, while its commands may have run, every other file that
 * differs from the work tree captured before them; then the folders it created and the branch
 * it switched to. Idempotent: running it again after an interruption finishes the job.
 * Throws (a FileWriteError for a write) when something cannot be put back.
 */
export async function undoTransaction(root: string, record: TransactionRecord, io: WriteIo = nodeIo): Promise<string[]> {
  const restored: string[] = [];
  // Temp files of a dead writer first: a folder the transaction created must be empty to go.
  for (const folder of foldersOf(root, record)) sweepTempFiles(folder, { io });
  for (const [file, before] of Object.entries(record.snapshot)) {
    if (restoreProjectFile(root, record.uuid, file, before, io)) restored.push(file);
  }
  // Without the captured tree (lost with a power cut before git wrote it out) only the answer's files can be put back.
  if (record.worktree && (await captureExists(root, record.worktree.tree))) {
    const changes = await changesSinceCapture(root, record.worktree.tree, stateDir(root), CAPTURE_EXCLUDE);
    await restoreCapturedPaths(root, record.worktree.tree, changes, stateDir(root));
    for (const change of changes) if (!restored.includes(change.path)) restored.push(change.path);
  }
  removeEmptyFolders(root, record.createdDirs);
  if (record.branch && record.branchFrom) await undoBranchSwitch(root, record.branchFrom, record.branch);
  return restored;
}

/** Puts HEAD back on the branch it was on, and deletes the branch autoGitBranch made, when HEAD is on it and it holds nothing new. */
async function undoBranchSwitch(root: string, from: string, made: string): Promise<void> {
  const now = await headPosition(root);
  if (now.branch !== `refs/heads/${made}`) return;
  await pointHeadAt(root, from);
  const back = await headPosition(root);
  if (back.commit === now.commit) await deleteBranch(root, made);
}

/** The folders a transaction may have left temp files in (never one reached through a link out of the project). */
function foldersOf(root: string, record: TransactionRecord): string[] {
  const folders = new Set<string>([root, stateDir(root), backupDir(root, record.uuid)]);
  for (const file of Object.keys(record.snapshot)) {
    const dir = path.posix.dirname(file);
    if (dir === '.') continue;
    const where = resolveInsideRoot(root, dir, { purpose: 'cleanup' });
    if (where.ok) folders.add(where.value.absolute);
  }
  return [...folders];
}

/**
 * Ends a transaction's journal once its outcome is settled (committed, or undone): sweeps the
 * temp files of dead writers in the folders it wrote, removes the backups, then the pending record.
 */
export function closeJournal(root: string, record: TransactionRecord, io: WriteIo = nodeIo): void {
  for (const folder of foldersOf(root, record)) sweepTempFiles(folder, { io });
  io.remove(backupDir(root, record.uuid));
  removePending(root, record.uuid, io);
  dropVoucher(root, record.uuid, io);
}

/**
 * The commit point: writes the committed record, then closes the journal. A failure to close
 * it is left to recovery (the committed record already says how it ended) and reported back.
 */
export function commitTransaction(root: string, committed: TransactionRecord, io: WriteIo = nodeIo, afterCommit?: () => void): string | null {
  writeCommitted(root, committed, io);
  afterCommit?.();
  try {
    closeJournal(root, committed, io);
    return null;
  } catch (error) {
    return `cleaning up after transaction ${committed.uuid} failed (${describeErrno(error)}); the next relay command finishes it`;
  }
}

/** True when the transaction of this pending record already reached its commit point (a rolled-back record is not one). */
export function isCommitted(root: string, uuid: string): boolean {
  return reachedCommitPoint(root, uuid);
}

/** Backup folders whose transaction has no pending record any more (its clean-up was interrupted). */
export function orphanBackups(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(stateDir(root));
  } catch {
    return [];
  }
  return names
    .map((n) => /^([A-Za-z0-9][A-Za-z0-9_-]*)\.backup$/.exec(n)?.[1])
    .filter((uuid): uuid is string => uuid !== undefined && !existsSync(pendingPath(root, uuid)))
    .map((uuid) => backupDir(root, uuid));
}
