import path from 'node:path';
import { checkStateFolder, stateDir } from './state.js';
import { acquireLockFile, type LockReading } from '../fs/lock.js';
import { describeErrno } from '../fs/atomic.js';
import { currentOwner, type ProcessOwner } from '../fs/process.js';
import type { Failure } from '../result.js';

const LOCK_FILE = 'lock.json';
const STATE_LOCK_SHOWN = `.relaycode/${LOCK_FILE}`;

/** A held project lock; release it exactly once. */
export interface ProjectLock {
  release(): void;
}

/** The project lock is held by someone else (the owner, when its file can be read). */
export interface ProjectLockHeld {
  readonly heldBy: ProcessOwner;
  readonly reason: string;
}

/** Where the project lock lives. */
export function projectLockPath(root: string): string {
  return path.join(stateDir(root), LOCK_FILE);
}

function ownerOf(reading: LockReading | null): ProcessOwner {
  if (reading?.kind !== 'owner') return { pid: -1, bootId: '', startedAt: '' };
  return { pid: reading.owner.pid, bootId: reading.owner.bootId ?? '', startedAt: reading.owner.startedAt ?? '' };
}

/**
 * Takes `.relaycode/lock.json` so that two processes (the app and the CLI) never run
 * transactions on the same project at once (see engine/fs/lock.ts for the rules). Returns the
 * holder when it is held, or a failure when the lock cannot be written at all (read-only or
 * full disk).
 */
export function acquireProjectLock(root: string, now: Date = new Date()): ProjectLock | ProjectLockHeld | { readonly failed: Failure } {
  // A `.relaycode` that is a link or not a folder is not written through, not even for the lock.
  const folder = checkStateFolder(root);
  if (!folder.ok) return { failed: folder.error };
  const file = projectLockPath(root);
  let attempt;
  try {
    attempt = acquireLockFile(file, { ...currentOwner(now) }, { nowMs: now.getTime() });
  } catch (error) {
    return { failed: { code: 'LOCK_FAILED', message: `Cannot take the project lock ${path.relative(root, file)}: ${describeErrno(error)}. Nothing was changed.` } };
  }
  if (!attempt.acquired) return { heldBy: ownerOf(attempt.reading), reason: attempt.reason };
  const { lock } = attempt;
  return {
    release() {
      try {
        lock.release();
      } catch {
        // A lock that cannot be removed (the disk turned read-only) is judged by its dead pid later.
      }
    },
  };
}

/** The refusal for a busy project. */
export function projectBusy(held: ProjectLockHeld): Failure {
  const who = held.heldBy.pid > 0 ? `Another Relay Desk process (pid ${held.heldBy.pid})` : 'Another Relay Desk process';
  return {
    code: 'PROJECT_BUSY',
    message: `${who} is running a transaction in this project (${held.reason}). Wait for it to finish (or approve/reject it), then try again. If no Relay Desk is working on this project (the app, \`relay watch\`, another \`relay apply\`), the lock file ${STATE_LOCK_SHOWN} is not one of ours (it may have come with the files): delete it.`,
  };
}
