import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ownerIsGone } from '../fs/process.js';

export const LockInfoSchema = z
  .object({ pid: z.number().int(), started_at: z.string(), boot_id: z.string(), run_id: z.string().nullable() })
  .strict();

/** lock.json: who runs a tick right now. */
export type LockInfo = z.infer<typeof LockInfoSchema>;

/** A held lock; `release` removes lock.json (once). */
export interface TickLock {
  readonly info: LockInfo;
  release(): void;
}

export type LockAttempt = { readonly acquired: true; readonly lock: TickLock } | { readonly acquired: false; readonly holder: LockInfo | null; readonly reason: string };

/** What lock.json says about the lock, without touching it. */
export type LockState =
  | { readonly state: 'free' }
  | { readonly state: 'held'; readonly holder: LockInfo | null }
  | { readonly state: 'stale'; readonly holder: LockInfo | null };

// A lock file that is empty or unreadable is being written right now (O_EXCL creates it an
// instant before its content lands) unless it is older than this: then its writer died.
const UNREADABLE_GRACE_MS = 10_000;

function readHolder(file: string): { text: string; holder: LockInfo | null } | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = LockInfoSchema.safeParse(JSON.parse(text));
    return { text, holder: parsed.success ? parsed.data : null };
  } catch {
    return { text, holder: null };
  }
}

function ageMs(file: string, nowMs: number): number {
  try {
    return nowMs - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Reads the lock's state: free, held by a living owner, or stale (owner dead or machine rebooted). */
export function inspectLock(file: string, nowMs: number = Date.now()): LockState {
  const read = readHolder(file);
  if (read === null) return { state: 'free' };
  if (read.holder === null) return ageMs(file, nowMs) > UNREADABLE_GRACE_MS ? { state: 'stale', holder: null } : { state: 'held', holder: null };
  return ownerIsGone({ pid: read.holder.pid, bootId: read.holder.boot_id }) ? { state: 'stale', holder: read.holder } : { state: 'held', holder: read.holder };
}

/** Creates `file` only if it does not exist (O_EXCL) and writes `text` into it; false when it exists. */
function createExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    const buffer = Buffer.from(text, 'utf8');
    let offset = 0;
    // No fsync: a lock never needs to survive a crash of the machine (its boot id would be stale).
    while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
  } finally {
    closeSync(fd);
  }
  return true;
}

function heldLock(file: string, info: LockInfo): TickLock {
  let released = false;
  return {
    info,
    release() {
      if (released) return;
      released = true;
      rmSync(file, { force: true });
    },
  };
}

/**
 * Takes lock.json with an exclusive create, so of many concurrent runs exactly one wins. A lock
 * whose owner is dead or from an earlier boot is reclaimed; the reclaim itself is serialised by
 * a second exclusive file, so two runs can never both remove the stale lock and both proceed.
 */
export function acquireTickLock(file: string, info: LockInfo, nowMs: number = Date.now()): LockAttempt {
  mkdirSync(path.dirname(file), { recursive: true });
  const text = `${JSON.stringify(info, null, 2)}\n`;
  if (createExclusive(file, text)) return { acquired: true, lock: heldLock(file, info) };

  const seen = readHolder(file);
  if (seen === null) {
    // Released between our attempt and the read: one more try, then give up.
    return createExclusive(file, text) ? { acquired: true, lock: heldLock(file, info) } : { acquired: false, holder: null, reason: 'another tick took the lock at the same moment' };
  }
  const state = inspectLock(file, nowMs);
  if (state.state === 'free') {
    return createExclusive(file, text) ? { acquired: true, lock: heldLock(file, info) } : { acquired: false, holder: null, reason: 'another tick took the lock at the same moment' };
  }
  if (state.state === 'held') {
    const holder = state.holder ?? seen.holder;
    return { acquired: false, holder, reason: holder ? `held by process ${holder.pid}, alive on this boot` : 'the lock file is being written by another run' };
  }

  const reclaim = `${file}.reclaim`;
  if (!createExclusive(reclaim, text)) {
    const other = readHolder(reclaim);
    const otherGone = other?.holder ? ownerIsGone({ pid: other.holder.pid, bootId: other.holder.boot_id }) : ageMs(reclaim, nowMs) > UNREADABLE_GRACE_MS;
    if (otherGone) rmSync(reclaim, { force: true }); // a reclaimer that died; the next run may reclaim
    return { acquired: false, holder: seen.holder, reason: 'another run is reclaiming a stale lock' };
  }
  try {
    const again = readHolder(file);
    // Only remove the exact stale lock we judged; if it changed, someone else won the race.
    if (again !== null && again.text !== seen.text) return { acquired: false, holder: again.holder, reason: 'another run reclaimed the lock first' };
    rmSync(file, { force: true });
    if (createExclusive(file, text)) return { acquired: true, lock: heldLock(file, info) };
    return { acquired: false, holder: readHolder(file)?.holder ?? null, reason: 'another run took the lock first' };
  } finally {
    rmSync(reclaim, { force: true });
  }
}
