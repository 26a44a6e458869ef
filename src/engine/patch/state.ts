import { existsSync, lstatSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { STATE_DIR } from './names.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { tickOwnedPaths } from '../fs/protected.js';
import { checkRelativePath, ownFile, ownFolder, type OwnFolderCode } from '../fs/safe-path.js';
import { fail, ok, type Result } from '../result.js';

/** Where an operation came from in the answer (its format and line). */
const OriginSchema = z.object({ format: z.enum(['relay', 'git-diff', 'v4a', 'search-replace', 'whole-file']), line: z.number().int() }).optional();
import { nodeIo, type WriteIo } from '../fs/write-io.js';

const FileOperationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('write'), path: z.string(), strategy: z.enum(['replace', 'unified', 'search-replace', 'v4a']), body: z.string(), declaredStrategy: z.string().optional(), inferred: z.boolean().optional(), origin: OriginSchema }),
  z.object({ kind: z.literal('delete'), path: z.string(), origin: OriginSchema }),
  z.object({ kind: z.literal('rename'), from: z.string(), to: z.string(), origin: OriginSchema }),
]);

export const FileStatSchema = z.object({
  path: z.string(),
  change: z.enum(['create', 'modify', 'delete']),
  added: z.number().int().min(0),
  removed: z.number().int().min(0),
});
export type FileStat = z.infer<typeof FileStatSchema>;

/** The record of one transaction, kept in `.relaycode/{uuid}.yml` (pending: `{uuid}.pending.yml`). */
export const TransactionRecordSchema = z.object({
  schemaVersion: z.literal(1).default(1),
  uuid: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/),
  /** The uuid the response's control block gave (differs from `uuid` when an assistant reused one). */
  responseUuid: z.string().optional(),
  projectId: z.string(),
  createdAt: z.string(),
  source: z.enum(['clipboard', 'paste', 'file', 'revert']).default('file'),
  contentHash: z.string().default(''),
  gitCommitMsg: z.string().optional(),
  promptSummary: z.string().optional(),
  reasoning: z.array(z.string()).default([]),
  operations: z.array(FileOperationSchema).default([]),
  /** Content of every touched file before the transaction (null: did not exist). */
  snapshot: z.record(z.string(), z.string().nullable()),
  /** Content after the transaction, for files kept by the approval (null: deleted). */
  result: z.record(z.string(), z.string().nullable()).default({}),
  /** Folders the transaction created, removed again on rollback when empty. */
  createdDirs: z.array(z.string()).default([]),
  files: z.array(FileStatSchema).default([]),
  approved: z.boolean(),
  decision: z
    .object({
      by: z.enum(['auto', 'user']),
      kept: z.array(z.string()),
      rolledBack: z.array(z.string()),
    })
    .optional(),
  linter: z
    .object({ errorsBefore: z.number(), errorsAfter: z.number(), output: z.string() })
    .optional(),
  branch: z.string().optional(),
  /** Only on pending records: the branch ref HEAD was on before autoGitBranch switched to `branch`. */
  branchFrom: z.string().optional(),
  /**
   * Only on pending records, while pre/post commands and the linter may run: the whole work
   * tree (tracked and untracked files that are not ignored) as a git tree taken before them,
   * so recovery can put back any file they changed.
   */
  worktree: z.object({ tree: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/) }).optional(),
  revertOf: z.string().optional(),
  /**
   * Legacy: older versions marked the reverted record in a second write. Whether a record is
   * reverted is now derived from the records (a committed record with `revertOf`), see
   * `withDerivedReverts`; records that still carry these fields read as before.
   */
  revertedBy: z.string().optional(),
  revertedAt: z.string().optional(),
  warnings: z.array(z.string()).default([]),
  /** Only on pending records: the process running the transaction, so recovery spares live ones. */
  owner: z.object({ pid: z.number().int(), bootId: z.string(), startedAt: z.string() }).optional(),
});
export type TransactionRecord = z.infer<typeof TransactionRecordSchema>;

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

export function pendingPath(root: string, uuid: string): string {
  return path.join(stateDir(root), `${uuid}.pending.yml`);
}

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

export function removePending(root: string, uuid: string, io: WriteIo = nodeIo): void {
  io.remove(ownRecordFile(root, `${uuid}.pending.yml`));
}

/** Why a record read back from disk is not acted on. */
export type RecordProblemCode = 'RECORD_DAMAGED' | 'RECORD_UNSAFE_PATH';

/** Every path a record names, with where in the record it stands (for the message). */
function pathsOf(record: TransactionRecord): Array<{ where: string; path: string }> {
  const out: Array<{ where: string; path: string }> = [];
  for (const p of Object.keys(record.snapshot)) out.push({ where: 'snapshot', path: p });
  for (const p of Object.keys(record.result)) out.push({ where: 'result', path: p });
  for (const p of record.createdDirs) out.push({ where: 'createdDirs', path: p });
  for (const f of record.files) out.push({ where: 'files', path: f.path });
  for (const p of [...(record.decision?.kept ?? []), ...(record.decision?.rolledBack ?? [])]) out.push({ where: 'decision', path: p });
  for (const op of record.operations) {
    for (const p of op.kind === 'rename' ? [op.from, op.to] : [op.path]) out.push({ where: 'operations', path: p });
  }
  return out;
}

/**
 * Reads one record file and checks it as the input it is (a cloned repository can carry any
 * `.relaycode/`): the schema, its uuid against its file name, and EVERY path it names against the
 * same rules as an answer's paths (engine/fs/safe-path.ts), before recovery, revert, commit or
 * display act on it. The failure names the record file and the path.
 */
export function loadRecord(file: string): Result<TransactionRecord, RecordProblemCode> {
  const root = path.dirname(path.dirname(file));
  const shown = path.relative(root, file).split(path.sep).join('/');
  const leftAlone = 'Relay Desk did not act on it and left it in place; look at it, and delete it if Relay Desk did not write it (a cloned repository can carry one).';
  let data: unknown;
  try {
    if (lstatSync(file).isSymbolicLink()) return fail('RECORD_DAMAGED', `${shown} is a symbolic link, not a record Relay Desk wrote. ${leftAlone}`, shown);
    data = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail('RECORD_DAMAGED', `${shown} is not a valid transaction record: ${(error as Error).message.split('\n')[0]}. ${leftAlone}`, shown);
  }
  const parsed = TransactionRecordSchema.safeParse(data);
  if (!parsed.success) return fail('RECORD_DAMAGED', `${shown} is not a valid transaction record: ${parsed.error.issues[0]?.path.join('.') || 'record'}: ${parsed.error.issues[0]?.message ?? 'invalid'}. ${leftAlone}`, shown);
  const record = parsed.data;
  const named = /^(.+?)(\.pending)?\.yml$/.exec(path.basename(file))?.[1];
  if (named !== record.uuid) return fail('RECORD_DAMAGED', `${shown} holds transaction ${JSON.stringify(record.uuid)}, not ${JSON.stringify(named)} as its file name says. ${leftAlone}`, shown);
  for (const other of [record.revertOf, record.revertedBy]) {
    if (other !== undefined && !UUID.test(other)) return fail('RECORD_DAMAGED', `${shown} refers to ${JSON.stringify(other)}, which is not a transaction id. ${leftAlone}`, shown);
  }
  const tickOwned = tickOwnedPaths(root);
  for (const { where, path: named } of pathsOf(record)) {
    const checked = checkRelativePath(named, { tickOwned });
    if (!checked.ok) {
      return fail('RECORD_UNSAFE_PATH', `${shown} names ${JSON.stringify(named)} (in ${where}), a path an answer could never write: ${checked.error.code}: ${checked.error.message} ${leftAlone}`, shown);
    }
  }
  return ok(record);
}

/** Reads and validates one record file (see `loadRecord`); throws with the file name when it cannot be used. */
export function readRecord(file: string): TransactionRecord {
  const loaded = loadRecord(file);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

const UUID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const COMMITTED = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.yml$/;
const PENDING = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.pending\.yml$/;

/** Uuids of pending transactions (left by a crash or a transaction still running). */
export function listPending(root: string): string[] {
  return listNames(root)
    .map((n) => PENDING.exec(n)?.[1])
    .filter((u): u is string => u !== undefined);
}

function listNames(root: string): string[] {
  // Records kept behind a link are not this project's: recovery reports the folder instead.
  const dir = checkStateFolder(root);
  if (!dir.ok || !existsSync(dir.value)) return [];
  return readdirSync(dir.value);
}

export interface RecordRef {
  readonly uuid: string;
  readonly file: string;
  readonly mtimeMs: number;
}

/**
 * Fills `revertedBy`/`revertedAt` from the records themselves: a record is reverted when a
 * committed record says `revertOf` it (the revert's own record is its only write, so the log
 * agrees with the tree whenever a revert is interrupted). Legacy fields are kept when no
 * revert record is found.
 */
export function withDerivedReverts(records: readonly TransactionRecord[]): TransactionRecord[] {
  const revertOf = new Map<string, TransactionRecord>();
  for (const r of records) {
    if (!r.revertOf) continue;
    const seen = revertOf.get(r.revertOf);
    if (!seen || r.createdAt < seen.createdAt) revertOf.set(r.revertOf, r); // the first revert is the one that undid it
  }
  return records.map((r) => {
    const by = revertOf.get(r.uuid);
    return by ? { ...r, revertedBy: by.uuid, revertedAt: by.createdAt } : r;
  });
}

/** The committed record that reverts `uuid` (its `revertOf`); only records that have the key are parsed. */
export function findRevertOf(root: string, uuid: string): TransactionRecord | null {
  // Only revert records have the key; the value may be quoted by YAML, so it is compared parsed.
  const needle = '\nrevertOf:';
  let first: TransactionRecord | null = null;
  for (const name of listNames(root)) {
    if (!COMMITTED.test(name) || PENDING.test(name)) continue;
    const file = path.join(stateDir(root), name);
    try {
      const text = readFileSync(file, 'utf8');
      if (!text.includes(needle) || !text.includes(uuid)) continue;
      const loaded = loadRecord(file);
      if (!loaded.ok) continue; // damaged or unsafe: reported elsewhere, never trusted
      const record = loaded.value;
      if (record.revertOf === uuid && (!first || record.createdAt < first.createdAt)) first = record;
    } catch {
      // unreadable: reported elsewhere
    }
  }
  return first;
}

/** One record with "reverted" derived from the revert records (see withDerivedReverts). */
export function withDerivedRevert(root: string, record: TransactionRecord): TransactionRecord {
  const by = findRevertOf(root, record.uuid);
  return by ? { ...record, revertedBy: by.uuid, revertedAt: by.createdAt } : record;
}

/** Every committed record, newest first, and the record files that cannot be read (with the reason), in one pass. */
export function scanCommitted(root: string): { records: TransactionRecord[]; damaged: Array<{ file: string; code: RecordProblemCode; reason: string }> } {
  const records: TransactionRecord[] = [];
  const damaged: Array<{ file: string; code: RecordProblemCode; reason: string }> = [];
  for (const name of listNames(root)) {
    if (!COMMITTED.test(name) || PENDING.test(name)) continue;
    const file = path.join(stateDir(root), name);
    const loaded = loadRecord(file);
    if (loaded.ok) records.push(loaded.value);
    else damaged.push({ file, code: loaded.error.code, reason: loaded.error.message });
  }
  const derived = withDerivedReverts(records).sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return { records: derived, damaged };
}

/** Committed records, newest first (by createdAt), with "reverted" derived from the revert records; damaged ones are skipped (see damagedRecords). */
export function listCommitted(root: string): TransactionRecord[] {
  return scanCommitted(root).records;
}

/** Committed record files that cannot be used, with the code and the reason. */
export function damagedRecords(root: string): Array<{ file: string; code: RecordProblemCode; reason: string }> {
  return scanCommitted(root).damaged;
}

/** Finds a committed, approved record with this response hash (files without the hash are not parsed). */
export function findByContentHash(root: string, hash: string): string | null {
  const needle = `contentHash: ${hash}`;
  for (const name of listNames(root)) {
    const m = COMMITTED.exec(name);
    if (!m || PENDING.test(name)) continue;
    const file = path.join(stateDir(root), name);
    if (!lstatSync(file).isFile() || statSync(file).size === 0) continue;
    if (!readFileSync(file, 'utf8').includes(needle)) continue;
    // Only a record that passes every check says an answer was applied: a planted one (damaged,
    // naming an unsafe path, its hash in a comment) must not make a real answer be skipped.
    const loaded = loadRecord(file);
    if (loaded.ok && loaded.value.contentHash === hash && loaded.value.approved) return m[1]!;
  }
  return null;
}

/** True when a committed record with this uuid exists. */
export function hasCommitted(root: string, uuid: string): boolean {
  return existsSync(committedPath(root, uuid));
}
