import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { STATE_DIR } from './config.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { nodeIo, type WriteIo } from '../fs/write-io.js';

const FileOperationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('write'), path: z.string(), strategy: z.enum(['replace', 'unified', 'search-replace']), body: z.string(), declaredStrategy: z.string().optional(), inferred: z.boolean().optional() }),
  z.object({ kind: z.literal('delete'), path: z.string() }),
  z.object({ kind: z.literal('rename'), from: z.string(), to: z.string() }),
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
  writeFileAtomic(pendingPath(root, record.uuid), serialise(record), { io });
}

/**
 * Writes the committed record atomically and durably: the commit point of a transaction. The
 * pending record stays until the caller has cleaned up (see journal.ts).
 */
export function writeCommitted(root: string, record: TransactionRecord, io: WriteIo = nodeIo): void {
  writeFileAtomic(committedPath(root, record.uuid), serialise(record), { io });
}

export function removePending(root: string, uuid: string, io: WriteIo = nodeIo): void {
  io.remove(pendingPath(root, uuid));
}

/** Reads and validates one record file; throws with the file name when it is damaged. */
export function readRecord(file: string): TransactionRecord {
  const data: unknown = parseYaml(readFileSync(file, 'utf8'));
  const parsed = TransactionRecordSchema.safeParse(data);
  if (!parsed.success) throw new Error(`${file} is not a valid transaction record: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

const COMMITTED = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.yml$/;
const PENDING = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.pending\.yml$/;

/** Uuids of pending transactions (left by a crash or a transaction still running). */
export function listPending(root: string): string[] {
  return listNames(root)
    .map((n) => PENDING.exec(n)?.[1])
    .filter((u): u is string => u !== undefined);
}

function listNames(root: string): string[] {
  const dir = stateDir(root);
  if (!existsSync(dir)) return [];
  return readdirSync(dir);
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

/** Committed records, newest first (by createdAt), with "reverted" derived from the revert records. */
export function listCommitted(root: string): TransactionRecord[] {
  const records: TransactionRecord[] = [];
  for (const name of listNames(root)) {
    if (!COMMITTED.test(name) || PENDING.test(name)) continue;
    try {
      records.push(readRecord(path.join(stateDir(root), name)));
    } catch {
      // A damaged record is skipped here; `relay log` reports it separately.
    }
  }
  return withDerivedReverts(records).sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
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
      const record = readRecord(file);
      if (record.revertOf === uuid && (!first || record.createdAt < first.createdAt)) first = record;
    } catch {
      // damaged: reported elsewhere
    }
  }
  return first;
}

/** One record with "reverted" derived from the revert records (see withDerivedReverts). */
export function withDerivedRevert(root: string, record: TransactionRecord): TransactionRecord {
  const by = findRevertOf(root, record.uuid);
  return by ? { ...record, revertedBy: by.uuid, revertedAt: by.createdAt } : record;
}

/** Committed record files that cannot be read, with the reason. */
export function damagedRecords(root: string): Array<{ file: string; reason: string }> {
  const out: Array<{ file: string; reason: string }> = [];
  for (const name of listNames(root)) {
    if (!COMMITTED.test(name) || PENDING.test(name)) continue;
    const file = path.join(stateDir(root), name);
    try {
      readRecord(file);
    } catch (error) {
      out.push({ file, reason: (error as Error).message });
    }
  }
  return out;
}

/** Finds a committed record with this response hash, reading only the hash line of each file. */
export function findByContentHash(root: string, hash: string): string | null {
  const needle = `contentHash: ${hash}`;
  for (const name of listNames(root)) {
    const m = COMMITTED.exec(name);
    if (!m || PENDING.test(name)) continue;
    const file = path.join(stateDir(root), name);
    if (statSync(file).size === 0) continue;
    if (readFileSync(file, 'utf8').includes(needle)) return m[1]!;
  }
  return null;
}

/** True when a committed record with this uuid exists. */
export function hasCommitted(root: string, uuid: string): boolean {
  return existsSync(committedPath(root, uuid));
}
