import { z } from 'zod';
import { acquireLockFile, inspectLockFile, type LockReading } from '../fs/lock.js';

/**
 * lock.json as the spec shapes it: `{pid, started_at, boot_id}`; Relay Desk adds the run id.
 * Other fields are tolerated (another runner may write more).
 */
export const LockInfoSchema = z.object({ pid: z.number().int(), started_at: z.string(), boot_id: z.string(), run_id: z.string().nullable().optional() });

/** lock.json: who runs a tick right now. */
export type LockInfo = z.infer<typeof LockInfoSchema>;

/** A held lock; `release` removes lock.json (once, and only while it is still ours). */
export interface TickLock {
  readonly info: LockInfo;
  release(): void;
}

export type LockAttempt = { readonly acquired: true; readonly lock: TickLock } | { readonly acquired: false; readonly holder: LockInfo | null; readonly reason: string };

/** What lock.json says about the lock, without touching it. */
export type LockState =
  | { readonly state: 'free' }
  | { readonly state: 'held'; readonly holder: LockInfo | null; readonly reason: string }
  | { readonly state: 'stale'; readonly holder: LockInfo | null; readonly reason: string };

/** The holder as the spec shapes it; null when lock.json cannot be read as one. */
function holderOf(reading: LockReading | null): LockInfo | null {
  if (reading?.kind !== 'owner') return null;
  const { owner } = reading;
  const runId = owner.fields.run_id;
  return { pid: owner.pid, started_at: owner.startedAt ?? '', boot_id: owner.bootId ?? '', run_id: typeof runId === 'string' ? runId : null };
}

/** Reads the lock's state: free, held by a living owner (or being written), or stale (owner dead or machine rebooted). */
export function inspectLock(file: string, nowMs: number = Date.now()): LockState {
  const state = inspectLockFile(file, { nowMs });
  if (state.state === 'free') return state;
  return { state: state.state, holder: holderOf(state.reading), reason: state.reason };
}

/**
 * Takes lock.json with an exclusive create, so of many concurrent runs exactly one wins. A
 * lock whose pid is not running on this boot is reclaimed (engine/fs/lock.ts); a living
 * holder, or a lock still being written, is never taken over.
 */
export function acquireTickLock(file: string, info: LockInfo, nowMs: number = Date.now()): LockAttempt {
  const attempt = acquireLockFile(file, { ...info }, { nowMs });
  if (!attempt.acquired) return { acquired: false, holder: holderOf(attempt.reading), reason: attempt.reason };
  const { lock } = attempt;
  return {
    acquired: true,
    lock: {
      info,
      release() {
        lock.release();
      },
    },
  };
}
