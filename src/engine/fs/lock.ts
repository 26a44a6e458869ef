// One lock-file implementation for every lock Relay Desk takes (the project lock
// `.relaycode/lock.json`, the tick lock `relais/lock.json`), after git's lockfile.c:
// - the lock is created atomically and exclusively, already holding its owner: the owner is
//   written to a private temp file, fsynced, then hard-linked to the lock's name (link fails
//   when the name exists, exactly like O_CREAT|O_EXCL, but no reader ever sees a half-written
//   lock). Where hard links are refused, it falls back to O_CREAT|O_EXCL + write + fsync.
// - only the owner removes its lock, after checking the file is still the one it wrote;
// - a lock is stale only when its pid is not running on this boot (or it was written before
//   this boot, or names no boot: every lock Relay Desk writes does, so one without came with
//   the files). Age alone never makes a lock stale; a lock that cannot be read (being written
//   by a slower writer, or damaged) is held during a grace period and afterwards reported, not
//   taken.
// - breaking a stale lock is serialised by a "break" file named after the stale content, so two
//   processes can never both judge it stale and then remove each other's fresh lock (see
//   breakStaleLock).
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { bootId, bootTimeMs, isProcessAlive, isRunning } from './process.js';

/** Who holds a lock, as read from its file (either spelling of the fields is accepted). */
export interface LockOwner {
  readonly pid: number;
  /** The boot the owner ran on; null when the file does not say (then Relay Desk did not write it: stale). */
  readonly bootId: string | null;
  readonly startedAt: string | null;
  /** Every field of the file, for callers that keep more (a tick's run_id). */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** What a lock file says, read without touching it. */
export type LockReading =
  | { readonly kind: 'owner'; readonly text: string; readonly owner: LockOwner; readonly mtimeMs: number }
  | { readonly kind: 'unreadable'; readonly text: string; readonly mtimeMs: number };

/** The lock's state: nobody holds it, a living owner (or a writer within its grace) does, or it is stale. */
export type LockFileState =
  | { readonly state: 'free' }
  | { readonly state: 'held'; readonly reading: LockReading; readonly reason: string }
  | { readonly state: 'stale'; readonly reading: LockReading; readonly reason: string };

/** A lock this process holds. */
export interface HeldLockFile {
  readonly file: string;
  readonly text: string;
  /** Removes the lock if it is still ours; false when the file was not ours any more (it is then left alone). */
  release(): boolean;
}

export type LockFileAttempt =
  | { readonly acquired: true; readonly lock: HeldLockFile }
  | { readonly acquired: false; readonly reading: LockReading | null; readonly reason: string };

export interface LockOptions {
  /** Now, for judging the grace of an unreadable lock. */
  readonly nowMs?: number;
  /** How long an unreadable lock counts as "being written". */
  readonly graceMs?: number;
}

/** How long a lock file that cannot be read yet is taken to be in the middle of being written. */
export const LOCK_WRITE_GRACE_MS = 10_000;

// Break files form a chain only when breakers die while breaking; more than this is a damaged folder.
const MAX_BREAK_LEVELS = 8;
const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK', 'EINVAL']);

/** Reads an owner from lock JSON: `{pid, boot_id, started_at}` (the tick spec) or `{pid, bootId, startedAt}`. */
export function parseLockOwner(text: string): LockOwner | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const fields = data as Record<string, unknown>;
  const pid = fields.pid;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return null;
  const boot = fields.boot_id ?? fields.bootId;
  const started = fields.started_at ?? fields.startedAt;
  return { pid, bootId: typeof boot === 'string' && boot !== '' ? boot : null, startedAt: typeof started === 'string' ? started : null, fields };
}

/** Reads a lock file; null when it does not exist. */
export function readLockFile(file: string): LockReading | null {
  let text: string;
  let mtimeMs: number;
  try {
    mtimeMs = lstatSync(file).mtimeMs;
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const owner = parseLockOwner(text);
  return owner ? { kind: 'owner', text, owner, mtimeMs } : { kind: 'unreadable', text, mtimeMs };
}

/** True when the owner's process no longer runs on this boot. */
export function ownerIsDead(owner: Pick<LockOwner, 'pid' | 'bootId'>): boolean {
  if (owner.bootId === null || owner.bootId !== bootId()) return true;
  return !isRunning(owner.pid); // a zombie waiting to be reaped holds nothing
}

/** Judges a reading: held (living owner, or unreadable within its grace or of unknown writer) or stale. */
export function judgeLock(reading: LockReading, options: LockOptions = {}): Exclude<LockFileState, { state: 'free' }> {
  if (reading.kind === 'owner') {
    const { owner } = reading;
    // Every lock Relay Desk writes names its boot. One that does not came from elsewhere (a
    // repository can carry a `.relaycode/lock.json` naming a pid that always runs, such as 1).
    if (owner.bootId === null) return { state: 'stale', reading, reason: `it names process ${owner.pid} but no boot, so Relay Desk did not write it` };
    if (owner.bootId !== bootId()) return { state: 'stale', reading, reason: `taken by process ${owner.pid} before the machine restarted` };
    if (!isRunning(owner.pid)) return { state: 'stale', reading, reason: `process ${owner.pid} is not running` };
    return { state: 'held', reading, reason: `held by process ${owner.pid}, running on this boot` };
  }
  // Written before this boot: whoever wrote it is certainly gone.
  if (reading.mtimeMs < bootTimeMs() - 60_000) return { state: 'stale', reading, reason: 'unreadable and written before the machine restarted' };
  const ageMs = (options.nowMs ?? Date.now()) - reading.mtimeMs;
  if (ageMs <= (options.graceMs ?? LOCK_WRITE_GRACE_MS)) return { state: 'held', reading, reason: 'the lock file is being written by another process' };
  return { state: 'held', reading, reason: 'the lock file is unreadable (no owner can be identified, so it is not taken over); delete it if no Relay Desk process is running' };
}

/** The lock's state without changing anything. */
export function inspectLockFile(file: string, options: LockOptions = {}): LockFileState {
  const reading = readLockFile(file);
  return reading === null ? { state: 'free' } : judgeLock(reading, options);
}

function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
  fsyncSync(fd);
}

/** Creates `file` holding `text` only if it does not exist; false when it exists. */
export function createExclusive(file: string, text: string): boolean {
  const tmp = tempNameFor(file);
  let linked: boolean | 'unsupported';
  try {
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      writeAll(fd, text);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, file);
      linked = true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') linked = false;
      else if (LINK_UNSUPPORTED.has(code)) linked = 'unsupported';
      else throw error;
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  if (linked !== 'unsupported') return linked;
  // No hard links here: O_EXCL, then the owner. Readers see an empty file for an instant (the grace).
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeAll(fd, text);
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true }); // ours, and never readable as a valid lock
    throw error;
  }
  closeSync(fd);
  return true;
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function breakKey(staleText: string): string {
  return createHash('sha256').update(staleText).digest('hex').slice(0, 16);
}

function breakFile(file: string, key: string, level: number): string {
  return `${file}.break-${key}-${level}`;
}

/**
 * Removes the stale lock whose content is `staleText`, unless someone else is doing it.
 * Only the process holding the break file of that exact content may remove the lock, and it
 * removes it only while the lock still has that content; nobody else ever removes a lock that
 * is not their own, so between its check and its removal the lock cannot change. A breaker
 * that died holding its break file is itself stale: the next one takes the next level.
 * Returns false when another living process is breaking it.
 */
function breakStaleLock(file: string, staleText: string, ownerText: string, options: LockOptions): boolean {
  const key = breakKey(staleText);
  let level = 1;
  let retries = 0;
  while (level <= MAX_BREAK_LEVELS) {
    const name = breakFile(file, key, level);
    if (createExclusive(name, ownerText)) {
      try {
        const current = readLockFile(file);
        if (current !== null && current.text === staleText && judgeLock(current, options).state === 'stale') rmSync(file, { force: true });
      } finally {
        // The stale lock is gone now (removed here, or replaced before): every break file of its chain is spent.
        for (let n = level; n >= 1; n -= 1) rmSync(breakFile(file, key, n), { force: true });
      }
      return true;
    }
    const other = readLockFile(name);
    if (other === null) {
      if ((retries += 1) > 3) return false;
      continue; // finished just now; try this level again
    }
    if (other.kind === 'unreadable' || !ownerIsDead(other.owner)) return false;
    level += 1;
  }
  return false;
}

/**
 * Removes what dead lock takers left beside `file`: break files of locks that are gone and
 * the temp files of lock writes whose process died. Call it holding the lock.
 */
function sweepLockLeftovers(file: string, heldText: string): void {
  const dir = path.dirname(file);
  const base = path.basename(file);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const ownKey = breakKey(heldText);
  const breakPrefix = `${base}.break-`;
  const tempPattern = new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`);
  for (const name of names) {
    if (name.startsWith(breakPrefix)) {
      // A break file for content that is no longer the lock can authorise nothing any more.
      if (!name.startsWith(`${breakPrefix}${ownKey}-`)) rmSync(path.join(dir, name), { force: true });
      continue;
    }
    const temp = tempPattern.exec(name);
    if (temp && Number(temp[1]) !== process.pid && !isProcessAlive(Number(temp[1]))) rmSync(path.join(dir, name), { force: true });
  }
}

function held(file: string, text: string): HeldLockFile {
  let released = false;
  return {
    file,
    text,
    release() {
      if (released) return true;
      released = true;
      // Owner check before removal: a lock that is not the one we wrote is not ours to remove.
      if (readText(file) !== text) return false;
      rmSync(file, { force: true });
      return true;
    },
  };
}

/**
 * Takes the lock `file` for the owner described by `content` (it must hold this process's
 * pid; add boot_id/bootId and a start time so others can judge it). A stale lock is broken
 * and taken; a held one is reported with the reason.
 */
export function acquireLockFile(file: string, content: Readonly<Record<string, unknown>>, options: LockOptions = {}): LockFileAttempt {
  mkdirSync(path.dirname(file), { recursive: true });
  const text = `${JSON.stringify(content, null, 2)}\n`;
  let last: LockReading | null = null;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    if (createExclusive(file, text)) {
      sweepLockLeftovers(file, text);
      return { acquired: true, lock: held(file, text) };
    }
    const reading = readLockFile(file);
    if (reading === null) continue; // released between our try and our read
    last = reading;
    const judged = judgeLock(reading, options);
    if (judged.state === 'held') return { acquired: false, reading, reason: judged.reason };
    if (!breakStaleLock(file, reading.text, text, options)) return { acquired: false, reading, reason: 'another process is taking over the stale lock right now' };
  }
  return { acquired: false, reading: last, reason: 'other processes kept taking the lock first' };
}
