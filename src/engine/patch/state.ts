import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { STATE_DIR } from './config.js';
import { writeFileAtomic } from '../fs/atomic.js';

/** Where an operation came from in the answer (its format and line). */
const OriginSchema = z.object({ format: z.enum(['relay', 'git-diff', 'v4a', 'search-replace', 'whole-file']), line: z.number().int() }).optional();

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
  revertOf: z.string().optional(),
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
export function writePending(root: string, record: TransactionRecord): void {
  writeFileAtomic(pendingPath(root, record.uuid), serialise(record));
}

/** Writes the committed record, then removes the pending one. */
export function commitRecord(root: string, record: TransactionRecord): void {
  writeFileAtomic(committedPath(root, record.uuid), serialise(record));
  rmSync(pendingPath(root, record.uuid), { force: true });
}

/** Rewrites a committed record (e.g. to mark it reverted). */
export function updateRecord(root: string, record: TransactionRecord): void {
  writeFileAtomic(committedPath(root, record.uuid), serialise(record));
}

export function removePending(root: string, uuid: string): void {
  rmSync(pendingPath(root, uuid), { force: true });
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

/** Committed records, newest first (by createdAt, falling back to file time). */
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
  return records.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
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
