// The one reader of transaction records (`.relaycode/<uuid>.yml`, pending `<uuid>.pending.yml`).
// A record is input like an answer (a cloned repository can carry any `.relaycode/`): each one is
// checked against its schema, its uuid against its file name, and every path it names against
// the path chokepoint before recovery, revert, commit, history or a brief acts on it. Whether a
// record is reverted is derived here, in one place, from the revert records themselves.
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { tickOwnedPaths } from '../fs/protected.js';
import { checkRelativePath } from '../fs/safe-path.js';
import { STATE_DIR } from '../patch/names.js';
import { fail, ok, type Result } from '../result.js';
import { listRecordFolder, readRecordText } from './own-files.js';
import { TransactionRecordSchema, type TransactionRecord } from './transaction-schema.js';

/** Why a record read back from disk is not acted on. */
export type RecordProblemCode = 'RECORD_DAMAGED' | 'RECORD_UNSAFE_PATH';

/** A record file that cannot be used, with the code and the reason. */
export interface DamagedRecord {
  /** Absolute path of the record file. */
  readonly file: string;
  readonly code: RecordProblemCode;
  readonly reason: string;
}

/** A transaction id as it names a record file. */
export const TRANSACTION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const COMMITTED = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.yml$/;
const PENDING = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.pending\.yml$/;

const LEFT_ALONE = 'Relay Desk did not act on it and left it in place; look at it, and delete it if Relay Desk did not write it (a cloned repository can carry one).';

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
 * Reads one record file and checks it as the input it is: the schema, its uuid against its file
 * name, and EVERY path it names against the same rules as an answer's paths
 * (engine/fs/safe-path.ts). The failure names the record file and the path.
 */
export function loadRecord(file: string): Result<TransactionRecord, RecordProblemCode> {
  const root = path.dirname(path.dirname(file));
  const shown = path.relative(root, file).split(path.sep).join('/');
  const read = readRecordText(root, STATE_DIR, path.basename(file));
  if ('absent' in read) return fail('RECORD_DAMAGED', `${shown} is not a valid transaction record: it cannot be read. ${LEFT_ALONE}`, shown);
  if ('refused' in read) return fail('RECORD_DAMAGED', `${shown} is not a record Relay Desk wrote: ${read.refused}. ${LEFT_ALONE}`, shown);
  let data: unknown;
  try {
    data = parseYaml(read.text);
  } catch (error) {
    return fail('RECORD_DAMAGED', `${shown} is not a valid transaction record: ${(error as Error).message.split('\n')[0]}. ${LEFT_ALONE}`, shown);
  }
  const parsed = TransactionRecordSchema.safeParse(data);
  if (!parsed.success) return fail('RECORD_DAMAGED', `${shown} is not a valid transaction record: ${parsed.error.issues[0]?.path.join('.') || 'record'}: ${parsed.error.issues[0]?.message ?? 'invalid'}. ${LEFT_ALONE}`, shown);
  const record = parsed.data;
  const named = /^(.+?)(\.pending)?\.yml$/.exec(path.basename(file))?.[1];
  if (named !== record.uuid) return fail('RECORD_DAMAGED', `${shown} holds transaction ${JSON.stringify(record.uuid)}, not ${JSON.stringify(named)} as its file name says. ${LEFT_ALONE}`, shown);
  for (const other of [record.revertOf, record.revertedBy]) {
    if (other !== undefined && !TRANSACTION_ID.test(other)) return fail('RECORD_DAMAGED', `${shown} refers to ${JSON.stringify(other)}, which is not a transaction id. ${LEFT_ALONE}`, shown);
  }
  const tickOwned = tickOwnedPaths(root);
  for (const { where, path: named } of pathsOf(record)) {
    const checked = checkRelativePath(named, { tickOwned });
    if (!checked.ok) {
      return fail('RECORD_UNSAFE_PATH', `${shown} names ${JSON.stringify(named)} (in ${where}), a path an answer could never write: ${checked.error.code}: ${checked.error.message} ${LEFT_ALONE}`, shown);
    }
  }
  // What recovery put back may include files a command changed (a formatter's), never a path outside the project.
  for (const restored of record.recovered?.restored ?? []) {
    const checked = checkRelativePath(restored, { purpose: 'read' });
    if (!checked.ok) return fail('RECORD_UNSAFE_PATH', `${shown} names ${JSON.stringify(restored)} (in recovered), which is not a path inside the project: ${checked.error.code}: ${checked.error.message} ${LEFT_ALONE}`, shown);
  }
  return ok(record);
}

/** Reads and validates one record file (see `loadRecord`); throws with the file name when it cannot be used. */
export function readRecord(file: string): TransactionRecord {
  const loaded = loadRecord(file);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

/**
 * True for the record crash recovery leaves for a transaction it rolled back: it was never
 * applied (not in the log, not revertable, not "already applied"), but it is a run to show.
 */
export function isRolledBack(record: TransactionRecord): boolean {
  return record.recovered !== undefined || !record.approved;
}

function recordFile(root: string, name: string): string {
  return path.join(root, STATE_DIR, name);
}

/** Names in `.relaycode/` (none when it is a link or not a folder: those records are not this project's). */
function recordNames(root: string): string[] {
  return listRecordFolder(root, STATE_DIR);
}

/** The transaction a file name in `.relaycode/` belongs to, and whether it is the pending record (null: not a record). */
export function transactionOfName(name: string): { readonly uuid: string; readonly pending: boolean } | null {
  const pending = PENDING.exec(name)?.[1];
  if (pending) return { uuid: pending, pending: true };
  const committed = COMMITTED.exec(name)?.[1];
  return committed ? { uuid: committed, pending: false } : null;
}

/** Uuids of pending transactions (left by a crash or a transaction still running). */
export function listPending(root: string): string[] {
  return recordNames(root)
    .map((n) => PENDING.exec(n)?.[1])
    .filter((u): u is string => u !== undefined);
}

/** Every transaction with a record file (committed or pending), each uuid once. */
export function listTransactionIds(root: string): string[] {
  const ids = new Set<string>();
  for (const name of recordNames(root)) {
    const found = transactionOfName(name);
    if (found) ids.add(found.uuid);
  }
  return [...ids].sort();
}

/**
 * Fills `revertedBy`/`revertedAt` from the records themselves: a record is reverted when an
 * applied record says `revertOf` it (the revert's own record is its only write, so the log
 * agrees with the tree whenever a revert is interrupted; a revert that was rolled back after a
 * crash reverted nothing). Legacy fields are kept when no revert record is found.
 */
export function withDerivedReverts(records: readonly TransactionRecord[]): TransactionRecord[] {
  const revertOf = new Map<string, TransactionRecord>();
  for (const r of records) {
    if (!r.revertOf || isRolledBack(r)) continue;
    const seen = revertOf.get(r.revertOf);
    if (!seen || r.createdAt < seen.createdAt) revertOf.set(r.revertOf, r); // the first revert is the one that undid it
  }
  return records.map((r) => {
    const by = revertOf.get(r.uuid);
    return by ? { ...r, revertedBy: by.uuid, revertedAt: by.createdAt } : r;
  });
}

/** The applied record that reverts `uuid` (its `revertOf`); only records that have the key are parsed. */
export function findRevertOf(root: string, uuid: string): TransactionRecord | null {
  // Only revert records have the key; the value may be quoted by YAML, so it is compared parsed.
  const needle = '\nrevertOf:';
  let first: TransactionRecord | null = null;
  for (const name of recordNames(root)) {
    if (!COMMITTED.test(name)) continue;
    const read = readRecordText(root, STATE_DIR, name);
    if (!('text' in read) || !read.text.includes(needle) || !read.text.includes(uuid)) continue;
    const loaded = loadRecord(recordFile(root, name));
    if (!loaded.ok) continue; // damaged or unsafe: reported elsewhere, never trusted
    const record = loaded.value;
    if (record.revertOf === uuid && !isRolledBack(record) && (!first || record.createdAt < first.createdAt)) first = record;
  }
  return first;
}

/** One record with "reverted" derived from the revert records (see withDerivedReverts). */
export function withDerivedRevert(root: string, record: TransactionRecord): TransactionRecord {
  const by = findRevertOf(root, record.uuid);
  return by ? { ...record, revertedBy: by.uuid, revertedAt: by.createdAt } : record;
}

/** The committed records of a project, read once: applied ones, rolled-back ones, and the files that cannot be used. */
export interface CommittedScan {
  /** Applied transactions, newest first (by createdAt), "reverted" derived. What `relay log` lists. */
  readonly records: TransactionRecord[];
  /** Transactions crash recovery rolled back, newest first. */
  readonly rolledBack: TransactionRecord[];
  readonly damaged: DamagedRecord[];
}

const newestFirst = (a: TransactionRecord, b: TransactionRecord): number => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0);

/** Every committed record in one pass (see CommittedScan). */
export function scanCommitted(root: string): CommittedScan {
  const all: TransactionRecord[] = [];
  const damaged: DamagedRecord[] = [];
  for (const name of recordNames(root)) {
    if (!COMMITTED.test(name)) continue;
    const file = recordFile(root, name);
    const loaded = loadRecord(file);
    if (loaded.ok) all.push(loaded.value);
    else damaged.push({ file, code: loaded.error.code, reason: loaded.error.message });
  }
  const derived = withDerivedReverts(all);
  return {
    records: derived.filter((r) => !isRolledBack(r)).sort(newestFirst),
    rolledBack: derived.filter(isRolledBack).sort(newestFirst),
    damaged,
  };
}

/** Applied transactions, newest first (by createdAt), with "reverted" derived; damaged and rolled-back records are left out. */
export function listCommitted(root: string): TransactionRecord[] {
  return scanCommitted(root).records;
}

/** Committed record files that cannot be used, with the code and the reason. */
export function damagedRecords(root: string): DamagedRecord[] {
  return scanCommitted(root).damaged;
}

/**
 * The applied transaction made from an answer with this content hash: a committed, approved
 * record that passes every check (files without the hash are not parsed). A rolled-back record does not count: that answer was
 * never applied, so it may be applied again.
 */
export function findByContentHash(root: string, hash: string): string | null {
  const needle = `contentHash: ${hash}`;
  for (const name of recordNames(root)) {
    const uuid = COMMITTED.exec(name)?.[1];
    if (!uuid) continue;
    const read = readRecordText(root, STATE_DIR, name);
    if (!('text' in read) || !read.text.includes(needle)) continue;
    // Only a record that passes every check says an answer was applied: a planted one (damaged,
    // naming an unsafe path, its hash in a comment) must not make a real answer be skipped.
    const loaded = loadRecord(recordFile(root, name));
    if (loaded.ok && loaded.value.contentHash === hash && loaded.value.approved && !isRolledBack(loaded.value)) return uuid;
  }
  return null;
}

/** True when a committed record file with this uuid exists (applied or rolled back: either way the uuid is taken). */
export function hasCommitted(root: string, uuid: string): boolean {
  return TRANSACTION_ID.test(uuid) && !('absent' in readRecordText(root, STATE_DIR, `${uuid}.yml`));
}

/** The committed record of `uuid` when it is a rolled-back one (see isRolledBack), else null. */
export function rolledBackRecord(root: string, uuid: string): TransactionRecord | null {
  if (!TRANSACTION_ID.test(uuid)) return null;
  const loaded = loadRecord(recordFile(root, `${uuid}.yml`));
  return loaded.ok && isRolledBack(loaded.value) ? loaded.value : null;
}

/**
 * True when transaction `uuid` reached its commit point: its committed record exists and is not a
 * rolled-back one. A record that cannot be read counts as committed (recovery must never undo
 * what may have been applied; the damaged record is reported elsewhere).
 */
export function reachedCommitPoint(root: string, uuid: string): boolean {
  if (!hasCommitted(root, uuid)) return false;
  const loaded = loadRecord(recordFile(root, `${uuid}.yml`));
  return !loaded.ok || !isRolledBack(loaded.value);
}

/** A transaction as its files say now: the committed record when there is one, else the pending one. */
export interface ReadTransaction {
  readonly record: TransactionRecord;
  /** True while only the pending record exists (the transaction is running, waiting, or was interrupted). */
  readonly pending: boolean;
}

/**
 * The record of one transaction (committed first: a pending file beside its committed record is
 * a leftover of an interrupted clean-up), "reverted" derived. Null when neither file exists;
 * the failure when the file there cannot be used.
 */
export function readTransaction(root: string, uuid: string): Result<ReadTransaction | null, RecordProblemCode> {
  if (!TRANSACTION_ID.test(uuid)) return ok(null);
  for (const pending of [false, true]) {
    const name = `${uuid}${pending ? '.pending' : ''}.yml`;
    if ('absent' in readRecordText(root, STATE_DIR, name)) continue;
    const loaded = loadRecord(recordFile(root, name));
    if (!loaded.ok) return loaded;
    return ok({ record: pending ? loaded.value : withDerivedRevert(root, loaded.value), pending });
  }
  return ok(null);
}

/**
 * Every transaction of the project as history shows it (committed and pending, "reverted"
 * derived), and the record files that cannot be used.
 */
export function scanTransactions(root: string): { transactions: ReadTransaction[]; damaged: DamagedRecord[] } {
  const names = recordNames(root);
  const committed = new Set(names.map((n) => COMMITTED.exec(n)?.[1]).filter((u): u is string => u !== undefined));
  const scanned = scanCommitted(root);
  const transactions: ReadTransaction[] = [...scanned.records, ...scanned.rolledBack].map((record) => ({ record, pending: false }));
  const damaged = [...scanned.damaged];
  for (const uuid of names.map((n) => PENDING.exec(n)?.[1]).filter((u): u is string => u !== undefined)) {
    // A pending file beside its committed record is a leftover of an interrupted clean-up.
    if (committed.has(uuid)) continue;
    const file = recordFile(root, `${uuid}.pending.yml`);
    const loaded = loadRecord(file);
    if (loaded.ok) transactions.push({ record: loaded.value, pending: true });
    else damaged.push({ file, code: loaded.error.code, reason: loaded.error.message });
  }
  return { transactions, damaged };
}
